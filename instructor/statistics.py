"""Per-question statistics: how many tried and solved each part, how hard it is, how well it
separates strong from weak students, which wrong answers are common, and which variants are
harder.

Definitions (students are the course's active students, optionally one group):

* attempted: students with at least one answer that used an attempt;
* solved: students with a correct answer (or an override to full marks);
* first-attempt correct: students whose first counted attempt was correct, out of attempted;
* attempts to correct: counted attempts up to and including the first correct one, averaged
  over the students who reached a correct answer;
* difficulty: the mean best score (0..1) of the students who attempted (classical item
  difficulty: higher is easier), leaving out students whose answer awaits a reviewer or a
  lab (they have no grade yet, which is not a grade of 0) unless an override graded them;
* discrimination: the point-biserial correlation between solving the part (1/0) and the
  student's total score, over the students who attempted it (None when either is constant).
"""

import json
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db.models import Count, F, FilteredRelation, FloatField, Max, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce, Floor
from django.http import Http404

from courses.models import Course, Part
from courses.selectors import course_students
from grading.gradebook import PartColumn, gradebook_columns
from grading.misconception_labels import course_misconception_labels
from grading.models import GradeOverride, PartProgress, Submission
from grading.progress import FULL_MARKS, SCORED
from grading.variants import variant_drawer, variant_params
from instructor.charts import histogram_svg

WRONG = (Submission.Outcome.INCORRECT, Submission.Outcome.PARTIAL)
#: Answers that have no grade yet: awaiting a reviewer, or a lab (predictions).
UNGRADED = (Submission.Outcome.REVIEW, Submission.Outcome.PENDING)
TOP_WRONG_ANSWERS = 3
#: Seeds whose drawn parameters a process remembers (~20 MB; two classes of 50,000).
VARIANT_KEYS_KEPT = 100_000


@dataclass(frozen=True)
class WrongAnswer:
    canonical: str
    misconception: str
    label: str  # the misconception's one-line description ("" if none)
    count: int  # answers that used an attempt
    students: int  # distinct students (on a part's own page; 0 in the all-parts summary)


@dataclass
class PartStatistics:
    column: PartColumn
    students: int
    attempted: int = 0
    solved: int = 0
    first_attempt_correct: int = 0
    mean_attempts_to_correct: float | None = None
    difficulty: float | None = None
    discrimination: float | None = None
    wrong_answers: list[WrongAnswer] = field(default_factory=list)

    @property
    def attempted_pct(self) -> float | None:
        return _pct(self.attempted, self.students)

    @property
    def correct_pct(self) -> float | None:
        return _pct(self.solved, self.students)

    @property
    def first_attempt_correct_pct(self) -> float | None:
        return _pct(self.first_attempt_correct, self.attempted)


@dataclass(frozen=True)
class VariantDifficulty:
    params: dict[str, Any]
    students: int
    solved: int
    difficulty: float | None  # mean best score of the students who attempted

    @property
    def correct_pct(self) -> float | None:
        return _pct(self.solved, self.students)


@dataclass(frozen=True)
class PartDetail:
    statistics: PartStatistics
    wrong_answers: list[WrongAnswer]
    variants: list[VariantDifficulty]
    score_chart: str  # SVG histogram of the best score of each student who attempted


def _pct(count: int, out_of: int) -> float | None:
    return 100.0 * count / out_of if out_of else None


def point_biserial(item: Sequence[int], totals: Sequence[float]) -> float | None:
    """Point-biserial correlation of a 0/1 item with totals (population form); None if
    undefined (fewer than two values, or either variable constant)."""
    n = len(item)
    if n < 2 or n != len(totals):
        return None
    ones = [t for i, t in zip(item, totals, strict=True) if i]
    zeros = [t for i, t in zip(item, totals, strict=True) if not i]
    if not ones or not zeros:
        return None
    mean = sum(totals) / n
    sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / n)
    if sd == 0:
        return None
    p = len(ones) / n
    return (sum(ones) / len(ones) - sum(zeros) / len(zeros)) / sd * math.sqrt(p * (1 - p))


def point_biserial_from_sums(*, n: int, solved: int, total_sum: float, total_squares: float,
                             solved_total_sum: float) -> float | None:
    """`point_biserial` from aggregates the database computes: `n` students, `solved` of
    them with item 1, the sum and sum of squares of their totals, and the sum of the totals
    of those who solved. None when undefined (as `point_biserial`)."""
    unsolved = n - solved
    if n < 2 or not solved or not unsolved:
        return None
    mean = total_sum / n
    variance = total_squares / n - mean * mean
    if variance <= 1e-12 * max(1.0, total_squares / n):  # constant totals (up to rounding)
        return None
    p = solved / n
    difference = solved_total_sum / solved - (total_sum - solved_total_sum) / unsolved
    return difference / math.sqrt(variance) * math.sqrt(p * (1 - p))


