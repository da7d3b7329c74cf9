"""Error carried forward on the answer path: a later part is marked against the student's
stored earlier answer, says so, is invalid until the earlier part is answered, and is
regraded when the earlier answer changes."""

import pytest

from grading.models import Submission
from grading.regrade import submissions_regrade
from grading.services import submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def test_the_later_part_waits_for_the_earlier_answer(alice, course, carried_chain):
    _, later = carried_chain
    result = submission_create(student=alice, course=course, part=later, raw_answer="10")
    assert result.outcome == "invalid" and "Answer (rnn_steps) first" in result.feedback
    assert not result.counts_as_attempt


def test_a_later_part_is_marked_against_the_students_own_earlier_answer(alice, course, carried_chain):
    first, later = carried_chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    right = submission_create(student=alice, course=course, part=later,
                              raw_answer=str(2 * (n + 1)))
    assert (right.outcome, right.score) == ("partial", 0.5)
    assert right.feedback.startswith("Marked using your answer to (rnn_steps)")
    assert right.misconception == "carried"


def test_a_corrected_earlier_answer_keeps_the_later_parts_carried_credit(alice, course, carried_chain):
    from grading.models import PartProgress

    first, later = carried_chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    carried = submission_create(student=alice, course=course, part=later,
                                raw_answer=str(2 * (n + 1)))
    assert carried.score == 0.5
    # The student corrects the earlier answer: the later answer, right for the earlier answer
    # it was given with, keeps its mark (the better of then and now), and says so.
    submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    carried.refresh_from_db()
    assert (carried.outcome, carried.score) == ("partial", 0.5)
    assert carried.feedback.startswith(
        f"Kept from your answer to (rnn_steps) when you answered this part ({n + 1})")
    progress = PartProgress.objects.get(student=alice, course=course, part=later)
    assert progress.best_score == 0.5  # the kept row the gradebook reads
    from grading.gradebook import gradebook

    assert gradebook(course=course, student=alice).rows[0].cells[later.pk].best_score == 0.5
    # A regrade (after a spec fix, say) keeps it too.
    submissions_regrade(submissions=Submission.objects.filter(pk=carried.pk))
    carried.refresh_from_db()
    assert carried.score == 0.5


def test_a_new_later_answer_is_marked_against_the_corrected_earlier_answer(alice, course,
                                                                           carried_chain):
    first, later = carried_chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    again = submission_create(student=alice, course=course, part=later,
                              raw_answer=str(2 * (n + 1)))
    assert (again.outcome, again.score) == ("incorrect", 0.0)


def test_carried_credit_refused_for_a_given_value_says_why(alice, course, carried_chain):
    first, later = carried_chain
    first.spec = {**first.spec, "reference": "N + 1", "misconceptions": []}
    first.save(update_fields=["spec"])
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    wrong = submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    assert wrong.outcome == "incorrect"  # N is given by the question, the key is N + 1
    refused = submission_create(student=alice, course=course, part=later,
                                raw_answer=str(2 * n))
    assert (refused.outcome, refused.score) == ("incorrect", 0.0)
    assert f"your answer to (rnn_steps) is {n}, a value the question gives (N)" in \
        refused.feedback


def test_a_regrade_of_the_earlier_answer_carries_to_the_later_part(bob, course, carried_chain):
    first, later = carried_chain
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


def test_check_answers_takes_the_earlier_answers_of_a_carried_part(carried_chain):
    import json

    from grading.batch import answers_check

    line = {"id": "c", "exercise": "apply-2-sequential-steps", "part": "attention_steps",
            "answer": "2002", "earlier": {"rnn_steps": "1001"}}
    missing = {**line, "earlier": {}}
    results = list(answers_check([json.dumps(line), json.dumps(missing)]))
    assert (results[0]["outcome"], results[0]["score"]) == ("partial", 0.5)
    assert results[1]["outcome"] == "invalid"
