"""Error carried forward on the answer path: a later part is marked against the student's
stored earlier answer, says so, is invalid until the earlier part is answered, and is
regraded when the earlier answer changes."""

import pytest

from courses.models import Part
from grading.models import Submission
from grading.regrade import submissions_regrade
from grading.services import submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain(module_05):
    """Apply 2 with its second part turned into "twice your step count" (carried, 0.5)."""
    first = Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    later = Part.objects.select_related("exercise").get(
        exercise__slug="apply-2-sequential-steps", key="attention_steps")
    later.spec = {"type": "integer", "reference": '2*answer("rnn_steps")',
                  "carried_credit": 0.5}
    later.save(update_fields=["spec"])
    first.exercise.penalty = 0.0
    first.exercise.save(update_fields=["penalty"])
    return first, later


def test_the_later_part_waits_for_the_earlier_answer(alice, course, chain):
    _, later = chain
    result = submission_create(student=alice, course=course, part=later, raw_answer="10")
    assert result.outcome == "invalid" and "Answer (rnn_steps) first" in result.feedback
    assert not result.counts_as_attempt


def test_a_later_part_is_marked_against_the_students_own_earlier_answer(alice, course, chain):
    first, later = chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    right = submission_create(student=alice, course=course, part=later,
                              raw_answer=str(2 * (n + 1)))
    assert (right.outcome, right.score) == ("partial", 0.5)
    assert right.feedback.startswith("Marked using your answer to (rnn_steps)")
    assert right.misconception == "carried"


def test_a_corrected_earlier_answer_regrades_the_later_part(alice, course, chain):
    first, later = chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    carried = submission_create(student=alice, course=course, part=later,
                                raw_answer=str(2 * (n + 1)))
    assert carried.score == 0.5
    # The student corrects the earlier answer: the later answer, right only for the old
    # earlier answer, is regraded against the new one and the change is recorded.
    submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    carried.refresh_from_db()
    assert (carried.outcome, carried.score) == ("incorrect", 0.0)


def test_a_regrade_of_the_earlier_answer_carries_to_the_later_part(bob, course, chain):
    first, later = chain
    n = variant_for(student=bob, course=course, exercise=first.exercise).params["N"]
    earlier = submission_create(student=bob, course=course, part=first, raw_answer=str(n + 3))
    carried = submission_create(student=bob, course=course, part=later,
                                raw_answer=str(2 * (n + 3)))
    assert carried.score == 0.5
    # The author widens the earlier part's key: n + 3 becomes its answer, and the later
    # part, marked against it, is now right with the key itself.
    first.spec = {**first.spec, "reference": "N + 3", "misconceptions": []}
    first.save(update_fields=["spec"])
    report = submissions_regrade(submissions=Submission.objects.filter(pk=earlier.pk))
    assert [c.submission_id for c in report.changed] == [earlier.pk]
    carried.refresh_from_db()
    assert (carried.outcome, carried.score) == ("correct", 1.0)


def test_check_answers_takes_the_earlier_answers_of_a_carried_part(chain):
    import json

    from grading.batch import answers_check

    line = {"id": "c", "exercise": "apply-2-sequential-steps", "part": "attention_steps",
            "answer": "2002", "earlier": {"rnn_steps": "1001"}}
    missing = {**line, "earlier": {}}
    results = list(answers_check([json.dumps(line), json.dumps(missing)]))
    assert (results[0]["outcome"], results[0]["score"]) == ("partial", 0.5)
    assert results[1]["outcome"] == "invalid"
