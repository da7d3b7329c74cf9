"""A large demo class, fast: tens of thousands of students and millions of answers drawn
from the module's own misconceptions, written with COPY (PostgreSQL) or bulk_create.

For trying the dashboards and measuring them at scale (tests/benchmarks), never for
production. The answers are graded once per distinct answer (with the module's default
numbers), not once per row, so the rows carry real canonical forms, misconception tags and
feedback while a million of them take seconds to generate.
"""

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from courses.models import Course, Enrollment, Part
from demo.sql import rows_write, tables_analyze
from grading.checkers import GRADER_VERSION, answer_key, checker_for, grade
from grading.checkers.base import misconception_list
from grading.models import DefaultVariant, PartProgress, StudentProgress, Submission
from grading.penalty import penalised
from grading.progress import answer_digest
from grading.progress_rebuild import progress_rebuild
from grading.variant_assignment import default_variant
from grading.variants import reference_value

Progress = Callable[[str, int, int], None]

#: Columns written per submission, in COPY order.
SUBMISSION_COLUMNS = ("student_id", "course_id", "part_id", "raw_answer", "canonical", "outcome",
                      "score", "feedback", "misconception", "grader_version", "answer_key",
                      "counts_as_attempt", "grading_failures", "created_at", "graded_at")


@dataclass(frozen=True)
class Answer:
    """One distinct answer to a part, graded once."""

    raw: str
    outcome: str
    score: float | None
    canonical: str
    feedback: str
    misconception: str
    key: str


@dataclass
class PartPool:
    part_id: int
    max_attempts: int
    penalty: float
    right: list[Answer]
    wrong: list[Answer]  # misconceptions first (the commonest), then plain wrong answers
    invalid: Answer


_NUMBER = re.compile(r"(?<![\w.])\d+(\.\d+)?(?![\w.])")
#: A text part's wrong answers: sentences a student might write (graded by its rubric).
_TEXT_GUESSES = ("I think it is because the numbers get smaller each time.",
                 "a guess I am not sure about")


def _raw_from(expr: Any, spec: dict[str, Any], params: dict[str, Any]) -> str:
    """`expr` (the key, or a misconception's answer) as a student would type it, in the part's
    own notation (a list part's key `["tokens", "d_model/h"]` is `[10, 64]`); "" when it
    cannot be written (a part marked against earlier answers, a prediction)."""
    if spec.get("type") == "choice":
        return str(expr) if isinstance(expr, str) else ""
    if spec.get("type") in ("numeric", "integer") and isinstance(expr, str):
        try:
            value = float(reference_value(expr, params))
        except (TypeError, ValueError):
            return expr
        return str(int(value)) if value.is_integer() else f"{value:.6g}"
    try:
        return checker_for(spec).reference_answer({**spec, "reference": expr}, params)
    except Exception:  # a key that cannot be written gives no candidate
        return ""


def _slips(key: str) -> list[str]:
    """Plausible wrong answers of the key's own shape: each of its first three numbers in
    turn changed as a slip changes it (a whole number off by one, a decimal's point moved)."""
    out = []
    for found in list(_NUMBER.finditer(key))[:3]:
        number = found.group()
        slip = str(int(number) + 1) if found.group(1) is None else f"{float(number) * 10:g}"
        out.append(key[:found.start()] + slip + key[found.end():])
    return out


def _wrong_candidates(spec: dict[str, Any], key: str) -> list[str]:
    """Wrong answers of the part's own type: another option of a choice, sentences for a
    text part, and the key with a slip for every other type."""
    if spec.get("type") == "choice":
        correct = set(spec.get("correct", []))
        return [str(o.get("key")) for o in spec.get("options", []) if o.get("key") not in correct]
    if spec.get("type") == "text":
        return list(_TEXT_GUESSES)
    return _slips(key) if key else []


