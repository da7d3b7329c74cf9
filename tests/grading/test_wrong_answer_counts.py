"""The course's wrong-answer counts are kept exactly on write, by concurrent students too,
and read for the active students only."""

import threading

import pytest
from django.db import connection, connections

from courses.models import Enrollment, Part
from grading.models import PartProgress, WrongAnswerCount
from grading.progress_rebuild import progress_rebuild
from grading.services import submission_create
from grading.wrong_answer_counts import (
    class_wrong_answers,
    wrong_answer_counts_change,
    wrong_answer_digest,
)
from tests.factories import EnrollmentFactory, UserFactory

#: A wrong answer to each part that every variant reads (a number, a step count).
WRONG = {"apply-1-gradient-bound": "0.5", "apply-2-sequential-steps": "99999"}


@pytest.fixture
def parts(module_05) -> list[Part]:
    return list(Part.objects.select_related("exercise").filter(exercise__slug__in=[
        "apply-1-gradient-bound", "apply-2-sequential-steps"]).order_by("exercise__slug", "order"))


def _students(course, count: int, prefix: str = "s") -> list:
    users = [UserFactory(username=f"{prefix}{i}") for i in range(count)]
    for user in users:
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    return users


def _table(course) -> set[tuple[object, ...]]:
    return set(WrongAnswerCount.objects.filter(course=course).values_list(
        "part_id", "digest", "canonical", "answers", "students"))


@pytest.mark.django_db(transaction=True)
def test_students_giving_the_same_wrong_answers_at_once_are_all_counted(course, parts) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite serialises every writer)")
    students = _students(course, 8)
    barrier = threading.Barrier(len(students))
    errors: list[str] = []

    def answer(i: int) -> None:
        try:
            barrier.wait()
            # Half answer the parts in one order, half in the other: no circular wait.
            for part in parts if i % 2 else parts[::-1]:
                submission_create(student=students[i], course=course, part=part,
                                  raw_answer=WRONG[part.exercise.slug])
        except Exception as error:  # reported by the assertion below
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(len(students))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    kept = _table(course)
    assert {(answers, people) for *_, answers, people in kept} == {(8, 8)}
    assert len(kept) == len(parts)
    progress_rebuild(course=course)
    assert _table(course) == kept


@pytest.mark.django_db
def test_staff_and_withdrawn_students_are_left_out_of_the_class_counts(
        course, alice, bob, irene, parts) -> None:
    part = parts[0]
    for person in (alice, bob, irene):
        submission_create(student=person, course=course, part=part, raw_answer="0.5")
    submission_create(student=bob, course=course, part=part, raw_answer="0.25")
    Enrollment.objects.filter(course=course, user=bob).update(is_active=False)
    [only] = class_wrong_answers(course=course)[part.pk]
    assert (only.canonical, only.answers, only.students) == ("0.5", 1, 1)
    [kept_half, kept_quarter] = WrongAnswerCount.objects.filter(part=part).order_by("-answers")
    assert (kept_half.answers, kept_quarter.answers) == (3, 1)  # kept for everyone who answered


@pytest.mark.django_db
def test_the_top_wrong_answers_are_exact_when_left_out_members_gave_the_commonest(
        course, parts, irene) -> None:
    part = parts[0]
    leaving = _students(course, 3, prefix="leaving")
    staying = _students(course, 2, prefix="staying")
    for person in leaving:
        submission_create(student=person, course=course, part=part, raw_answer="0.5")
    for person in staying:
        submission_create(student=person, course=course, part=part, raw_answer="0.25")
    submission_create(student=staying[0], course=course, part=part, raw_answer="0.125")
    Enrollment.objects.filter(user__in=leaving).update(is_active=False)
    top = class_wrong_answers(course=course, top=1)[part.pk]
    assert [(t.canonical, t.answers) for t in top] == [("0.25", 2)]


@pytest.mark.django_db
def test_a_wrong_answer_nobody_gives_any_more_leaves_the_counts(course, parts) -> None:
    part = parts[0]
    digest = wrong_answer_digest("", "0.5")
    wrong_answer_counts_change(course_id=course.pk, part_id=part.pk, before={},
                               after={digest: ("", "0.5", 2)})
    assert WrongAnswerCount.objects.get(digest=digest).answers == 2
    wrong_answer_counts_change(course_id=course.pk, part_id=part.pk, before={digest: 2},
                               after={})
    assert not WrongAnswerCount.objects.filter(digest=digest).exists()


@pytest.mark.django_db
def test_a_progress_row_keeps_its_wrong_answers_and_its_variant(course, alice, parts) -> None:
    part = parts[0]
    submission_create(student=alice, course=course, part=part, raw_answer="0.5")
    row = PartProgress.objects.get(student=alice, part=part)
    assert row.wrong_answers == {wrong_answer_digest("", "0.5"): 1}
    assert row.variant_seed is not None and len(row.variant_key) == 32
