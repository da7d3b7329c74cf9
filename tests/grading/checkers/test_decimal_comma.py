"""Decimal commas (``decimal_comma = true``): 0,0015 is read as 0.0015, ';' separates items,
and an ambiguous number (1,500) is refused with a message, never guessed."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grading.checkers import grade, validate_spec
from grading.checkers.decimal_comma import decimal_comma_read
from grading.checkers.mathparse import FormatError


def comma(spec: dict) -> dict:
    return {**spec, "decimal_comma": True}


@pytest.mark.parametrize(("typed", "read"), [
    ("0,0015", "0.0015"),
    ("1,5", "1.5"),
    ("1,50", "1.50"),
    ("12,3456", "12.3456"),
    ("0,500", "0.500"),          # a lone 0 never starts a thousands group
    ("1234,567", "1234.567"),    # four digits before: not a thousands group
    ("1,5e-3", "1.5e-3"),
    ("-2,25*x", "-2.25*x"),
    ("(1,5; 2)", "(1.5, 2)"),
    ("{1; 2,5; 3}", "{1, 2.5, 3}"),
    ("max(1;2,5)", "max(1,2.5)"),
    ("0.0015", "0.0015"),        # a decimal point is still read
    ("x_1 + 2,5", "x_1 + 2.5"),
    ("", ""),
])
def test_decimal_commas_and_semicolons_are_rewritten_in_place(typed, read):
    assert decimal_comma_read(typed) == read


@pytest.mark.parametrize(("typed", "position", "words"), [
    ("1,500", 1, "ambiguous"),
    ("1.500", 1, "ambiguous"),
    ("12,345", 1, "ambiguous"),
    ("x + 999,999", 5, "ambiguous"),
    ("1.234,5", 1, "more than one"),
    ("1,234,567", 1, "more than one"),
    ("1, 2", 2, "separate items with ';'"),
    ("(a,b)", 3, "separate items with ';'"),
    ("x_1,2", 4, "separate items with ';'"),
])
def test_ambiguous_numbers_and_stray_commas_are_refused_where_they_are(typed, position, words):
    with pytest.raises(FormatError) as refused:
        decimal_comma_read(typed)
    assert refused.value.position == position
    assert words in refused.value.message


def test_the_ambiguity_message_offers_both_readings():
    with pytest.raises(FormatError) as refused:
        decimal_comma_read("1,500")
    assert "Write 1500 for the whole number, or 1,5 for the decimal number" \
        in refused.value.message


def test_a_matrix_keeps_semicolons_between_rows():
    assert decimal_comma_read("[1,5 2; 3 4]", separators=False) == "[1.5 2; 3 4]"
    with pytest.raises(FormatError, match="entries with spaces and rows with ';'"):
        decimal_comma_read("[1, 2]", separators=False)


@given(whole=st.integers(0, 10**6), fraction=st.text("0123456789", min_size=1, max_size=8))
def test_an_unambiguous_decimal_comma_reads_as_the_decimal_point(whole, fraction):
    typed = f"{whole},{fraction}"
    ambiguous = whole != 0 and whole < 1000 and len(fraction) == 3
    if ambiguous:
        with pytest.raises(FormatError, match="ambiguous"):
            decimal_comma_read(typed)
    else:
        assert decimal_comma_read(typed) == f"{whole}.{fraction}"


@given(st.text(alphabet="0123456789,.;()[]{}+-*/^ xy_e", max_size=30))
def test_the_rewrite_keeps_every_position_or_refuses(typed):
    try:
        read = decimal_comma_read(typed)
    except FormatError as refused:
        assert refused.position is not None and 1 <= refused.position <= len(typed)
        return
    assert len(read) == len(typed)
    assert all(a == b or (a, b) in {(",", "."), (";", ",")} for a, b in zip(typed, read, strict=True))


@given(value=st.fractions(min_value=-1000, max_value=1000, max_denominator=1000))
def test_a_number_written_with_a_comma_grades_as_with_a_point(value):
    text = f"{float(value):.6f}"
    spec = {"type": "numeric", "reference": text, "rtol": 1e-9}
    by_point = grade(text, spec)
    by_comma = grade(text.replace(".", ","), comma(spec))
    assert (by_comma.outcome, by_comma.score) == (by_point.outcome, by_point.score) \
        == ("correct", 1.0)


def test_a_numeric_part_reads_0_0015_with_a_comma():
    result = grade("0,0015", comma({"type": "numeric", "reference": "0.0015", "rtol": 1e-6}))
    assert (result.outcome, result.score) == ("correct", 1.0)


def test_an_ambiguous_answer_is_invalid_not_graded():
    result = grade("1,500", comma({"type": "numeric", "reference": "1.5"}))
    assert result.outcome == "invalid"
    assert result.position == 1
    assert "ambiguous" in result.feedback


def test_without_the_key_semicolons_are_not_separators():
    result = grade("0,5; 0,25", {"type": "list", "reference": ["0.5", "0.25"]})
    assert result.outcome == "invalid"


@pytest.mark.parametrize(("spec", "typed"), [
    ({"type": "vector", "reference": ["1.5", "2"]}, "(1,5; 2)"),
    ({"type": "list", "reference": ["0.5", "0.25"]}, "0,5; 0,25"),
    ({"type": "set", "reference": "{0.5, 2}"}, "{2; 0,5}"),
    ({"type": "symbolic", "reference": "1.5*x", "variables": ["x"]}, "1,5x"),
    ({"type": "matrix", "reference": [["1.5", "2"], ["3", "4"]]}, "[1,5 2; 3 4]"),
    ({"type": "quantity", "reference": "2.5", "units": "m"}, "2,5 m"),
])
def test_vectors_lists_sets_and_matrices_take_semicolons_and_decimal_commas(spec, typed):
    result = grade(typed, comma(spec))
    assert (result.outcome, result.score) == ("correct", 1.0), result.feedback


def test_the_key_is_validated_as_a_boolean():
    spec = {"type": "numeric", "reference": "1.5"}
    assert validate_spec(comma(spec)) == []
    assert "'decimal_comma' must be true or false" in validate_spec(
        {**spec, "decimal_comma": "yes"})
