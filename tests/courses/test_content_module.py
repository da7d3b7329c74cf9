"""The content files hold the whole of Module 5, with the module's own numbers as defaults."""

import json

import pytest

from courses.models import Exercise, Figure, Lab, Part, Section

pytestmark = pytest.mark.django_db


def test_module_has_seven_sections_in_order(module_05):
    numbers = list(Section.objects.active().filter(module=module_05).values_list("number", flat=True))
    assert numbers == ["5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7"]


def test_every_section_carries_its_prose_and_maths(module_05):
    bodies = {s.number: s.body for s in Section.objects.filter(module=module_05)}
    assert "king" in bodies["5.1"] and "queen" in bodies["5.1"]
    assert r"\tanh" in bodies["5.2"] and "W_{hh}" in bodies["5.2"]
    assert "sequential" in bodies["5.3"]
    assert r"\sigma_{\max}" in bodies["5.4"] and r"\prod" in bodies["5.4"]
    assert "bottleneck" in bodies["5.5"]
    assert r"\alpha_{ij}" in bodies["5.6"] and r"\mathbf{c}_i" in bodies["5.6"]
    assert "self-attention" in bodies["5.7"]


def test_module_has_the_five_exercises_of_the_text(module_05):
    kinds = list(
        Exercise.objects.active().filter(module=module_05).exclude(kind=Exercise.Kind.PREDICT)
        .order_by("order").values_list("kind", flat=True)
    )
    assert kinds == ["check", "apply", "apply", "apply", "extend"]


def test_module_has_two_prediction_prompts_one_per_predicted_figure(module_05):
    predictions = Exercise.objects.active().filter(module=module_05, kind=Exercise.Kind.PREDICT)
    assert sorted(p.section.number for p in predictions) == ["5.1", "5.6"]
    figures = Figure.objects.active().filter(section__module=module_05)
    # 5.2's flowchart (issue 25 item 6) is predicted by nothing: it shows no answer.
    assert sorted(f.number for f in figures) == ["5.1", "5.2", "5.6"]
    assert all(f.in_words.startswith(("Words", "A grid", "The hidden state")) for f in figures)


def test_the_three_runnable_sections_have_labs(module_05):
    labs = {lab.section.number: lab.simulation for lab in Lab.objects.active()}
    assert labs["5.2"] == "rnn"
    assert labs["5.4"] == "vanishing-gradient"
    assert labs["5.6"] == "attention"


def test_vanishing_gradient_lab_defaults_are_the_module_lab(module_05):
    schema = Lab.objects.get(slug="vanishing-gradient").param_schema
    assert schema["units"]["default"] == 32
    assert schema["steps"]["default"] == 60
    assert len(schema["sigmas"]["default"]) == 4


def _part(slug: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)


def test_apply_1_defaults_are_sigma_0_85_and_40_steps(module_05):
    part = _part("apply-1-gradient-bound", "bound")
    params = part.exercise.parameters
    assert params["sigma"]["default"] == 0.85
    assert params["steps"]["default"] == 40
    assert part.spec["reference"] == "sigma^steps"


def test_apply_2_defaults_to_1000_tokens(module_05):
    exercise = Exercise.objects.get(slug="apply-2-sequential-steps")
    assert exercise.parameters["N"]["default"] == 1000
    assert {p.key for p in exercise.parts.all()} == {"rnn_steps", "attention_steps"}


def test_apply_3_defaults_are_the_module_weights_and_states(module_05):
    exercise = Exercise.objects.get(slug="apply-3-context-value")
    defaults = {name: spec["default"] for name, spec in exercise.parameters.items()}
    weights = [defaults["w1"], defaults["w2"], defaults["w3"]]
    assert weights == [0.1, 0.6, 0.2]
    assert exercise.derived["w4"] == "1 - w1 - w2 - w3"
    assert [defaults[f"h{i}"] for i in range(1, 5)] == [1, 3, -1, 2]


def test_specs_are_stored_as_json(module_05):
    for part in Part.objects.all():
        json.dumps(part.spec)
        assert part.spec["type"] == part.answer_type
