"""Two parts of one exercise graded at the same moment for the same student (PostgreSQL): the
score kept for the LMS counts both, whichever transaction commits last."""

import threading

import pytest
from django.db import connection

from courses.models import Part
from grading.services import submission_create
from grading.variant_assignment import variant_for
from lti.scores_models import ScoreDelivery
from tests.lti.ags_setup import platform_link


@pytest.mark.django_db(transaction=True)
def test_parts_graded_concurrently_both_count_in_the_recorded_score(lms_server, course, alice,
                                                                    bob, module_05):
    if connection.vendor != "postgresql":
        pytest.skip("row locks between concurrent transactions: PostgreSQL only")
    link = platform_link(lms_server, course)
    students = [alice, bob]
    for student in students:
        link.identity(student)
    steps = Part.objects.select_related("exercise").get(exercise__slug="apply-2-sequential-steps",
                                                        key="rnn_steps")
    attention = Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="attention_steps")
    errors: list[BaseException] = []

    for _ in range(5):  # several rounds: the race is not won the same way every time
        ScoreDelivery.objects.all().delete()
        from grading.models import PartProgress, StudentProgress, Submission
        Submission.objects.all().delete()
        PartProgress.objects.all().delete()  # the kept progress goes with the answers
        StudentProgress.objects.all().delete()
        barrier = threading.Barrier(4)

        def answer(student, part, raw, barrier=barrier) -> None:
            try:
                barrier.wait(timeout=10)
                submission_create(student=student, course=course, part=part, raw_answer=raw)
            except BaseException as exc:  # reported below
                errors.append(exc)
            finally:
                connection.close()

        threads = []
        for student in students:
            n = variant_for(student=student, course=course, exercise=steps.exercise).params["N"]
            threads += [threading.Thread(target=answer, args=(student, steps, str(n))),
                        threading.Thread(target=answer, args=(student, attention, "1"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)

        assert errors == []
        for student in students:
            delivery = ScoreDelivery.objects.get(student=student)
            assert delivery.score_given == pytest.approx(2.0), student
            assert delivery.activity_progress == "Completed"