def _part_sums(course: Course, students: QuerySet[Any, Any],
               part_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Per part, one aggregate over the kept progress rows of `students` who attempted it
    (an answer that used an attempt, or an override), joined to their course totals."""
    tried = Q(attempts__gt=0) | Q(overridden=True)
    graded = Q(overridden=True) | Q(pending=0)
    total = Coalesce(F("totals__total"), Value(0.0))
    rows = (
        PartProgress.objects.filter(tried, course=course, part_id__in=part_ids,
                                    student_id__in=students)
        .annotate(totals=FilteredRelation("student__course_progress", condition=Q(
            student__course_progress__course=course)))
        .values("part_id").annotate(
            attempted=Count("id"),
            solved=Count("id", filter=Q(correct=True)),
            first=Count("id", filter=Q(to_correct=1)),
            reached=Count("id", filter=Q(to_correct__gt=0)),
            to_correct=Coalesce(Sum("to_correct"), Value(0)),
            graded=Count("id", filter=graded),
            scored=Coalesce(Sum(Coalesce(F("best_score"), Value(0.0)), filter=graded),
                            Value(0.0)),
            total_sum=Coalesce(Sum(total), Value(0.0)),
            total_squares=Coalesce(Sum(total * total, output_field=FloatField()), Value(0.0)),
            solved_total_sum=Coalesce(Sum(total, filter=Q(correct=True)), Value(0.0)),
        ).order_by()
    )
    return {row["part_id"]: row for row in rows}


def _wrong_answer_groups(
    course: Course, group: str, part_id: int | None = None
) -> dict[int, list[WrongAnswer]]:
    labels = course_misconception_labels(course=course)
    """Wrong answers per part grouped by canonical form and misconception, commonest first.

    For one part (`part_id`) each group also counts its distinct students; over every part
    that count is left out (0): it would double the cost of the query.
    """
    rows = Submission.objects.filter(
        course=course, outcome__in=WRONG, counts_as_attempt=True,
        student_id__in=course_students(course=course, group=group).values("user_id"),
    )
    students: Count | Value
    if part_id is not None:
        students = Count("student_id", distinct=True)
        rows = rows.filter(part_id=part_id)
    else:
        students = Value(0)
    grouped = (
        rows.values_list("part_id", "canonical", "misconception")
        .annotate(count=Count("*"), students=students)
        .order_by("part_id", "-count", "canonical")
    )
    result: dict[int, list[WrongAnswer]] = defaultdict(list)
    for part, canonical, misconception, count, people in grouped:
        result[part].append(WrongAnswer(canonical=canonical, misconception=misconception,
                                        label=labels.of(misconception, part) if misconception
                                        else "", count=count, students=people))
    return result


def _statistics(course: Course, group: str, columns: list[PartColumn],
                wrong: dict[int, list[WrongAnswer]], top: int | None) -> list[PartStatistics]:
    students = course_students(course=course, group=group).values("user_id")
    size = students.count()
    sums = _part_sums(course, students, [c.id for c in columns])
    result = []
    for column in columns:
        row = sums.get(column.id)
        stats = PartStatistics(column=column, students=size)
        if row is not None:
            stats.attempted, stats.solved = row["attempted"], row["solved"]
            stats.first_attempt_correct = row["first"]
            stats.mean_attempts_to_correct = (row["to_correct"] / row["reached"]
                                              if row["reached"] else None)
            stats.difficulty = row["scored"] / row["graded"] if row["graded"] else None
            stats.discrimination = point_biserial_from_sums(
                n=row["attempted"], solved=row["solved"], total_sum=row["total_sum"],
                total_squares=row["total_squares"], solved_total_sum=row["solved_total_sum"])
        answers = wrong.get(column.id, [])
        stats.wrong_answers = answers[:top] if top is not None else answers
        result.append(stats)
    return result


def question_statistics(*, course: Course, group: str = "") -> list[PartStatistics]:
    """Statistics of every active part of the course (see the module docstring), each with
    its three commonest wrong answers. Six queries whatever the size of the class."""
    return _statistics(course, group, gradebook_columns(course=course),
                       _wrong_answer_groups(course, group), TOP_WRONG_ANSWERS)


_KEYS: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}


@lru_cache(maxsize=16)
def _drawer(definitions: str) -> Callable[[int | None], dict[str, Any]]:
    return variant_drawer(json.loads(definitions))


@lru_cache(maxsize=VARIANT_KEYS_KEPT)
def _variant_key(definitions: str, seed: int | None) -> tuple[tuple[str, str], ...]:
    """The drawn parameters of seed `seed` under the parameter definitions (JSON), as a
    hashable key. Remembered: a seed's draws never change while its definitions do not (the
    definitions are part of the key), and a draw costs ~20 us, a lookup ~0.2 us."""
    drawn = _drawer(definitions)(seed)
    key = tuple((name, repr(value)) for name, value in sorted(drawn.items()))
    if len(_KEYS) >= VARIANT_KEYS_KEPT:  # exercises with very many variants: stay bounded
        _KEYS.clear()
    return _KEYS.setdefault(key, key)  # one object per variant, shared by its seeds


def _variant_difficulty(course: Course, part: Part, group: str) -> list[VariantDifficulty]:
    """Students, solved and mean best score per variant of the part's exercise (empty for an
    exercise with a single variant). Two queries."""
    exercise = part.exercise
    if not exercise.parameters:
        return []
    per_student = (
        Submission.objects.filter(
            course=course, part=part, counts_as_attempt=True,
            student_id__in=course_students(course=course, group=group).values("user_id"),
        )
        .values_list("student_id", "variant_seed")
        .annotate(best=Max("score", filter=Q(outcome__in=SCORED)),
                  correct=Count("id", filter=Q(outcome=Submission.Outcome.CORRECT)),
                  ungraded=Count("id", filter=Q(outcome__in=UNGRADED)))
        .order_by()
    )
    overrides: dict[int, float | None] = dict(
        GradeOverride.objects.filter(course=course, part=part)
        .order_by("created_at", "id").values_list("student_id", "score")
    )
    # Students are grouped by their drawn parameters (derived ones follow from them), so
    # sympy runs once per variant rather than once per student; the definitions are checked
    # once (variant_drawer), and a seed's draws are remembered by the process.
    definitions = json.dumps(exercise.parameters, sort_keys=True)
    groups: dict[tuple[Any, ...], list[tuple[int | None, float | None, bool]]] = defaultdict(list)
    for student_id, seed, best, correct, ungraded in per_student:
        key = _variant_key(definitions, seed)
        score: float | None = None if ungraded else best or 0.0  # None: no grade yet
        solved = correct > 0
        if overrides.get(student_id) is not None:
            score = overrides[student_id] or 0.0
            solved = score >= FULL_MARKS
        groups[key].append((seed, score, solved))
    result = []
    for members in groups.values():
        params = variant_params(exercise.parameters, exercise.derived, members[0][0])
        scores = [score for _, score, _ in members if score is not None]
        result.append(VariantDifficulty(
            params=params, students=len(members), solved=sum(1 for *_, s in members if s),
            difficulty=sum(scores) / len(scores) if scores else None,
        ))
    result.sort(key=lambda v: (v.difficulty if v.difficulty is not None else 2.0, -v.students))
    return result


def part_detail(*, course: Course, part_id: int, group: str = "") -> PartDetail:
    """One part's statistics, every wrong answer group, difficulty per variant and the score
    distribution. Raises Http404 for a part that is not an active part of the course.
    Nine queries whatever the size of the class."""
    part = (Part.objects.active().select_related("exercise")
            .filter(pk=part_id, exercise__module_id=course.module_id,
                    exercise__archived_at__isnull=True).first())
    if part is None:
        raise Http404("No such question in this course.")
    column = next(c for c in gradebook_columns(course=course) if c.id == part.pk)
    wrong = _wrong_answer_groups(course, group, part_id=part.pk)
    [stats] = _statistics(course, group, [column], wrong, None)
    counts = [0] * 5
    binned = (
        PartProgress.objects.filter(
            Q(attempts__gt=0) | Q(overridden=True), Q(overridden=True) | Q(pending=0),
            course=course, part=part,
            student_id__in=course_students(course=course, group=group).values("user_id"))
        .annotate(bin=Floor(Coalesce(F("best_score"), Value(0.0)) * 5)).values("bin")
        .annotate(n=Count("id")).order_by()
    )
    for row in binned:
        counts[min(4, max(0, int(row["bin"])))] += row["n"]
    chart = histogram_svg(counts=counts, labels=["0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1"],
                          title="Best scores", x_label="best score (fraction of the points)")
    return PartDetail(statistics=stats, wrong_answers=stats.wrong_answers,
                      variants=_variant_difficulty(course, part, group), score_chart=chart)
