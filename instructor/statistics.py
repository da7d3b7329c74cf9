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

from django.db import connection
from django.db.models import Count, Max, Q, QuerySet, Value
from django.http import Http404

from courses.models import Course, Part
from courses.selectors import course_students
from grading.gradebook import FULL_MARKS, SCORED, PartColumn, gradebook_columns
from grading.misconception_labels import course_misconception_labels
from grading.models import GradeOverride, Submission
from grading.variants import variant_params
from instructor.charts import histogram_svg

WRONG = (Submission.Outcome.INCORRECT, Submission.Outcome.PARTIAL)
#: Answers that have no grade yet: awaiting a reviewer, or a lab (predictions).
UNGRADED = (Submission.Outcome.REVIEW, Submission.Outcome.PENDING)
TOP_WRONG_ANSWERS = 3


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


@dataclass(slots=True)
class _Cell:
    """One student's work on one part, as the statistics need it."""

    best: float | None  # best score (fraction); an override replaces it
    attempts: int
    solved: bool
    to_correct: int  # counted attempts up to the first correct one; 0 if none was correct
    ungraded: int = 0  # answers awaiting a reviewer or a lab (0 once an override grades it)

    @property
    def attempted(self) -> bool:
        return self.attempts > 0

    @property
    def graded(self) -> bool:
        """Whether the best score is known: no answer still waits for its grade."""
        return self.ungraded == 0


@dataclass(frozen=True)
class _ClassWork:
    columns: list[PartColumn]
    students: list[int]
    cells: dict[int, dict[int, _Cell]]  # part id -> student id -> cell

    def total(self, student_id: int) -> float:
        return sum((self.cells[c.id][student_id].best or 0.0) * c.points
                   for c in self.columns if student_id in self.cells.get(c.id, {}))


def _class_work_sql(course: Course, enrollments: QuerySet[Any, Any]) -> tuple[str, list[Any]]:
    """One aggregate per (student, part): best score, counted attempts, correct answers,
    answers still waiting for a grade, and the counted attempts up to the first correct one
    (0 if none).

    The last is a running count in a window on PostgreSQL; on SQLite, where a window over
    every row costs more, a correlated count served by the (course, part, student) index,
    run only for groups with a correct answer. Both give the same numbers (tested).
    """
    chosen, chosen_params = enrollments.query.sql_with_params()
    table = connection.ops.quote_name(Submission._meta.db_table)
    correct = Submission.Outcome.CORRECT
    columns = (
        "MAX(CASE WHEN c.outcome IN (%s, %s, %s) THEN c.score END),"
        " SUM(CASE WHEN c.counts_as_attempt = %s THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN c.outcome = %s THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN c.outcome IN (%s, %s) THEN 1 ELSE 0 END)"
    )
    column_params = [*SCORED, True, correct, *UNGRADED]
    if connection.vendor == "postgresql":
        sql = (
            f"SELECT c.student_id, c.part_id, {columns},"  # noqa: S608 (our names and compiled SQL only)
            " COALESCE(MIN(CASE WHEN c.outcome = %s AND c.counts_as_attempt = %s THEN c.rn END), 0)"
            " FROM (SELECT s.student_id, s.part_id, s.outcome, s.score, s.counts_as_attempt,"
            "   SUM(CASE WHEN s.counts_as_attempt = %s THEN 1 ELSE 0 END) OVER ("
            "     PARTITION BY s.student_id, s.part_id ORDER BY s.id ROWS UNBOUNDED PRECEDING) AS rn"
            f"  FROM {table} s WHERE s.course_id = %s AND s.student_id IN ({chosen})) c"
            " GROUP BY c.student_id, c.part_id"
        )
        return sql, [*column_params, correct, True, True, course.pk, *chosen_params]
    first_correct = "MIN(CASE WHEN c.outcome = %s AND c.counts_as_attempt = %s THEN c.id END)"
    sql = (
        f"SELECT c.student_id, c.part_id, {columns},"  # noqa: S608 (our names and compiled SQL only)
        f" CASE WHEN {first_correct} IS NULL THEN 0 ELSE ("
        f"  SELECT COUNT(*) FROM {table} s WHERE s.course_id = %s AND s.part_id = c.part_id"
        "   AND s.student_id = c.student_id AND s.counts_as_attempt = %s"
        f"   AND s.id <= {first_correct}) END"
        f" FROM {table} c WHERE c.course_id = %s AND c.student_id IN ({chosen})"
        " GROUP BY c.student_id, c.part_id"
    )
    return sql, [*column_params, correct, True, course.pk, True, correct, True, course.pk,
                 *chosen_params]


