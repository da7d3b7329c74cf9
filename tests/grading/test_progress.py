"""Progress rows and wrong-answer counts kept on write equal a rebuild from submissions,
after any sequence of submissions, predictions graded by their lab run, reviews, overrides,
regrades, withdrawals and refreshes of many students at once; the class's
wrong answers read from the counts equal those grouped from the active students' answers."""

import contextlib
from typing import Any

import pytest
from django.core.management import call_command
from django.db.models import Count
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from courses.models import Enrollment, Part
from grading.models import (
    GradeOverride,
    PartProgress,
    Review,
    StudentProgress,
    Submission,
    WrongAnswerCount,
)
from grading.overrides import grade_override_create
from grading.progress import progress_refresh_many
from grading.progress_fold import PART_FIELDS, STUDENT_FIELDS
from grading.progress_rebuild import progress_rebuild
from grading.regrade import submissions_regrade
from grading.reviews import review_create
from grading.services import SubmissionRefused, submission_create
from grading.variant_assignment import variant_for
from grading.wrong_answer_counts import WrongAnswerTally, class_wrong_answers
from labs.models import LabRun
from labs.predictions import lab_run_execute_and_grade
from privacy.erasure import personal_data_erase

pytestmark = pytest.mark.django_db

ANSWERS = ("right", "linear", "wrong", "invalid", "half")
#: Predictions of the attention lab's alignment shape: right, wrong (a misconception), other.
PREDICTIONS = ("diagonal-with-crossing", "diagonal", "uniform")


def _counts(course) -> set[tuple[Any, ...]]:
    return set(WrongAnswerCount.objects.filter(course=course).exclude(answers=0, students=0)
               .values_list("part_id", "digest", "misconception", "canonical", "answers",
                            "students"))


def _wrong_answers_of_active_students(course) -> dict[int, list[WrongAnswerTally]]:
    """What `class_wrong_answers` must say, grouped from the submissions themselves."""
    active = Enrollment.objects.filter(course=course, role="student", is_active=True)
    rows = (Submission.objects.filter(course=course, outcome__in=["incorrect", "partial"],
                                      counts_as_attempt=True,
                                      student_id__in=active.values("user_id"))
            .values_list("part_id", "canonical", "misconception")
            .annotate(n=Count("*"), people=Count("student_id", distinct=True)).order_by())
    result: dict[int, list[WrongAnswerTally]] = {}
    for part, canonical, misconception, n, people in rows:
        result.setdefault(part, []).append(WrongAnswerTally(canonical, misconception, n, people))
    for tallies in result.values():
        tallies.sort(key=lambda t: (-t.answers, t.canonical, t.misconception))
    return result


def _kept(course) -> tuple[dict[Any, tuple[Any, ...]], dict[Any, tuple[Any, ...]]]:
    parts = {(p.student_id, p.part_id): tuple(getattr(p, f) for f in PART_FIELDS)
             for p in PartProgress.objects.filter(course=course).exclude(
                 submissions=0, overridden=False, changed_at=None)}
    students = {s.student_id: tuple(round(v, 9) if isinstance(v, float) else v
                                    for v in (getattr(s, f) for f in STUDENT_FIELDS))
                for s in StudentProgress.objects.filter(course=course)}
    return parts, students


def _answer(kind: str, student, course, part) -> str:
    if part.exercise.slug == "extend-bottleneck":
        return {"invalid": "", "right": "attention lets the decoder look back"}.get(
            kind, f"a {kind} explanation of the bottleneck")
    p = variant_for(student=student, course=course, exercise=part.exercise).params
    if part.exercise.slug == "apply-1-gradient-bound":
        return {"right": f"{p['sigma']}^{p['steps']}", "linear": f"{p['sigma']}*{p['steps']}",
                "wrong": "0.5", "invalid": "0.85^^2", "half": "0.25"}[kind]
    return {"right": "0", "linear": "1", "wrong": "2", "invalid": "((", "half": "3"}[kind]


