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

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import (
    Case,
    Count,
    F,
    FilteredRelation,
    FloatField,
    IntegerField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Floor, Least

from courses.models import Course, Part
from courses.selectors import course_students
from grading.gradebook import PartColumn, gradebook_columns
from grading.misconception_labels import course_misconception_labels
from grading.models import PartProgress, Submission
from grading.progress_fold import WRONG
from grading.variant_fairness import PartFairness, VariantRow, variant_fairness
from grading.variant_keys import parameter_definitions, variant_key
from grading.variants import variant_params
from grading.wrong_answer_counts import WrongAnswerTally, class_wrong_answers
from instructor.charts import histogram_svg

TOP_WRONG_ANSWERS = 3
SCORE_BINS = ["0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1"]
ATTEMPT_BINS = ["1", "2", "3", "4", "5+"]


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
    # Students per SCORE_BINS bin (best score of those graded) and per ATTEMPT_BINS bin
    # (attempts used, of those who used one).
    score_counts: list[int] = field(default_factory=lambda: [0] * len(SCORE_BINS))
    attempt_counts: list[int] = field(default_factory=lambda: [0] * len(ATTEMPT_BINS))
    # Variants flagged harder than the part's others (grading/variant_fairness.py).
    flagged_variants: list[VariantRow] = field(default_factory=list)

    @property
    def score_chart(self) -> str:
        """SVG histogram of the best scores of the students graded on the part."""
        return histogram_svg(counts=self.score_counts, labels=SCORE_BINS,
                             title=f"Best scores: {self.column.label}",
                             x_label="best score (fraction of the points)")

    @property
    def attempts_chart(self) -> str:
        """SVG histogram of the attempts the students who tried the part used."""
        return histogram_svg(counts=self.attempt_counts, labels=ATTEMPT_BINS,
                             title=f"Attempts used: {self.column.label}",
                             x_label="attempts used")

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
    fairness: PartFairness | None = None  # None: the exercise has no parameters

    @property
    def score_chart(self) -> str:
        return self.statistics.score_chart

    @property
    def attempts_chart(self) -> str:
        return self.statistics.attempts_chart


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


def _distributions(course: Course, students: QuerySet[Any, Any], stats: list[PartStatistics],
                   ) -> None:
    """Fill each part's score and attempt counts from one grouped query over the progress
    rows of `students` who attempted it: scores of the graded rows (an override, or no answer
    pending) in fifths, attempts used capped at the last ATTEMPT_BINS bin."""
    by_part = {s.column.id: s for s in stats}
    last = len(ATTEMPT_BINS)
    rows = (
        PartProgress.objects.filter(Q(attempts__gt=0) | Q(overridden=True), course=course,
                                    part_id__in=list(by_part), student_id__in=students)
        .annotate(
            bin=Floor(Coalesce(F("best_score"), Value(0.0)) * len(SCORE_BINS)),
            graded=Case(When(Q(overridden=True) | Q(pending=0), then=Value(1)),
                        default=Value(0), output_field=IntegerField()),
            tries=Least(F("attempts"), Value(last)))
        .values_list("part_id", "bin", "graded", "tries").annotate(n=Count("id")).order_by()
    )
    for part_id, score_bin, graded, tries, n in rows:
        part = by_part[part_id]
        if graded:
            part.score_counts[min(len(SCORE_BINS) - 1, max(0, int(score_bin)))] += n
        if tries:
            part.attempt_counts[int(tries) - 1] += n


def _wrong_answer_groups(
    course: Course, group: str, part_id: int | None = None, top: int | None = None
) -> dict[int, list[WrongAnswer]]:
    """Wrong answers per part (or of part `part_id`) grouped by canonical form and
    misconception, commonest first (at most `top` per part), each with its distinct students.

    The whole class reads the counts kept on write (grading/wrong_answer_counts.py); one
    group groups its students' answers (an index scan per student of the group).
    """
    labels = course_misconception_labels(course=course)
    part_ids = None if part_id is None else [part_id]
    tallies: dict[int, list[WrongAnswerTally]]
    if not group:
        tallies = class_wrong_answers(course=course, part_ids=part_ids, top=top)
    else:
        tallies = _group_wrong_answers(course, group, part_ids)
    return {
        part: [WrongAnswer(canonical=t.canonical, misconception=t.misconception,
                           label=labels.of(t.misconception, part) if t.misconception else "",
                           count=t.answers, students=t.students)
               for t in (rows[:top] if top is not None else rows)]
        for part, rows in tallies.items()
    }


def _group_wrong_answers(course: Course, group: str,
                         part_ids: list[int] | None) -> dict[int, list[WrongAnswerTally]]:
    """`class_wrong_answers` for the active students of one group, from their answers. Over
    every part (`part_ids` None) the distinct students are left out (0): the summary does not
    show them, and counting them doubles the cost of the query."""
    rows = Submission.objects.filter(
        course=course, outcome__in=WRONG, counts_as_attempt=True,
        student_id__in=course_students(course=course, group=group).values("user_id"),
    )
    students: Count | Value = Value(0)
    if part_ids is not None:
        rows = rows.filter(part_id__in=part_ids)
        students = Count("student_id", distinct=True)
    grouped = (
        rows.values_list("part_id", "canonical", "misconception")
        .annotate(count=Count("*"), students=students)
        .order_by("part_id", "-count", "canonical", "misconception")
    )
    result: dict[int, list[WrongAnswerTally]] = defaultdict(list)
    for part, canonical, misconception, count, people in grouped:
        result[part].append(WrongAnswerTally(canonical=canonical, misconception=misconception,
                                             answers=count, students=people))
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
    _distributions(course, students, result)
    return result


def question_statistics(*, course: Course, group: str = "",
                        module_id: int | None = None) -> list[PartStatistics]:
    """Statistics of every active part of the course (see the module docstring), each with
    its three commonest wrong answers and its score and attempt distributions (`module_id`:
    of that module's parts only), and its variants flagged harder than its others (over
    the whole course: the flags' false discovery rate is controlled across all its parts).
    Eleven queries whatever the size of the class."""
    result = _statistics(course, group, gradebook_columns(course=course, module_id=module_id),
                         _wrong_answer_groups(course, group, top=TOP_WRONG_ANSWERS),
                         TOP_WRONG_ANSWERS)
    flags = {p.column.id: p.flagged for p in variant_fairness(course=course, group=group)}
    for stats in result:
        stats.flagged_variants = flags.get(stats.column.id, [])
    return result


def _variant_difficulty(course: Course, part: Part, group: str) -> list[VariantDifficulty]:
    """Students, solved and mean best score per variant of the part's exercise (empty for an
    exercise with a single variant), grouped in the database by the drawn parameters kept on
    each student's progress row. Two queries, plus the draws of one seed per variant."""
    exercise = part.exercise
    if not exercise.parameters:
        return []
    graded = Q(overridden=True) | Q(pending=0)
    rows = (
        PartProgress.objects.filter(
            course=course, part=part, attempts__gt=0,
            student_id__in=course_students(course=course, group=group).values("user_id"))
        .values("variant_key").annotate(
            students=Count("id"), solved=Count("id", filter=Q(correct=True)),
            graded=Count("id", filter=graded),
            scored=Coalesce(Sum(Coalesce(F("best_score"), Value(0.0)), filter=graded),
                            Value(0.0)),
            seed=Max("variant_seed"))
        .order_by()
    )
    # Keys are drawn when a student first answers; if the definitions changed since, groups
    # whose representative now draws the same parameters are merged (the aggregates add up;
    # `manage.py progress_rebuild` re-draws every student's key).
    definitions = parameter_definitions(exercise.parameters)
    merged: dict[str, dict[str, Any]] = {}
    for row in rows:
        key = variant_key(definitions, row["seed"])
        into = merged.setdefault(key, {**row, "students": 0, "solved": 0, "graded": 0,
                                       "scored": 0.0})
        for name in ("students", "solved", "graded", "scored"):
            into[name] += row[name]
    result = [
        VariantDifficulty(
            params=variant_params(exercise.parameters, exercise.derived, row["seed"]),
            students=row["students"], solved=row["solved"],
            difficulty=row["scored"] / row["graded"] if row["graded"] else None)
        for row in merged.values()
    ]
    result.sort(key=lambda v: (v.difficulty if v.difficulty is not None else 2.0, -v.students))
    return result


def part_detail(*, course: Course, part_id: int, group: str = "") -> PartDetail | None:
    """One part's statistics, every wrong answer group, difficulty per variant and the score
    and attempt distributions, and the fairness of its variants (first-attempt success per
    variant, interval, test and flag; see grading/variant_fairness.py). None for a part
    that is not an active part of the course. Thirteen queries whatever the size of the
    class."""
    part = (Part.objects.active().select_related("exercise")
            .filter(pk=part_id, exercise__module_id__in=course.module_ids(),
                    exercise__archived_at__isnull=True).first())
    if part is None:
        return None
    column = next(c for c in gradebook_columns(course=course) if c.id == part.pk)
    wrong = _wrong_answer_groups(course, group, part_id=part.pk)
    [stats] = _statistics(course, group, [column], wrong, None)
    fairness = (variant_fairness(course=course, group=group, part_id=part.pk)
                if part.exercise.parameters else [])
    return PartDetail(statistics=stats, wrong_answers=stats.wrong_answers,
                      variants=_variant_difficulty(course, part, group),
                      fairness=fairness[0] if fairness else None)
