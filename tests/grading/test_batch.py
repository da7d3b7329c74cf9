"""check_answers: JSON lines in, one verdict per line out, in order; bad lines never stop it."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def _run(tmp_path, lines: list[str | bytes]) -> list[dict]:
    source = tmp_path / "answers.jsonl"
    source.write_bytes(b"\n".join(x if isinstance(x, bytes) else x.encode("utf-8", "surrogatepass")
                                  for x in lines) + b"\n")
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


NUMERIC = {"type": "numeric", "reference": "0.85^40", "rtol": 0.01}


def _line(item_id, answer, spec=NUMERIC) -> str:
    return json.dumps({"id": item_id, "answer": answer, "spec": spec})


BAD_LINES = [
    pytest.param(b"[" * 5000 + b"]" * 5000, "nested too deeply", id="nested-5000"),
    pytest.param(b'{"id": "x", "answer": "1"' + b"{" * 5000, "not valid JSON", id="open-5000"),
    pytest.param(b'{"id": "u\xff", "answer": "1"}', "not valid UTF-8", id="invalid-utf8"),
    pytest.param(b"\xc3\x28", "not valid UTF-8", id="bad-continuation"),
    pytest.param(b'"just a string"', "must be a JSON object", id="string"),
    pytest.param(b"[1, 2]", "must be a JSON object", id="array"),
    pytest.param(b"null", "must be a JSON object", id="null"),
    pytest.param(b"12", "must be a JSON object", id="number"),
    pytest.param(b'{"id": [1], "answer": "1"}', "'id' must be", id="id-list"),
    pytest.param(b'{"id": {"a": 1}, "answer": "1"}', "'id' must be", id="id-object"),
    pytest.param(b'{"answer": "1", "spec": {"type": "numeric", "reference": "1"}, "id": 1' +
                 b"0" * 5000 + b"}", "not valid JSON", id="id-5000-digits"),
    pytest.param(b'{"id": "n", "answer": "1", "spec": {"type": "numeric", "reference": "1"},'
                 b' "params": []}', "'params' must be an object", id="params-list"),
    pytest.param(b'{"id": "p", "answer": "1", "spec": {"type": "numeric", "reference": "x"},'
                 b' "params": {"x": "a"}}', "parameter", id="params-string"),
    pytest.param(b'{"id": "s", "answer": "1", "exercise": "apply-1-gradient-bound",'
                 b' "part": "bound", "seed": true}', "'seed' must be an integer", id="seed-bool"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_LINES)
def test_every_bad_line_gets_an_error_line_and_the_lines_around_it_are_graded(
        tmp_path, module_05, bad, message):
    results = _run(tmp_path, [_line("before", "0.85^40"), bad, _line("after", "0.0015")])
    assert [r["id"] for r in results][::2] == ["before", "after"]
    assert [r["outcome"] for r in results] == ["correct", "error", "correct"]
    assert message in results[1]["feedback"]


def test_lone_surrogates_in_an_id_or_an_echoed_answer_are_written_back_as_escapes(tmp_path):
    choice = {"type": "choice", "options": [{"key": "a", "text": "A"}], "correct": ["a"]}
    source = tmp_path / "answers.jsonl"
    source.write_text('{"id": "\\ud800", "answer": "\\udfffz", "spec": ' + json.dumps(choice)
                      + "}\n" + _line("next", "0.85^40") + "\n", encoding="utf-8")
    out = StringIO()
    call_command("check_answers", str(source), stdout=out)
    raw = out.getvalue()
    raw.encode("utf-8")  # the output is valid UTF-8
    first, second = (json.loads(line) for line in raw.splitlines())
    assert first["id"] == "\ud800" and first["outcome"] == "invalid"
    assert "\udfffz" in first["feedback"]
    assert second["outcome"] == "correct"


def test_output_is_flushed_line_by_line(tmp_path, module_05):
    class Recorder(StringIO):
        def __init__(self):
            super().__init__()
            self.flushed: list[int] = []

        def flush(self):
            self.flushed.append(self.getvalue().count("\n"))

    source = tmp_path / "answers.jsonl"
    source.write_text("\n".join(_line(str(i), "0.0015") for i in range(3)) + "\n")
    out = Recorder()
    call_command("check_answers", str(source), stdout=out)
    assert out.flushed[:3] == [1, 2, 3]


def test_a_grader_failure_on_one_line_is_an_error_line(tmp_path, monkeypatch, module_05):
    from grading import batch

    def broken(raw, spec, params):
        if raw == "boom":
            raise ZeroDivisionError("a grader bug")
        return original(raw, spec, params)

    original = batch.grade
    monkeypatch.setattr(batch, "grade", broken)
    results = _run(tmp_path, [_line("a", "boom"), _line("b", "0.0015")])
    assert [r["outcome"] for r in results] == ["error", "correct"]
    assert "internal error" in results[0]["feedback"]


def test_reads_bytes_from_standard_input(monkeypatch):
    class Stdin:
        buffer = iter([b'{"id": "a", "answer": "1,000", "spec": {"type": "integer", '
                       b'"reference": "1000"}}\n', b"\xff\xfe\n"])

    monkeypatch.setattr("sys.stdin", Stdin())
    out = StringIO()
    call_command("check_answers", "-", stdout=out)
    assert [json.loads(x)["outcome"] for x in out.getvalue().splitlines()] == ["correct", "error"]


SUBNORMALS = ["1e-320", "5e-324", "61e-319", "4.9e-324", "2.2250738585072014e-308", "1e308",
              "1.7976931348623157e308", "-5e-324", "0e-999", "1e-999", "9e999"]


@pytest.mark.parametrize("answer", SUBNORMALS)
@pytest.mark.parametrize("tolerance", [{}, {"rtol": 0.01}, {"atol": 1e-3}, {"sigfigs": 2},
                                       {"decimals": 3}, {"decades": 1}])
def test_float_edge_answers_are_graded_not_crashed(tmp_path, answer, tolerance):
    spec = {"type": "numeric", "reference": "0.85^40", **tolerance}
    (result,) = _run(tmp_path, [_line("e", answer, spec)])
    assert result["outcome"] in ("incorrect", "invalid"), result


VOCABULARY = [
    # (answer, spec, expected outcome): everything of issue 12 through the command
    ("arctan(x)", {"type": "symbolic", "reference": "atan(x)", "variables": ["x"]}, "correct"),
    ("asin(m)", {"type": "symbolic", "reference": "arcsin(m)", "variables": ["m"]}, "correct"),
    ("sec(2t)", {"type": "symbolic", "reference": "1/cos(2t)", "variables": ["t"]}, "correct"),
    ("n!", {"type": "symbolic", "reference": "factorial(n)", "variables": ["n"]}, "correct"),
    ("binomial(n, k)", {"type": "symbolic", "reference": "n!/(k!(n-k)!)",
                        "variables": ["n", "k"]}, "correct"),
    ("log(8, 2)", {"type": "numeric", "reference": "3"}, "correct"),
    ("max(a, b)", {"type": "symbolic", "reference": "Max(a, b)", "variables": ["a", "b"]},
     "correct"),
    ("sign(x)", {"type": "symbolic", "reference": "x/|x|", "variables": ["x"],
                 "domain": "real"}, "correct"),
    ("\uff08n \uff0b m\uff09", {"type": "symbolic", "reference": "n + m",
                                "variables": ["n", "m"]}, "correct"),
    ("120!/(118!\u00b72)", {"type": "integer", "reference": "7140"}, "correct"),
    ("0!", {"type": "integer", "reference": "1"}, "correct"),
    ("-infty + 99", {"type": "numeric", "reference": "-oo", "allow_infinity": True}, "correct"),
    ("f(g(n), 1)", {"type": "symbolic", "reference": "f(g(n), 1)", "variables": ["n"],
                    "functions": {"f": 2, "g": 1}}, "correct"),
    ("\u03c3(x)", {"type": "symbolic", "reference": "1/(1 + e^-x)", "variables": ["x"],
                   "functions": ["sigma"]}, "correct"),
    ("relu(x) + softplus(0)", {"type": "symbolic", "reference": "max(x, 0) + ln(2)",
                               "variables": ["x"], "domain": "real"}, "correct"),
    ("0.0124", {"type": "numeric", "reference": "0.01235", "sigfigs": 3}, "correct"),
    ("0.0123", {"type": "numeric", "reference": "0.01235", "sigfigs": 3}, "incorrect"),
    ("2.50", {"type": "numeric", "reference": "2.5", "written_decimals": 1}, "invalid"),
    ("-2.47\u00d710^-2", {"type": "numeric", "reference": "-0.0247", "written_sigfigs": 3},
     "correct"),
    ("0.6666666667*y", {"type": "symbolic", "reference": "2y/3", "variables": ["y"]},
     "incorrect"),
    ("sqrt(10^14+1) - 10^7", {"type": "symbolic", "reference": "1/(sqrt(10^14+1) + 10^7)"},
     "correct"),
    ("(x-b)^4000", {"type": "symbolic", "reference": "(b-x)^4000", "variables": ["x", "b"]},
     "correct"),
    ("9^9^9^9", {"type": "symbolic", "reference": "x", "variables": ["x"]}, "invalid"),
    ("0,0015", {"type": "numeric", "reference": "0.0015"}, "correct"),
]


def test_the_whole_vocabulary_works_through_check_answers(tmp_path):
    lines = [json.dumps({"id": str(i), "answer": answer, "spec": spec})
             for i, (answer, spec, _) in enumerate(VOCABULARY)]
    results = _run(tmp_path, lines)
    got = [(answer, r["outcome"]) for (answer, _, _), r in zip(VOCABULARY, results, strict=True)]
    assert got == [(answer, outcome) for answer, _, outcome in VOCABULARY]