operation = st.one_of(
    st.tuples(st.just("submit"), st.integers(0, 1), st.integers(0, 2), st.sampled_from(ANSWERS)),
    st.tuples(st.just("review"), st.integers(0, 50), st.sampled_from([0.0, 0.5, 1.0])),
    st.tuples(st.just("override"), st.integers(0, 1), st.integers(0, 2),
              st.sampled_from([None, 0.0, 0.4, 1.0])),
    st.tuples(st.just("regrade")),
    st.tuples(st.just("withdraw"), st.integers(0, 2)),
    st.tuples(st.just("erase"), st.integers(0, 2)),
    st.tuples(st.just("refresh_many"), st.integers(0, 2)),
    st.tuples(st.just("predict"), st.integers(0, 2), st.sampled_from(PREDICTIONS),
              st.booleans()),  # True: its run is executed and the prediction graded at once
    # A worker runs a waiting lab run (or finds it reused) and grades the prediction.
    st.tuples(st.just("lab"), st.integers(0, 50)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=12))
def test_kept_rows_equal_a_rebuild_after_any_sequence(course, alice, bob, irene, ops) -> None:
    for model in (Review, GradeOverride, PartProgress, StudentProgress, WrongAnswerCount):
        model.objects.all().delete()
    LabRun.objects.all().delete()
    Submission.objects.all().delete()
    Enrollment.objects.filter(course=course).update(is_active=True)
    students = [alice, bob, irene]  # the instructor answers too; only students are counted
    parts = list(Part.objects.select_related("exercise").filter(exercise__slug__in=[
        "apply-1-gradient-bound", "extend-bottleneck", "apply-2-sequential-steps"]
    ).order_by("exercise__slug", "order"))[:3]
    prediction = Part.objects.select_related("exercise").get(
        exercise__slug="predict-alignment-shape", key="shape")
    for op in ops:
        if op[0] == "predict":  # stored pending; its run waits for a worker (or is reused)
            with contextlib.suppress(SubmissionRefused):
                made = submission_create(student=students[op[1]], course=course,
                                         part=prediction, raw_answer=op[2])
                if op[3]:
                    lab_run_execute_and_grade(run_id=LabRun.objects.get(submission=made).pk)
        elif op[0] == "lab":
            queued = list(LabRun.objects.filter(submission__outcome="pending").order_by("pk"))
            if queued:
                lab_run_execute_and_grade(run_id=queued[op[1] % len(queued)].pk)
        elif op[0] == "submit":
            student, part = students[op[1] % 3], parts[op[2] % len(parts)]
            with contextlib.suppress(SubmissionRefused):
                submission_create(student=student, course=course, part=part,
                                  raw_answer=_answer(op[3], student, course, part))
        elif op[0] == "review":
            waiting = list(Submission.objects.filter(
                part__exercise__slug="extend-bottleneck", counts_as_attempt=True).order_by("pk"))
            if waiting:
                chosen = waiting[op[1] % len(waiting)]
                review_create(course=course, submission_id=chosen.pk, reviewer=irene,
                              points=op[2] * chosen.part.points)
        elif op[0] == "override":
            part = parts[op[2] % len(parts)]
            grade_override_create(course=course, student_id=students[op[1]].pk, part_id=part.pk,
                                  points=None if op[3] is None else op[3] * part.points,
                                  reason="test", by=irene)
        elif op[0] == "erase":  # the person's answer text goes; the counts move with it
            personal_data_erase(user=students[op[1] % 2], requested_by=irene)
        elif op[0] == "refresh_many":  # the reveal's writer: many students of a part at once
            progress_refresh_many(course_id=course.pk, part_id=parts[op[1] % len(parts)].pk,
                                  student_ids=[s.pk for s in students])
        elif op[0] == "withdraw":  # a student leaves, or comes back
            enrollment = Enrollment.objects.get(course=course, user=students[op[1] % 2])
            enrollment.is_active = not enrollment.is_active
            enrollment.save()
        else:
            submissions_regrade(submissions=Submission.objects.filter(course=course))
    kept, counts = _kept(course), _counts(course)
    expected = _wrong_answers_of_active_students(course)
    assert class_wrong_answers(course=course) == expected
    assert class_wrong_answers(course=course, top=1) == {p: t[:1] for p, t in expected.items()}
    progress_rebuild(course=course)
    assert _kept(course) == kept
    assert _counts(course) == counts


def test_the_command_rebuilds_rows_that_were_lost(course, alice) -> None:
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    submission_create(student=alice, course=course, part=part, raw_answer="0.5")
    before = _kept(course)
    PartProgress.objects.all().delete()
    StudentProgress.objects.all().delete()
    call_command("progress_rebuild", "--course", course.slug)
    assert _kept(course) == before and before[0]
