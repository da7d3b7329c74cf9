# ruff: noqa: RUF001 - full-width brackets and the multiplication sign of shapes are tested
"""Matrix answers: the two input syntaxes, references with matrix operations, shapes, entries
compared numerically or symbolically, partial credit, misconceptions and hints."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import CHECKERS, grade, self_check, validate_spec
from grading.checkers.matrix import reference_matrix
from grading.checkers.matrix_reading import read_matrix

ATTENTION = {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "d": 4}
SCORES = {
    "type": "matrix",
    "reference": "Q*transpose(K)/sqrt(d)",
    "misconceptions": [{"answer": "Q*transpose(K)", "tag": "missing-scale",
                        "feedback": "Divide by sqrt(d)."}],
}


def _cells(raw):
    return [[text.strip() for text, _ in row] for row in read_matrix(raw)]


@pytest.mark.parametrize("raw", [
    "[[1, 2], [3, 4]]", "[1 2; 3 4]", "[1, 2; 3, 4]", "((1, 2), (3, 4))", "{{1, 2}, {3, 4}}",
    "[1, 2], [3, 4]", "[[1 2] [3 4]]", "[1 2\n3 4]", "1 2; 3 4", "[1 2; 3 4;]",
    "［［1，2］，［3，4］］",
])
def test_every_syntax_reads_the_same_matrix(raw):
    assert _cells(raw) == [["1", "2"], ["3", "4"]]


def test_spaces_separate_entries_as_matlab_reads_them():
    assert _cells("[1 -2]") == [["1", "-2"]]
    assert _cells("[1 - 2]") == [["1 - 2"]]
    assert _cells("[2 x, 3]") == [["2 x", "3"]]
    assert _cells("[sin x  cos x]") == [["sin x", "cos x"]]
    assert _cells("[(1 + 2) 3]") == [["(1 + 2)", "3"]]
    assert _cells("[1; 2; 3]") == [["1"], ["2"], ["3"]]
    assert _cells("[1, 2, 3]") == [["1", "2", "3"]]


def test_decimals_in_a_matrix_are_not_refused_for_their_commas():
    result = grade("[[2.83, 0], [0, 1.41]]", {"type": "matrix", "reference": "[[2.83, 0], [0, 1.41]]"})
    assert result.outcome == "correct"
    assert result.canonical == "[[2.83, 0], [0, 1.41]]"
    assert result.latex == r"\begin{pmatrix}2.83 & 0 \\ 0 & 1.41\end{pmatrix}"


@pytest.mark.parametrize(("raw", "message"), [
    ("[[1, 2], [3]]", "row 2 has 1 entry but row 1 has 2"),
    ("[[1, 2], [3, 4]", "missing ']' to close the '[' opened at character 1"),
    ("[[1, , 2]]", "an entry of row 1 is missing"),
    ("[[1, 2)]", "does not match"),
    ("[[1, 2], [3, 4x]]", "unknown name 'x' at character 15"),
])
def test_unreadable_matrices_are_invalid_with_a_position(raw, message):
    result = grade(raw, SCORES, ATTENTION)
    assert result.outcome == "invalid"
    assert message in result.feedback


def test_a_wrong_shape_is_invalid_or_wrong_as_the_author_says():
    result = grade("[[1, 2, 3], [4, 5, 6]]", SCORES, ATTENTION)
    assert (result.outcome, result.feedback) == ("invalid", "expected a 2×2 matrix, got 2×3")
    wide = {"type": "matrix", "reference": [[1, 2, 3], [4, 5, 6]]}
    assert "got 3×2 (rows and columns swapped?)" in grade("[1 4; 2 5; 3 6]", wide).feedback
    counted = grade("[1 4; 2 5; 3 6]", {**wide, "wrong_shape": "incorrect"})
    assert (counted.outcome, counted.score) == ("incorrect", 0.0)
    assert "Expected a 2×3 matrix, got 3×2" in counted.feedback


def test_the_reference_is_computed_from_matrix_parameters_exactly():
    for raw in ("[[1/2, 3/2], [1, 2]]", "[0.5 1.5; 1 2]", "[[sqrt(1/4), 3/2], [1, 4/2]]"):
        assert grade(raw, SCORES, ATTENTION).outcome == "correct", raw
    assert grade("[[0.5000001, 1.5], [1, 2]]", SCORES, ATTENTION).outcome == "incorrect"


def test_matrix_operations_in_references():
    params = {"A": [[1, 2], [3, 4]], "v": [1, 1]}
    cases = {
        "transpose(A)": [[1, 3], [2, 4]], "A^-1": [[-2, 1], [Fraction(3, 2), Fraction(-1, 2)]],
        "inverse(A)*A": [[1, 0], [0, 1]], "A*v": [[3], [7]], "A^2": [[7, 10], [15, 22]],
        "A - 1": [[0, 1], [2, 3]], "hadamard(A, A)": [[1, 4], [9, 16]],
        "abs(-A)": [[1, 2], [3, 4]], "outer(v, v)": [[1, 1], [1, 1]],
        "[[det(A), trace(A)], [sum(A), mean(A)]]": [[-2, 5], [10, Fraction(5, 2)]],
    }
    for text, expected in cases.items():
        matrix = reference_matrix(text, params)
        assert [[Fraction(str(v)) for v in matrix.row(i)] for i in range(matrix.rows)] == \
            expected, text


def test_broken_matrix_references_say_why():
    params = {"A": [[1, 2], [3, 4]], "B": [[1, 2, 3]]}
    for text, message in [("A*B", "cannot multiply a 2×2 matrix by a 1×3 matrix"),
                          ("det(B)", "square matrix"), ("inverse(A - A)", "singular"),
                          ("A + B", "different shapes"), ("det(A)", "not a matrix")]:
        with pytest.raises(ValueError, match=message):
            reference_matrix(text, params)


def test_softmax_by_rows_and_the_wrong_axis_as_a_misconception():
    spec = {"type": "matrix", "reference": "softmax(S)", "rtol": 1e-3,
            "misconceptions": [{"answer": "softmax(S, 0)", "tag": "softmax-axis",
                                "feedback": "Each row sums to 1."}]}
    params = {"S": [[1, 2], [0, 0]]}
    assert grade("[[0.2689, 0.7311], [0.5, 0.5]]", spec, params).outcome == "correct"
    wrong = grade("[[0.7311, 0.8808], [0.2689, 0.1192]]", spec, params)
    assert (wrong.outcome, wrong.misconception) == ("incorrect", "softmax-axis")
    assert self_check(spec, params) == []


def test_misconception_and_automatic_hints():
    assert grade("[[1, 3], [2, 4]]", SCORES, ATTENTION).misconception == "missing-scale"
    transposed = grade("[[0.5, 1], [1.5, 2]]", SCORES, ATTENTION)
    assert "transpose of the expected one" in transposed.feedback
    halved = grade("[[0.25, 0.75], [0.5, 1]]", SCORES, ATTENTION)
    assert "constant factor" in halved.feedback
    negative = grade("[[-0.5, -1.5], [-1, -2]]", SCORES, ATTENTION)
    assert "negative of the expected one" in negative.feedback


def test_wrong_entries_are_named_and_partial_credit_counts_right_entries():
    spec = {**SCORES, "partial": True}
    result = grade("[[0.5, 1.5], [1, 3]]", spec, ATTENTION)
    assert (result.outcome, result.score) == ("partial", 0.75)
    assert "Entry (2, 2) (row, column) is not right." in result.feedback
    assert result.concepts_found == ["entry:2,2"]
    assert grade("[[0.5, 1.5], [1, 3]]", SCORES, ATTENTION).score == 0.0


def test_per_entry_tolerances():
    spec = {"type": "matrix", "reference": "[[sqrt(8), 0], [0, sqrt(2)]]", "sigfigs": 3}
    assert grade("[[2.83, 0], [0, 1.41]]", spec).outcome == "correct"
    assert grade("[[2.82, 0], [0, 1.41]]", spec).outcome == "incorrect"


def test_symbolic_entries():
    spec = {"type": "matrix", "variables": ["x"], "partial": True,
            "reference": [["x^2", "2x"], ["sin(x)", "1"]]}
    assert grade("[[x*x, x + x], [sin x, 1]]", spec).outcome == "correct"
    result = grade("[x^2 2x; cos(x) 1]", spec)
    assert (result.outcome, result.score, result.concepts_found) == ("partial", 0.75,
                                                                     ["entry:2,1"])
    symbolic_ops = {"type": "matrix", "variables": ["t"], "reference": "A*t"}
    assert grade("[[t, 2t], [3t, 4t]]", symbolic_ops, {"A": [[1, 2], [3, 4]]}).outcome == \
        "correct"


def test_pathological_matrices_are_refused():
    huge = "[" + "; ".join(" ".join(["1"] * 1000) for _ in range(1000)) + "]"
    assert "too long" in grade(huge, SCORES, ATTENTION).feedback
    many = "[" + "; ".join(" ".join(["1"] * 30) for _ in range(30)) + "]"
    assert "too many entries (at most 400)" in grade(many, SCORES, ATTENTION).feedback
    assert grade("[[9^9^9^9, 1], [1, 1]]", SCORES, ATTENTION).outcome == "invalid"


def test_spec_validation_and_self_check():
    assert validate_spec(SCORES) == []
    assert self_check(SCORES, ATTENTION) == []
    assert validate_spec({"type": "matrix", "reference": [[1, 2], [3]]}) == \
        ["the rows of 'reference' have different lengths"]
    assert "'wrong_shape' must be" in validate_spec({**SCORES, "wrong_shape": "no"})[0]
    same = {**SCORES, "misconceptions": [{"answer": "transpose(K*transpose(Q))/2",
                                          "tag": "same", "feedback": "x"}]}
    assert "would be graded correct" in self_check(same, ATTENTION)[0]
    shape = {**SCORES, "misconceptions": [{"answer": "K*[1, 1]", "tag": "t", "feedback": "x"}]}
    assert self_check(shape, ATTENTION) != []
    assert CHECKERS["matrix"].reference_answer(SCORES, ATTENTION) == "[[1/2, 3/2], [1, 2]]"


small = st.integers(min_value=-50, max_value=50)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_the_canonical_form_reads_back_and_both_syntaxes_grade_alike(rows, cols, data):
    values = [[data.draw(st.fractions(min_value=-50, max_value=50, max_denominator=12))
               for _ in range(cols)] for _ in range(rows)]
    spec = {"type": "matrix", "reference": [[str(v) for v in row] for row in values]}
    nested = "[" + ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in values) + "]"
    matlab = "[" + "; ".join(" ".join(f"({v})" for v in row) for row in values) + "]"
    first = grade(nested, spec)
    assert first.outcome == "correct"
    assert grade(matlab, spec).outcome == "correct"
    again = grade(first.canonical, spec)
    assert (again.outcome, again.canonical) == ("correct", first.canonical)
    # the exact and the float path agree: a decimal written to 17 digits is within rtol 1e-9
    floats = "[" + ", ".join("[" + ", ".join(repr(float(v)) for v in row) + "]"
                             for row in values) + "]"
    assert grade(floats, spec).outcome == "correct"
