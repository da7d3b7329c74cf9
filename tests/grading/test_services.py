"""submission_create: the raw answer is stored first, then graded; attempts are charged fairly."""

import pytest

from courses.models import Exercise, Part
from grading.models import Submission
from grading.services import SubmissionRefused, attempt_state, submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def bound(module_05) -> Part:
    """Apply 1's only part: the largest gradient after `steps` steps of at most `sigma`."""
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


def _params(student, course, part):
    return variant_for(student=student, course=course, exercise=part.exercise).params


def _submit(student, course, part, raw):
    return submission_create(student=student, course=course, part=part, raw_answer=raw)


def test_correct_answer_typed_as_an_expression_scores_one(alice, course, bound):
    p = _params(alice, course, bound)
    submission = _submit(alice, course, bound, f"{p['sigma']}^{p['steps']}")
    assert submission.outcome == Submission.Outcome.CORRECT
    assert submission.score == 1.0
    assert submission.raw_answer == f"{p['sigma']}^{p['steps']}"
    assert submission.counts_as_attempt
    assert submission.grader_version


def test_linear_decay_answer_gets_its_misconception_tag_and_feedback(alice, course, bound):
    p = _params(alice, course, bound)
    submission = _submit(alice, course, bound, f"{p['sigma']} * {p['steps']}")
    assert submission.outcome == Submission.Outcome.INCORRECT
    assert submission.misconception == "linear-decay"
    assert "linear" in submission.feedback


def test_invalid_answer_is_stored_with_its_message_and_uses_no_attempt(alice, course, bound):
    submission = _submit(alice, course, bound, "0.85^^40")
    assert submission.outcome == Submission.Outcome.INVALID
    assert "character" in submission.feedback
    assert not submission.counts_as_attempt
    assert Submission.objects.get(pk=submission.pk).raw_answer == "0.85^^40"
    assert attempt_state(student=alice, course=course, part=bound).used == 0


def test_the_same_wrong_answer_twice_is_charged_once(alice, course, bound):
    _submit(alice, course, bound, "34")
    again = _submit(alice, course, bound, " 34 ")
    assert not again.counts_as_attempt
    assert "did not use another attempt" in again.feedback
    assert attempt_state(student=alice, course=course, part=bound).used == 1


def test_each_extra_attempt_costs_the_exercise_penalty(alice, course, bound):
    p = _params(alice, course, bound)
    _submit(alice, course, bound, "34")
    _submit(alice, course, bound, "0.5")
    right = _submit(alice, course, bound, f"{p['sigma']}^{p['steps']}")
    assert right.outcome == Submission.Outcome.CORRECT
    assert right.score == pytest.approx(1.0 - 2 * bound.exercise.penalty)


def test_a_solved_part_takes_no_more_answers_and_keeps_the_penalty_it_earned(alice, course, bound):
    p = _params(alice, course, bound)
    _submit(alice, course, bound, "34")
    _submit(alice, course, bound, "0.5")
    right = f"{p['sigma']}^{p['steps']}"
    first = _submit(alice, course, bound, right)
    assert first.score == pytest.approx(1.0 - 2 * bound.exercise.penalty)

    for again in ("0.5", "1"):
        with pytest.raises(SubmissionRefused, match="already solved"):
            _submit(alice, course, bound, again)
    # The very answer sent again at once (a retry after an error page) is the first copy.
    assert _submit(alice, course, bound, right).pk == first.pk
    assert Submission.objects.filter(student=alice).count() == 3


def test_the_api_refuses_an_answer_to_a_solved_part_as_the_page_hides_its_form(
        alice, course, bound, client):
    p = _params(alice, course, bound)
    _submit(alice, course, bound, f"{p['sigma']}^{p['steps']}")
    client.force_login(alice)
    response = client.post(f"/api/v1/courses/{course.slug}/submissions/",
                           {"part": bound.pk, "answer": "0.5"}, content_type="application/json")
    assert response.status_code == 409
    assert response.json()["code"] == "submission_refused"
    assert "already solved" in response.json()["message"]