def _graded(raw: str, spec: dict[str, Any], params: dict[str, Any]) -> Answer | None:
    try:
        result = grade(raw, spec, params)
        key = answer_digest(answer_key(raw, spec))
    except Exception:  # a candidate the grader refuses is left out of the pool
        return None
    return Answer(raw=raw, outcome=result.outcome, score=result.score,
                  canonical=(result.canonical or "")[:2000], feedback=result.feedback,
                  misconception=result.misconception or "", key=key)


def part_pools(course: Course) -> list[PartPool]:
    """For each active part: its right answer(s), its misconceptions' answers and a few
    plain wrong ones, each graded once with the module's numbers; and an unreadable one."""
    pools = []
    parts = (Part.objects.active().select_related("exercise")
             .filter(exercise__module_id__in=course.module_ids(), exercise__archived_at__isnull=True)
             .order_by("exercise__order", "order"))
    for part in parts:
        spec = dict(part.spec)
        params = default_variant(exercise=part.exercise).params
        key = (",".join(map(str, spec.get("correct", []))) if spec.get("type") == "choice"
               else _raw_from(spec.get("reference", ""), spec, params))
        candidates = [key]
        candidates += [_raw_from(m.get("answer", ""), spec, params)
                       for m in misconception_list(spec)]
        candidates += _wrong_candidates(spec, key)
        right: list[Answer] = []
        wrong: list[Answer] = []
        for raw in dict.fromkeys(c for c in candidates if c):
            answer = _graded(raw, spec, params)
            if answer is None or answer.outcome == Submission.Outcome.INVALID:
                continue
            (right if answer.outcome == Submission.Outcome.CORRECT else wrong).append(answer)
        wrong.sort(key=lambda a: not a.misconception)  # tagged misconceptions first
        invalid = _graded("((", spec, params) or Answer("((", "invalid", None, "", "", "", "")
        if right or wrong:
            pools.append(PartPool(part_id=part.pk, max_attempts=part.exercise.max_attempts,
                                  penalty=part.exercise.penalty, right=right, wrong=wrong,
                                  invalid=invalid))
    return pools


def _student_answers(pools: list[PartPool], budget: int, rng: random.Random,
                     start: datetime, term: timedelta) -> Iterator[tuple[Any, ...]]:
    """(part id, Answer, counts, score, created_at) rows for one student, `budget` in all:
    parts in module order, attempts until right (ability decides how often) or out of
    attempts; leftover answers are repeats or unreadable (they use no attempt)."""
    ability = rng.random()
    moment = start + term * rng.random() * 0.5
    step = term * 0.5 / max(budget, 1)
    made = 0
    used_keys: dict[int, set[str]] = {}
    for pool in pools:
        attempts = 0
        keys = used_keys.setdefault(pool.part_id, set())
        while made < budget:
            moment += step * (0.2 + rng.random())
            if rng.random() < 0.05:  # a slip of the keyboard: no attempt used
                yield pool.part_id, pool.invalid, False, None, moment
                made += 1
                continue
            right = bool(pool.right) and (not pool.wrong or rng.random() < 0.25 + 0.6 * ability)
            if right:
                answer = rng.choice(pool.right)
            else:  # misconceptions are the common wrong answers
                weights = [4.0 if a.misconception else 1.0 for a in pool.wrong]
                answer = rng.choices(pool.wrong, weights)[0]
            counts = answer.key not in keys or not answer.key
            attempts += counts
            keys.add(answer.key)
            score = penalised(answer.score, pool.penalty, max(attempts, 1))
            if answer.outcome == Submission.Outcome.REVIEW and rng.random() < 0.7:
                score = round(rng.random(), 2)  # reviewed since
                answer = Answer(answer.raw, "correct" if score >= 1 else "partial", score,
                                answer.canonical, "Reviewed by your instructor.", "", answer.key)
            yield pool.part_id, answer, counts, score, moment
            made += 1
            if right or (pool.max_attempts and attempts >= pool.max_attempts):
                break
        if made >= budget:
            return
    while made < budget:  # everything tried: resubmissions and slips, no attempt used
        pool = rng.choice(pools)
        moment += step
        yield pool.part_id, pool.invalid, False, None, moment
        made += 1


