"""A lab never prints the key of an exercise the student has not solved, for their own
variant: the attention lab refuses Apply 3's numbers of the student's variant until Apply 3 is
solved, on the web and through the API alike (one rule, in labs.services / labs.answer_guard)."""

import pytest
from django.test import Client

from courses.models import Exercise, Lab, Part
from grading.models import Submission
from grading.overrides import grade_override_create
from grading.services import submission_create
from grading.variant_assignment import variant_for
from labs.models import LabRun
from labs.services import LabRunRefused, lab_run_request
from labs.simulations import attention
from tests.factories import predictions_made

pytestmark = pytest.mark.django_db


def _own_numbers(student, course) -> dict:
    exercise = Exercise.objects.get(slug="apply-3-context-value")
    params = variant_for(student=student, course=course, exercise=exercise).params
    return {"weights": [float(params[f"w{i}"]) for i in range(1, 5)],
            "states": [float(params[f"h{i}"]) for i in range(1, 5)]}


@pytest.fixture
def ready(course, alice):
    """Alice has made the attention lab's predictions, so only the new rule can refuse."""
    predictions_made(student=alice, course=course, lab_slug="attention")
    return Lab.objects.get(slug="attention")


def test_the_lab_refuses_the_students_own_unsolved_variant(course, alice, ready):
    with pytest.raises(LabRunRefused, match="Apply 3") as refused:
        lab_run_request(lab=ready, course=course, requester=alice,
                        params=_own_numbers(alice, course))
    assert refused.value.code == "unsolved_key"
    assert not LabRun.objects.exists()


def test_reordering_the_pairs_or_adding_a_zero_weight_is_the_same_run(course, alice, ready):
    own = _own_numbers(alice, course)
    shuffled = {"weights": [*own["weights"][::-1], 0.0], "states": [*own["states"][::-1], 9.0]}
    with pytest.raises(LabRunRefused, match="not solved"):
        lab_run_request(lab=ready, course=course, requester=alice, params=shuffled)


def test_other_numbers_the_defaults_and_staff_run(course, alice, irene, ready):
    assert lab_run_request(lab=ready, course=course, requester=alice, params={})
    own = _own_numbers(alice, course)
    changed = {**own, "states": [own["states"][0] + 0.5, *own["states"][1:]]}
    assert lab_run_request(lab=ready, course=course, requester=alice, params=changed)
    assert lab_run_request(lab=ready, course=course, requester=irene, params=own)


def _context_part() -> Part:
    return Part.objects.get(exercise__slug="apply-3-context-value", key="context")


def test_once_solved_the_student_may_check_their_answer_in_the_lab(course, alice, ready):
    exercise = Exercise.objects.get(slug="apply-3-context-value")
    key = variant_for(student=alice, course=course, exercise=exercise).params
    answer = sum(float(key[f"w{i}"]) * float(key[f"h{i}"]) for i in range(1, 5))
    submission = submission_create(student=alice, course=course, part=_context_part(),
                                   raw_answer=f"{answer:.6f}")
    assert submission.outcome == Submission.Outcome.CORRECT
    assert lab_run_request(lab=ready, course=course, requester=alice,
                           params=_own_numbers(alice, course))


def test_a_wrong_answer_overridden_to_full_marks_counts_as_solved(course, alice, irene, ready):
    part = _context_part()
    submission_create(student=alice, course=course, part=part, raw_answer="12345")
    grade_override_create(course=course, student_id=alice.pk, part_id=part.pk,
                          points=part.points, reason="solved on paper", by=irene)
    assert lab_run_request(lab=ready, course=course, requester=alice,
                           params=_own_numbers(alice, course))


def test_the_defaults_are_not_any_variant_of_apply_3():
    exercise_params = {"w1": [0.1, 0.05], "w2": [0.5, 0.6], "w3": [0.2, 0.1]}
    defaults = attention.PARAMS["weights"]["default"]
    assert len(defaults) != 4 or defaults[0] not in exercise_params["w1"]


def test_the_api_refuses_with_409_unsolved_key(course, alice, ready):
    client = Client()
    client.force_login(alice)
    response = client.post(f"/api/v1/courses/{course.slug}/lab-runs/",
                           {"lab": "attention", "params": _own_numbers(alice, course)},
                           content_type="application/json")
    assert response.status_code == 409
    assert response.json()["code"] == "unsolved_key"
    assert not LabRun.objects.exists()


def test_the_web_form_refuses_too(course, alice, ready):
    client = Client()
    client.force_login(alice)
    own = _own_numbers(alice, course)
    response = client.post(f"/courses/{course.slug}/labs/attention/", {
        "weights": ", ".join(str(w) for w in own["weights"]),
        "states": ", ".join(str(h) for h in own["states"]),
        "sharpness": "2", "noise": "0.1"})
    assert response.status_code == 409
    assert "not solved yet" in response.content.decode()
    assert not LabRun.objects.exists()


def test_each_output_word_shows_its_score_weight_and_context():
    import numpy as np

    result = attention.run({}, rng=np.random.default_rng(1))
    rows = dict(attention.KEY_RESULTS(result))
    assert "Context value" in rows
    zone = rows["Writing 'zone'"]
    assert "looks at 'Area'" in zone and "score" in zone and "weight" in zone
    assert "context" in zone
    assert len([label for label in rows if label.startswith("Writing")]) == 14