def test_no_attempts_left_refuses_and_stores_nothing(alice, course, bound):
    Exercise.objects.filter(pk=bound.exercise_id).update(max_attempts=2)
    bound.refresh_from_db()
    # Wrong in every variant (sigma^steps is at most 0.95^20 < 0.36), whatever alice's id.
    _submit(alice, course, bound, "0.5")
    _submit(alice, course, bound, "0.6")
    with pytest.raises(SubmissionRefused, match="all your attempts"):
        _submit(alice, course, bound, "0.7")
    assert Submission.objects.filter(student=alice).count() == 2


def test_invalid_answers_never_exhaust_attempts(alice, course, bound):
    Exercise.objects.filter(pk=bound.exercise_id).update(max_attempts=1)
    bound.refresh_from_db()
    for _ in range(3):
        _submit(alice, course, bound, "((")
    assert _submit(alice, course, bound, "0.1").counts_as_attempt


def test_a_student_of_another_course_is_refused(alice, other_course, bound):
    with pytest.raises(SubmissionRefused, match="not enrolled"):
        _submit(alice, other_course, bound, "0.1")


def test_an_archived_part_refuses_new_answers(alice, course, bound):
    from django.utils import timezone

    Part.objects.filter(pk=bound.pk).update(archived_at=timezone.now())
    bound.refresh_from_db()
    with pytest.raises(SubmissionRefused, match="withdrawn"):
        _submit(alice, course, bound, "0.1")


def test_a_grader_crash_keeps_the_answer_and_stores_an_error_outcome(alice, course, bound):
    Part.objects.filter(pk=bound.pk).update(
        spec={**bound.spec, "type": "numeric", "reference": "sigma^"})  # a broken key
    bound.refresh_from_db()
    submission = _submit(alice, course, bound, "0.0015")
    stored = Submission.objects.get(pk=submission.pk)
    assert stored.outcome == Submission.Outcome.ERROR
    assert stored.raw_answer == "0.0015"
    assert not stored.counts_as_attempt
    assert "Your answer is saved" in stored.feedback


def test_variant_numbers_differ_between_students_but_are_stable(alice, bob, course, bound):
    a1 = variant_for(student=alice, course=course, exercise=bound.exercise)
    a2 = variant_for(student=alice, course=course, exercise=bound.exercise)
    assert a1 == a2
    seeds = {variant_for(student=s, course=course, exercise=bound.exercise).seed
             for s in (alice, bob)}
    assert len(seeds) == 2


def test_extend_answer_awaits_review_with_score_pending(alice, course, module_05):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    submission = _submit(alice, course, part, "The decoder only sees one fixed-size vector.")
    assert submission.outcome == Submission.Outcome.REVIEW
    assert submission.score is None
    assert submission.counts_as_attempt


def test_check_answer_naming_only_exploding_gradients_is_tagged(alice, course, module_05):
    part = Part.objects.get(exercise__slug="check-two-problems")
    submission = _submit(alice, course, part, "Exploding gradients.")
    assert submission.misconception == "exploding-only"


def test_apply_2_answers_tag_both_count_misconceptions(alice, course, module_05):
    rnn = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    attention = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="attention_steps")
    n = _params(alice, course, rnn)["N"]
    assert _submit(alice, course, rnn, "1").misconception == "rnn-parallel"
    assert _submit(alice, course, attention, f"{n:,}").misconception == "attention-sequential"
    assert _submit(alice, course, rnn, f"{n}").outcome == Submission.Outcome.CORRECT
    assert _submit(alice, course, attention, "1").outcome == Submission.Outcome.CORRECT


def test_the_same_number_written_another_way_is_charged_once(alice, course, bound):
    for typed in ("0.5", "0.50", "1/2", "5e-1"):
        _submit(alice, course, bound, typed)
    assert attempt_state(student=alice, course=course, part=bound).used == 1