def _rows(course: Course, pools: list[PartPool], students: list[int], per_student: int,
          seed: int) -> Iterator[tuple[Any, ...]]:
    now = timezone.now()
    term = timedelta(days=70)
    start = now - term
    for student_id in students:
        rng = random.Random(seed * 1_000_003 + student_id)  # noqa: S311 (demo data, not secrets)
        for part_id, answer, counts, score, created in _student_answers(
                pools, per_student, rng, start, term):
            yield (student_id, course.pk, part_id, answer.raw, answer.canonical, answer.outcome,
                   score, answer.feedback, answer.misconception, GRADER_VERSION,
                   answer.key if counts else "", counts, 0, created,
                   created + timedelta(seconds=1))


def large_class_seed(*, course: Course, students: int, per_student: int, first: int = 1,
                     seed: int = 5, progress: Progress | None = None,
                     password: str = "") -> tuple[int, int]:
    """Add students `student<first>`..`student<students>` (those missing) to the course with
    `per_student` answers each (only students with no answer in the course get answers),
    then rebuild the course's progress rows. Returns (students added, answers written).
    `progress(stage, done, total)` reports each stage."""
    report = progress or (lambda stage, done, total: None)
    user_model = get_user_model()
    wanted = [f"student{i}" for i in range(first, students + 1)]
    hashed = make_password(password or None)  # one hash for all: a demo, hashing is slow
    now = timezone.now()
    with transaction.atomic():
        existing = set(user_model.objects.filter(username__in=wanted)
                       .values_list("username", flat=True))
        missing = [name for name in wanted if name not in existing]
        rows_write(user_model, ("password", "is_superuser", "username", "first_name", "last_name",
                            "email", "is_staff", "is_active", "date_joined"),
               ((hashed, False, name, name.capitalize(), f"Lastname{i % 997:03d}",
                 f"{name}@example.org", False, True, now) for i, name in enumerate(missing)),
               lambda done: report("students", done, len(missing)))
        ids = dict(user_model.objects.filter(username__in=wanted).values_list("username", "pk"))
        enrolled = set(Enrollment.objects.filter(course=course, user_id__in=ids.values())
                       .values_list("user_id", flat=True))
        new = [(ids[name], i) for i, name in enumerate(wanted, start=first)
               if ids[name] not in enrolled]
        rows_write(Enrollment, ("user_id", "course_id", "role", "group", "external_id", "is_active",
                            "created_at"),
               ((user_id, course.pk, Enrollment.Role.STUDENT, "A" if i % 2 else "B", "", True,
                 now) for user_id, i in new),
               lambda done: report("enrolments", done, len(new)))
        answered = set(Submission.objects.filter(course=course).values_list(
            "student_id", flat=True).distinct()) if per_student else set()
        chosen = sorted(pk for pk in ids.values() if pk not in answered) if per_student else []
        total = len(chosen) * per_student
        pools = part_pools(course)  # before COPY holds the connection
        written = rows_write(Submission, SUBMISSION_COLUMNS,
                         _rows(course, pools, chosen, per_student, seed),
                         lambda done: report("answers", done, total)) if chosen else 0
        # The answers were graded with the modules' own numbers: those are these students'
        # numbers too, so a regrade or their own page agrees with the rows written.
        DefaultVariant.objects.bulk_create(
            [DefaultVariant(course=course, student_id=pk) for pk in chosen],
            batch_size=5000, ignore_conflicts=True)
    progress_rebuild(course=course, progress=lambda done, all_: report("progress", done, all_))
    tables_analyze((Submission, PartProgress, StudentProgress))
    return len(missing), written
