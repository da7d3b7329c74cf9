"""The review queue: answers only a person can grade, shown with the part's rubric."""

from dataclasses import dataclass

from django.db.models import Sum
from django.utils.safestring import SafeString, mark_safe

from core.pagination import KnownCountPaginator
from courses.models import Course, Part
from courses.rendering import render_markdown
from courses.selectors import course_students
from grading.checkers import grade
from grading.misconception_labels import misconception_label
from grading.models import StudentProgress, Submission
from grading.progress import review_superseded
from grading.variant_assignment import default_variant_students, variant_of
from grading.variant_numbers import StudentQuestion, student_question

PER_PAGE = 20


@dataclass(frozen=True)
class RubricConcept:
    key: str
    points: float
    found: bool  # the checker found one of the concept's phrasings


@dataclass(frozen=True)
class ReviewItem:
    submission: Submission
    rubric_html: SafeString  # the part's review_rubric (authored content)
    concepts: list[RubricConcept]
    question: StudentQuestion  # the exercise with the student's numbers

    @property
    def suggested_points(self) -> float | None:
        """The checker's share of the rubric's points (concepts found) in the part's points,
        offered as the suggested score; None for a part without a rubric."""
        total = sum(c.points for c in self.concepts)
        if not self.concepts or total <= 0:
            return None
        found = sum(c.points for c in self.concepts if c.found)
        return round(found / total * float(self.submission.part.points), 2)

    @property
    def concepts_found(self) -> int:
        return sum(1 for c in self.concepts if c.found)

    @property
    def misconception_label(self) -> str:
        return misconception_label(self.submission.part.spec, self.submission.misconception)

    @property
    def part_prompt(self) -> str:
        """The reviewed part's prompt with the student's numbers."""
        key = self.submission.part.key
        return next((text for k, text in self.question.part_prompts if k == key), "")


@dataclass(frozen=True)
class ReviewQueue:
    items: list[ReviewItem]
    waiting: int  # answers awaiting review in the whole course
    page: int
    pages: int


def _concepts(submission: Submission) -> list[RubricConcept]:
    spec = submission.part.spec
    rubric = spec.get("rubric") or []
    if not rubric:
        return []
    try:
        found = set(grade(submission.raw_answer, spec).concepts_found)
    except ValueError:  # a broken spec: show the rubric without what the checker found
        found = set()
    return [RubricConcept(key=c["key"], points=float(c.get("points", 1)), found=c["key"] in found)
            for c in rubric]


def _rubric_html(part: Part, cache: dict[int, SafeString]) -> SafeString:
    if part.pk not in cache:
        text = part.spec.get("review_rubric") or ""
        # Authored content from the course files, never student input.
        cache[part.pk] = mark_safe(render_markdown(text)) if text else SafeString("")  # noqa: S308
    return cache[part.pk]


def _question(submission: Submission, course: Course, default: set[int]) -> StudentQuestion:
    part = submission.part
    variant = variant_of(course=course, exercise=part.exercise, student_id=submission.student_id,
                         default=submission.student_id in default)
    return student_question(exercise=part.exercise, part_prompts=[(part.key, part.prompt)],
                            variant=variant)


def waiting_count(*, course: Course) -> int:
    """How many answers of the course's active students await review: the sum of their kept
    totals (StudentProgress.awaiting_review counts their REVIEW answers over every part, kept
    on write by grading/progress.py), one row per student rather than one per answer."""
    students = course_students(course=course).values("user_id")
    total = (StudentProgress.objects.filter(course=course, awaiting_review__gt=0,
                                            student_id__in=students)
             .aggregate(n=Sum("awaiting_review"))["n"])
    return int(total or 0)


def review_queue(*, course: Course, page: int = 1) -> ReviewQueue:
    """One page of the course's answers awaiting review, oldest first, each with the question
    in the student's variant, its part's reviewer rubric, which rubric concepts the checker
    found and the score they suggest. Answers superseded by a later correct answer to the
    same part are left out (`grading.progress.review_superseded`). Three queries (the count
    from the kept progress totals)."""
    students = course_students(course=course).values("user_id")
    # An answer superseded by a later correct one leaves the queue (kept in the history).
    waiting = Submission.objects.filter(~review_superseded(), course=course,
                                        outcome=Submission.Outcome.REVIEW,
                                        student_id__in=students)
    shown = KnownCountPaginator(waiting.select_related("student", "part__exercise")
                        .order_by("created_at", "id"), PER_PAGE,
                        count=waiting_count(course=course)).get_page(page)
    page, pages, chosen = shown.number, shown.paginator.num_pages, list(shown)
    total = shown.paginator.count
    cache: dict[int, SafeString] = {}
    default = default_variant_students(course=course, student_ids={s.student_id for s in chosen})
    items = [ReviewItem(submission=s, rubric_html=_rubric_html(s.part, cache),
                        concepts=_concepts(s), question=_question(s, course, default))
             for s in chosen]
    return ReviewQueue(items=items, waiting=total, page=page, pages=pages)
