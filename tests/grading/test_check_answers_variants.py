"""check_answers shows the drawn parameters and grades a content part in a chosen variant:
by number (--variant N, or "variant" on a line) or by parameter values (--params)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

BOUND = {"exercise": "apply-1-gradient-bound", "part": "bound"}


def _run(tmp_path, items: list[dict], *args: str) -> list[dict]:
    source = tmp_path / "answers.jsonl"
    source.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    out = StringIO()
    call_command("check_answers", str(source), *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_content_line_prints_the_parameters_it_was_graded_with(tmp_path, module_05):
    [result] = _run(tmp_path, [{**BOUND, "answer": "0.85^40"}])
    assert result["params"] == {"sigma": 0.85, "steps": 40}
    assert result["outcome"] == "correct"


def test_variant_by_number_on_the_command_line(tmp_path, module_05):
    # variant 1 is the first combination in sorted name order: sigma 0.8, steps 20
    [right, default_key] = _run(tmp_path, [{**BOUND, "answer": "0.8^20"},
                                           {**BOUND, "answer": "0.85^40"}], "--variant", "1")
    assert right["params"] == {"sigma": 0.8, "steps": 20}
    assert right["outcome"] == "correct"
    assert default_key["outcome"] == "incorrect"


def test_a_line_may_choose_its_own_variant_over_the_command_line(tmp_path, module_05):
    [result] = _run(tmp_path, [{**BOUND, "answer": "0.85^40", "variant": 0}], "--variant", "3")
    assert result["params"] == {"sigma": 0.85, "steps": 40}


def test_variant_by_parameter_values(tmp_path, module_05):
    [result] = _run(tmp_path, [{**BOUND, "answer": "0.9^40"}], "--params", '{"sigma": 0.9}')
    assert result["params"] == {"sigma": 0.9, "steps": 40}
    assert result["outcome"] == "correct"


def test_a_variant_that_does_not_exist_is_an_error_line(tmp_path, module_05):
    [result] = _run(tmp_path, [{**BOUND, "answer": "1"}], "--variant", "999")
    assert result["outcome"] == "error"
    assert "no variant 999 (variants 0 to 36)" in result["feedback"]
