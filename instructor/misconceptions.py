"""The misconception profile: how often each tag was matched, per class and per student."""

from collections import defaultdict
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Count

from courses.models import Course
from courses.selectors import course_students
from grading.checkers.carried import CARRIED_TAG
from grading.misconception_clearing import TagClearing, misconception_clearing
from grading.misconception_labels import course_misconception_labels
from grading.models import Submission

PER_PAGE = 50


@dataclass(frozen=True)
class TagCount:
    tag: str
    label: str  # the content's one-line description of the tag ("" if none)
    exercise_title: str
    part_key: str
    part_id: int
    count: int  # answers (that used an attempt) matching the tag
    students: int


@dataclass(frozen=True)
class StudentTags:
    student_id: int
    username: str
    name: str
    group: str
    counts: list[int]  # aligned with MisconceptionProfile.tags
    total: int


@dataclass(frozen=True)
class MisconceptionProfile:
    class_counts: list[TagCount]  # commonest first
    tags: list[str]  # every tag seen, commonest first
    tag_labels: list[str]  # aligned with tags
    students: list[StudentTags]  # this page: students with any tag, most tags first
    students_with_tags: int
    page: int
    pages: int
    clearing: list[TagClearing]  # per tag: students who showed it, cleared it, still open

    @property
    def tag_columns(self) -> list[tuple[str, str]]:
        """(tag, label) in column order."""
        return list(zip(self.tags, self.tag_labels, strict=True))


def misconception_profile(*, course: Course, group: str = "", page: int = 1) -> MisconceptionProfile:
    """Counts of each misconception tag in the class (per part) and per student, one page of
    students at a time, each tag with its label, and per tag how many students showed it and
    cleared it (grading/misconception_clearing.py). Eight queries whatever the size of the
    class."""
    labels = course_misconception_labels(course=course)
    students = course_students(course=course, group=group)
    tagged = Submission.objects.filter(
        course=course, counts_as_attempt=True, student_id__in=students.values("user_id"),
    ).exclude(misconception__in=("", CARRIED_TAG))  # carried credit is no misconception
    class_rows = (
        tagged.values_list("misconception", "part__exercise__title", "part__key", "part_id")
        .annotate(count=Count("*"), students=Count("student_id", distinct=True))
        .order_by("-count", "misconception")
    )
    class_counts = [TagCount(tag=tag, label=labels.of(tag, part_id), exercise_title=title,
                             part_key=key, part_id=part_id, count=count, students=n)
                    for tag, title, key, part_id, count, n in class_rows]
    per_tag: dict[str, int] = defaultdict(int)
    for row in class_counts:
        per_tag[row.tag] += row.count
    tags = sorted(per_tag, key=lambda t: (-per_tag[t], t))

    # Students ranked by tagged answers, paged in the database; then the page's tag counts.
    ranked = (tagged.values("student_id").annotate(n=Count("*"))
              .order_by("-n", "student_id").values_list("student_id", flat=True))
    shown = Paginator(ranked, PER_PAGE).get_page(page)
    page, pages, chosen = shown.number, shown.paginator.num_pages, list(shown)
    per_student: dict[int, dict[str, int]] = defaultdict(dict)
    for student_id, tag, count in (tagged.filter(student_id__in=chosen)
                                   .values_list("student_id", "misconception")
                                   .annotate(count=Count("*")).order_by()):
        per_student[student_id][tag] = count
    people = {
        user_id: (username, f"{first} {last}".strip() or username, group_label)
        for user_id, username, first, last, group_label in students.filter(user_id__in=chosen)
        .values_list("user_id", "user__username", "user__first_name", "user__last_name", "group")
    }
    rows = []
    for student_id in chosen:
        username, name, group_label = people.get(student_id, ("?", "?", ""))
        counts = [per_student[student_id].get(tag, 0) for tag in tags]
        rows.append(StudentTags(student_id=student_id, username=username, name=name,
                                group=group_label, counts=counts, total=sum(counts)))
    return MisconceptionProfile(class_counts=class_counts, tags=tags,
                                tag_labels=[labels.of(tag) for tag in tags], students=rows,
                                students_with_tags=shown.paginator.count, page=page, pages=pages,
                                clearing=misconception_clearing(course=course, group=group))