def _class_work(course: Course, group: str) -> _ClassWork:
    """Every student's best score, attempts, success and attempts to the first correct
    answer on every part, overrides applied. Four queries: parts, students, one aggregate
    over the submissions, overrides.

    Attempts are counted in submission order (ids), as `submission_grade` numbers them.
    """
    columns = gradebook_columns(course=course)
    enrollments = course_students(course=course, group=group).values("user_id")
    students = list(enrollments.values_list("user_id", flat=True))
    sql, params = _class_work_sql(course, enrollments)
    cells: dict[int, dict[int, _Cell]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for student_id, part_id, best, attempts, corrects, ungraded, to_correct in cursor.fetchall():
            cells[part_id][student_id] = _Cell(best=best, attempts=int(attempts),
                                               solved=corrects > 0, to_correct=int(to_correct),
                                               ungraded=int(ungraded))
    overrides = GradeOverride.objects.filter(course=course, student_id__in=enrollments)
    latest = {(student_id, part_id): score for student_id, part_id, score in
              overrides.order_by("created_at", "id").values_list("student_id", "part_id", "score")}
    for (student_id, part_id), score in latest.items():
        if score is None:
            continue
        cell = cells[part_id].setdefault(student_id, _Cell(None, 0, False, 0))
        cell.best, cell.solved = score, score >= FULL_MARKS
        cell.attempts = max(cell.attempts, 1)  # an overridden part counts as attempted
        cell.ungraded = 0  # the override is its grade
    return _ClassWork(columns=columns, students=students, cells=cells)


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
        .annotate(count=Count("id"), students=students)
        .order_by("part_id", "-count", "canonical")
    )
    result: dict[int, list[WrongAnswer]] = defaultdict(list)
    for part, canonical, misconception, count, people in grouped:
        result[part].append(WrongAnswer(canonical=canonical, misconception=misconception,
                                        label=labels.of(misconception, part) if misconception
                                        else "", count=count, students=people))
    return result


def _statistics(work: _ClassWork, wrong: dict[int, list[WrongAnswer]],
                top: int | None) -> list[PartStatistics]:
    totals = {student_id: work.total(student_id) for student_id in work.students}
    result = []
    for column in work.columns:
        stats = PartStatistics(column=column, students=len(work.students))
        items: list[int] = []
        item_totals: list[float] = []
        scores: list[float] = []
        reached = first = attempts_sum = 0
        for student_id, cell in work.cells.get(column.id, {}).items():
            if student_id not in totals or not cell.attempted:
                continue
            items.append(1 if cell.solved else 0)
            item_totals.append(totals[student_id])
            if cell.graded:
                scores.append(cell.best or 0.0)
            if cell.to_correct:
                reached += 1
                first += cell.to_correct == 1
                attempts_sum += cell.to_correct
        stats.attempted = len(items)
        stats.solved = sum(items)
        stats.first_attempt_correct = first
        stats.mean_attempts_to_correct = attempts_sum / reached if reached else None
        stats.difficulty = sum(scores) / len(scores) if scores else None
        stats.discrimination = point_biserial(items, item_totals)
        answers = wrong.get(column.id, [])
        stats.wrong_answers = answers[:top] if top is not None else answers
        result.append(stats)
    return result


def question_statistics(*, course: Course, group: str = "") -> list[PartStatistics]:
    """Statistics of every active part of the course (see the module docstring), each with
    its three commonest wrong answers. Six queries whatever the size of the class."""
    return _statistics(_class_work(course, group), _wrong_answer_groups(course, group),
                       TOP_WRONG_ANSWERS)


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
    # sympy runs once per variant rather than once per student.
    groups: dict[tuple[Any, ...], list[tuple[int | None, float | None, bool]]] = defaultdict(list)
    for student_id, seed, best, correct, ungraded in per_student:
        drawn = variant_params(exercise.parameters, None, seed)
        key = tuple((name, repr(value)) for name, value in sorted(drawn.items()))
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
    work = _class_work(course, group)
    wrong = _wrong_answer_groups(course, group, part_id=part.pk)
    stats = next(s for s in _statistics(work, wrong, None) if s.column.id == part.pk)
    scores = [cell.best or 0.0 for cell in work.cells.get(part.pk, {}).values()
              if cell.attempted and cell.graded]
    counts = [0] * 5
    for score in scores:
        counts[min(4, int(score * 5))] += 1
    chart = histogram_svg(counts=counts, labels=["0-0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", "0.8-1"],
                          title="Best scores", x_label="best score (fraction of the points)")
    return PartDetail(statistics=stats, wrong_answers=stats.wrong_answers,
                      variants=_variant_difficulty(course, part, group), score_chart=chart)
