"""regrade: after a spec fix, stored answers are graded again and score changes reported."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from courses.models import Part
from grading.checkers.refs import reference_number
from grading.models import Submission
from grading.services import submission_create, submission_grade
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def test_regrade_after_a_tolerance_fix_reports_the_changed_scores(alice, course, module_05):
    part = Part.objects.get(exercise__slug="apply-3-context-value")
    Part.objects.filter(pk=part.pk).update(spec={**part.spec, "rtol": 1e-9, "atol": 0.0})
    part.refresh_from_db()
    params = variant_for(student=alice, course=course, exercise=part.exercise).params
    context = reference_number(part.spec["reference"], params).value
    near_text = f"{context * 1.005:.6f}"
    near = submission_create(student=alice, course=course, part=part, raw_answer=near_text)
    exact = submission_create(student=alice, course=course, part=part, raw_answer=repr(context))
    assert near.outcome == "incorrect"

    Part.objects.filter(pk=part.pk).update(spec={**part.spec, "rtol": 0.01})
    out, err = StringIO(), StringIO()
    call_command("regrade", "--exercise", "apply-3-context-value", stdout=out, stderr=err)

    near.refresh_from_db()
    assert near.outcome == "correct" and near.score == pytest.approx(1.0)
    assert Submission.objects.get(pk=exact.pk).outcome != "error"
    assert "2 regraded, 1 score(s) changed" in out.getvalue()
    assert f"'{near_text}': incorrect 0.0 -> correct" in out.getvalue()
    assert "[" in err.getvalue() and "2/2" in err.getvalue()


def test_regrade_leaves_reviews_alone(alice, course, module_05):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    review = submission_create(student=alice, course=course, part=part, raw_answer="fixed vector")
    out = StringIO()
    call_command("regrade", "--exercise", "extend-bottleneck", stdout=out, stderr=StringIO())
    assert Submission.objects.get(pk=review.pk).outcome == "review"
    assert "0 regraded" in out.getvalue()


def test_regrade_keeps_the_penalty_of_a_repeated_right_answer(alice, course, module_05):
    part = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    params = variant_for(student=alice, course=course, exercise=part.exercise).params
    right = f"{params['sigma']}^{params['steps']}"
    for raw in ("34", "0.5", right):
        first_right = submission_create(student=alice, course=course, part=part, raw_answer=raw)
    # A solved part takes no more answers now; a repeat stored before that rule is regraded.
    last = Submission.objects.create(student=alice, course=course, part=part, raw_answer=right,
                                     variant_seed=first_right.variant_seed)
    submission_grade(submission=last)

    call_command("regrade", "--exercise", "apply-1-gradient-bound", stdout=StringIO(),
                 stderr=StringIO())

    last.refresh_from_db()
    assert last.score == pytest.approx(1.0 - 2 * part.exercise.penalty)


def test_regrade_leaves_predictions_to_their_lab(alice, course, module_05,
                                                  django_capture_on_commit_callbacks):
    part = Part.objects.get(exercise__slug="predict-analogy", key="endpoint")
    with django_capture_on_commit_callbacks(execute=True):
        prediction = submission_create(student=alice, course=course, part=part,
                                       raw_answer="woman")
    Submission.objects.filter(pk=prediction.pk).update(
        outcome="incorrect", score=0.0, feedback="You predicted: woman. The lab measured: queen.")

    call_command("regrade", "--exercise", "predict-analogy", stdout=StringIO(), stderr=StringIO())

    prediction.refresh_from_db()
    assert prediction.feedback == "You predicted: woman. The lab measured: queen."


def test_regrade_without_matching_submissions_says_so(module_05):
    with pytest.raises(CommandError, match="no submissions match"):
        call_command("regrade", "--exercise", "apply-1-gradient-bound", stdout=StringIO())
