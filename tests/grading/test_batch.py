"""check_answers: JSON lines in, one verdict per line out, in order; bad lines never stop it."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def _run(tmp_path, lines: list[str]) -> list[dict]:
    source = tmp_path / "answers.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = StringIO()
    call_command("check_answers", str(source), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_inline_numeric_and_symbolic_specs(tmp_path):
    results = _run(tmp_path, [
        json.dumps({"id": "a1", "answer": "0.85^40",
                    "spec": {"type": "numeric", "reference": "0.85^40", "rtol": 0.01}}),
        json.dumps({"id": "a2", "answer": "c sigma_max^(T-t)",
                    "spec": {"type": "symbolic", "reference": "c*sigma_max^(T-t)",
                             "variables": ["c", "sigma_max", "T", "t"]}}),
    ])
    assert [(r["id"], r["outcome"], r["score"]) for r in results] == [
        ("a1", "correct", 1.0), ("a2", "correct", 1.0)]
    assert all(isinstance(r["ms"], float) for r in results)


def test_content_part_in_the_default_variant_with_its_misconception(tmp_path, module_05):
    results = _run(tmp_path, [
        json.dumps({"id": "a3", "exercise": "apply-1-gradient-bound", "part": "bound",
                    "answer": "34"}),
        json.dumps({"id": "a4", "exercise": "apply-3-context-value", "part": "context",
                    "answer": "1.9"}),
    ])
    assert results[0]["outcome"] == "incorrect"
    assert results[0]["misconception"] == "linear-decay"
    assert results[1]["outcome"] == "correct"


def test_bad_lines_get_error_lines_and_the_batch_goes_on(tmp_path, module_05):
    results = _run(tmp_path, [
        "{not json",
        json.dumps({"id": "b2", "answer": "1", "spec": {"type": "numerik"}}),
        json.dumps({"id": "b3", "exercise": "nope", "part": "x", "answer": "1"}),
        json.dumps({"id": "b4", "answer": 5, "spec": {"type": "numeric", "reference": "5"}}),
        json.dumps({"id": "b5", "answer": "((", "spec": {"type": "numeric", "reference": "5"}}),
        json.dumps({"id": "b6", "answer": "5", "spec": {"type": "numeric", "reference": "5"}}),
    ])
    assert [r["outcome"] for r in results] == ["error", "error", "error", "error", "invalid",
                                               "correct"]
    assert "not valid JSON" in results[0]["feedback"]
    assert "unknown answer type" in results[1]["feedback"]
    assert "no active part" in results[2]["feedback"]


def test_reads_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", StringIO(json.dumps(
        {"id": "s", "answer": "1,000", "spec": {"type": "integer", "reference": "1000"}}) + "\n"))
    out = StringIO()
    call_command("check_answers", "-", stdout=out)
    assert json.loads(out.getvalue())["outcome"] == "correct"
