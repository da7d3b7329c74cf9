"""Property tests for sets, lists, equations and strings: the reader reads back what the
canonical form writes; equivalent forms grade equal (permutations of unordered lists and sets,
random scaling and swapping of an equation); the exact and float paths agree."""

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grading.checkers import grade
from grading.checkers.realsets import evaluate_set, parse_set
from grading.checkers.relations import parse_statement
from grading.checkers.strings import edit_distance

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
small = st.integers(min_value=-20, max_value=20)
nonzero = st.integers(min_value=-9, max_value=9).filter(lambda n: n != 0)


@st.composite
def unions(draw):
    """A union of intervals and finite sets with integer or fractional ends."""
    parts = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        if draw(st.booleans()):
            lo = draw(small)
            hi = lo + draw(st.integers(min_value=1, max_value=10))
            left, right = draw(st.sampled_from("([")), draw(st.sampled_from(")]"))
            lo_text = "-oo" if draw(st.integers(0, 5)) == 0 else str(lo)
            hi_text = "oo" if draw(st.integers(0, 5)) == 0 else f"{hi}/1"
            left = "(" if lo_text == "-oo" else left  # an infinite end is open
            right = ")" if hi_text == "oo" else right
            parts.append(f"{left}{lo_text}, {hi_text}{right}")
        else:
            elements = draw(st.lists(small, min_size=1, max_size=4, unique=True))
            parts.append("{" + ", ".join(str(e) for e in elements) + "}")
    return " U ".join(parts)


@SETTINGS
@given(unions())
def test_a_set_reads_back_from_its_canonical_forms(text):
    expr = parse_set(text)
    assert parse_set(expr.to_text()).to_text() == expr.to_text()
    value = evaluate_set(expr)
    assert evaluate_set(parse_set(value.to_text())) == value


@SETTINGS
@given(unions(), st.randoms(use_true_random=False))
def test_a_union_in_any_order_is_the_same_set(text, rng):
    parts = text.split(" U ")
    rng.shuffle(parts)
    spec = {"type": "set", "reference": text, "reduced": False}
    assert grade(" U ".join(parts), spec, {}).outcome == "correct"


@SETTINGS
@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=12), min_size=1,
                max_size=8), st.randoms(use_true_random=False))
def test_an_unordered_list_in_any_order_grades_equal(values, rng):
    reference = [f"{v.numerator}/{v.denominator}" for v in values]
    shuffled = list(reference)
    rng.shuffle(shuffled)
    spec = {"type": "list", "reference": reference}
    result = grade(", ".join(shuffled), spec, {})
    assert result.outcome == "correct"
    assert grade(", ".join(reference), spec, {}).canonical == result.canonical


@SETTINGS
@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=12), min_size=1,
                max_size=8))
def test_decimals_and_fractions_of_a_list_agree(values):
    # The float path (decimals, compared with the tolerance) agrees with the exact one.
    reference = [f"{v.numerator}/{v.denominator}" for v in values]
    decimals = [repr(float(v)) for v in values]
    assert grade(", ".join(decimals), {"type": "list", "reference": reference,
                                       "ordered": True}, {}).outcome == "correct"


@SETTINGS
@given(small, small, nonzero, nonzero, st.booleans())
def test_a_scaled_and_swapped_equation_grades_equal(a, b, factor, divisor, swap):
    spec = {"type": "equation", "reference": f"y = {a}*x + {b}", "variables": ["x", "y"]}
    scale = Fraction(factor, divisor)
    left, right = f"({scale})*y", f"({scale})*({a}*x + {b})"
    answer = f"{right} = {left}" if swap else f"{left} = {right}"
    assert grade(answer, spec, {}).outcome == "correct", answer
    if a != 0 or b != 0:
        wrong = f"y = {a}*x + {b + 1}"
        assert grade(wrong, spec, {}).outcome == "incorrect"


@SETTINGS
@given(small, nonzero, st.sampled_from(["<", "<=", ">", ">="]))
def test_a_scaled_inequality_describes_the_same_set(bound, factor, op):
    spec = {"type": "equation", "reference": f"x {op} {bound}", "variables": ["x"]}
    flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op] if factor < 0 else op
    answer = f"{factor}*x {flipped} {factor * bound}"
    assert grade(answer, spec, {}).outcome == "correct", answer


@SETTINGS
@given(small, small, st.sampled_from(["<", "<="]), st.sampled_from(["<", "<="]))
def test_a_chain_reads_back_from_its_canonical_form(a, b, op1, op2):
    text = f"{a} {op1} x {op2} {a + abs(b) + 1}"
    statement = parse_statement(text, variables=["x"])
    assert parse_statement(statement.to_text(), variables=["x"]).to_text() == \
        statement.to_text()


@SETTINGS
@given(st.text(alphabet="abcde", max_size=12), st.text(alphabet="abcde", max_size=12))
def test_the_banded_edit_distance_is_levenshtein(a, b):
    def full(x, y):
        row = list(range(len(y) + 1))
        for i, cx in enumerate(x, start=1):
            prev, row[0] = row[0], i
            for j, cy in enumerate(y, start=1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (cx != cy))
        return row[-1]

    distance = full(a, b)
    for limit in range(0, 6):
        expected = distance if distance <= limit else None
        assert edit_distance(a, b, limit) == expected
