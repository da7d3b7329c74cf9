"""A lab never prints a number that answers a part the student has not solved, for their own
variant, within the part's tolerance: the attention lab refuses a run that would print Apply 3's
context value (the student's own numbers, or nudged ones) until Apply 3 is solved, and the
vanishing-gradient lab one that would print Apply 1's bound; on the web and through the API
alike (one rule, in labs.services / labs.answer_guard)."""

import pytest
from django.test import Client

from courses.models import Exercise, Lab, Part
from grading.models import Submission
from grading.overrides import grade_override_create
from grading.services import submission_create
from grading.variant_assignment import variant_for
from grading.variants import variant_params
from labs.answer_guard import printed_answers
from labs.models import LabRun
from labs.services import LabRunRefused, lab_run_request
from labs.simulations import attention, vanishing_gradient
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


def _nudged(own: dict) -> dict:
    """The student's own numbers with one state moved by 1e-4: the context value moves by
    about 1e-5, well within Apply 3's 1% tolerance."""
    return {**own, "states": [*own["states"][:-1], own["states"][-1] + 0.0001]}


def test_a_nudged_number_that_prints_the_key_within_tolerance_is_refused(course, alice, ready):
    with pytest.raises(LabRunRefused, match="Apply 3") as refused:
        lab_run_request(lab=ready, course=course, requester=alice,
                        params=_nudged(_own_numbers(alice, course)))
    assert refused.value.code == "unsolved_key"
    assert not LabRun.objects.exists()


def test_any_numbers_that_print_the_key_within_tolerance_are_refused(course, alice, ready):
    own = _own_numbers(alice, course)
    key = sum(w * h for w, h in zip(own["weights"], own["states"], strict=True))
    with pytest.raises(LabRunRefused, match="not solved"):
        lab_run_request(lab=ready, course=course, requester=alice,
                        params={"weights": [1.0], "states": [key * 1.005]})
    assert lab_run_request(lab=ready, course=course, requester=alice,
                           params={"weights": [1.0], "states": [key * 1.05]})


def test_a_printed_number_counts_when_the_parts_checker_gives_it_credit():
    spec = {"type": "numeric", "reference": "w*h", "rtol": 0.01,
            "misconceptions": [{"answer": "h", "tag": "unweighted", "feedback": "x"}]}
    assert printed_answers(printed=["1.80001"], spec=spec, params={"w": 0.6, "h": 3}) == "1.80001"
    assert printed_answers(printed=["1.9"], spec=spec, params={"w": 0.6, "h": 3}) is None
    assert printed_answers(printed=["3"], spec=spec, params={"w": 0.6, "h": 3}) is None  # a misconception
    assert printed_answers(printed=["1.8"], spec={**spec, "type": "text"},
                           params={"w": 0.6, "h": 3}) is None


def test_a_key_that_happens_to_equal_a_given_value_is_still_protected(module_05):
    """In 5 of Apply 3's 128 variants the context value is 2.0, one of the given states: a run
    printing it answers the part all the same (only a key that IS a given value, reference
    `N`, is left to the prompt). Every variant's own numbers are refused."""
    exercise = Exercise.objects.get(slug="apply-3-context-value")
    part = Part.objects.get(exercise=exercise, key="context")
    variants = {}
    for seed in range(3000):
        params = variant_params(exercise.parameters, exercise.derived, seed)
        variants[tuple(sorted((k, str(v)) for k, v in params.items()))] = params
    assert len(variants) == 128  # every combination of the choices was drawn
    for params in variants.values():
        own = {"weights": [float(params[f"w{i}"]) for i in range(1, 5)],
               "states": [float(params[f"h{i}"]) for i in range(1, 5)]}
        printed = attention.printed_numbers(own)
        assert printed_answers(printed=printed, spec=part.spec, params=params), (params, printed)
    assert printed_answers(printed=["1000"], spec={"type": "integer", "reference": "N"},
                           params={"N": 1000}) is None


def test_every_number_the_guard_checks_is_printed_by_the_run():
    import numpy as np

    params = {"weights": [0.1, 0.6, 0.2, 0.1], "states": [1.0, 3.0, -1.0, 2.0001]}
    rows = dict(attention.KEY_RESULTS(attention.run(params, rng=np.random.default_rng(0))))
    assert attention.printed_numbers(params) == [rows["Context value"]] == ["1.90001"]
    params = {"units": 4, "steps": 40, "sigmas": [0.85, 0.5, 0.9, 0.95], "input_scale": 1.0}
    shown = " ".join(v for _, v in vanishing_gradient.KEY_RESULTS(
        vanishing_gradient.run(params, rng=np.random.default_rng(0))))
    for number in vanishing_gradient.printed_numbers(params):
        assert number in shown


def test_the_vanishing_gradient_lab_refuses_to_print_an_unsolved_apply_1_bound(course, alice):
    predictions_made(student=alice, course=course, lab_slug="vanishing-gradient")
    lab = Lab.objects.get(slug="vanishing-gradient")
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    own = variant_for(student=alice, course=course, exercise=exercise).params
    params = {"steps": int(own["steps"]), "sigmas": [float(own["sigma"]), 0.5, 1.5, 3.0]}
    with pytest.raises(LabRunRefused, match="Apply 1") as refused:
        lab_run_request(lab=lab, course=course, requester=alice, params=params)
    assert refused.value.code == "unsolved_key"
    assert lab_run_request(lab=lab, course=course, requester=alice, params={})


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


def test_the_web_form_refuses_nudged_numbers_and_says_why(course, alice, ready):
    client = Client()
    client.force_login(alice)
    nudged = _nudged(_own_numbers(alice, course))
    response = client.post(f"/courses/{course.slug}/labs/attention/", {
        "weights": ", ".join(str(w) for w in nudged["weights"]),
        "states": ", ".join(str(h) for h in nudged["states"]),
        "sharpness": "2", "noise": "0.1"})
    assert response.status_code == 409
    assert "would print the answer to your Apply 3" in response.content.decode()
    assert not LabRun.objects.exists()


def test_each_output_word_shows_its_score_weight_and_context():
    import numpy as np

    result = attention.run({}, rng=np.random.default_rng(1))
    rows = dict(attention.KEY_RESULTS(result))
    assert "Context value" in rows
    zone = rows["Writing \u201czone\u201d"]
    assert "looks at \u201cArea\u201d" in zone and "score" in zone and "weight" in zone
    assert "context" in zone
    assert len([label for label in rows if label.startswith("Writing")]) == 14
