"""Property tests of the forms: random products of irreducible factors and their expansions
are classified in the right form, reorderings stay equal up to commutativity and
associativity, and a random non-zero multiple passes "up to a factor" but not plain
equivalence."""

from fractions import Fraction
from math import gcd

from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers import grade
from grading.checkers.forms import form_check
from grading.checkers.mathparse import parse
from grading.checkers.polynomials import polynomial_of

V = ["x"]


def _linear(a: int, b: int) -> str:
    return f"({a}x {'+' if b >= 0 else '-'} {abs(b)})"


def _expanded_text(factors: list[tuple[int, int]]) -> str:
    poly = polynomial_of(parse("*".join(_linear(a, b) for a, b in factors),
                               variables=V).node, V)
    assert poly is not None
    terms = []
    for (power,), coeff in sorted(poly.items(), reverse=True):
        terms.append(f"({coeff})*x^{power}" if power else f"({coeff})")
    return " + ".join(terms)


primitive_linear = st.tuples(st.integers(1, 9), st.integers(-9, 9)).filter(
    lambda f: gcd(*f) == 1)


def _meets(text: str, form: str, key: str | None = None) -> bool:
    key_node = parse(key, variables=V).node if key else None
    return form_check(parse(text, variables=V).node, [form], V, key_node) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(primitive_linear, min_size=2, max_size=4))
def test_a_product_of_primitive_linear_factors_is_factored_and_not_expanded(
        factors: list[tuple[int, int]]) -> None:
    product = "*".join(_linear(a, b) for a, b in factors)
    assert _meets(product, "factored")
    assert not _meets(product, "expanded")


@settings(max_examples=60, deadline=None)
@given(st.lists(primitive_linear, min_size=2, max_size=4).filter(
    lambda fs: any(b for _, b in fs)))  # a monomial (x*x = x^2) is both
def test_the_expansion_of_a_product_is_expanded_and_not_factored(
        factors: list[tuple[int, int]]) -> None:
    expanded = _expanded_text(factors)
    assert _meets(expanded, "expanded")
    assert not _meets(expanded, "factored")
    product = "*".join(_linear(a, b) for a, b in factors)
    spec = {"type": "symbolic", "variables": V, "reference": product, "form": "factored"}
    result = grade(expanded, spec, {})
    assert result.misconception == "form:factored"  # equal, wrong form


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.integers(0, 4)), min_size=2, max_size=5,
                unique_by=lambda t: t[1]), st.randoms(use_true_random=False))
def test_a_reordering_is_equal_up_to_commutativity_and_associativity_only(
        terms: list[tuple[int, int]], rnd) -> None:
    written = [f"{c}*x^{p}" for c, p in terms]
    key = " + ".join(written)
    shuffled = written[:]
    rnd.shuffle(shuffled)
    grouped = f"({shuffled[0]} + {shuffled[1]})" + "".join(f" + {t}" for t in shuffled[2:])
    assert _meets(grouped, "equal_com_ass", key)
    split = f"{terms[0][0] + 1}*x^{terms[0][1]} - x^{terms[0][1]}"
    assert not _meets(" + ".join([split, *written[1:]]), "equal_com_ass", key)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=2, max_size=4).filter(lambda c: any(c[1:])),
       st.fractions(min_value=Fraction(-20), max_value=Fraction(20), max_denominator=9)
       .filter(lambda f: f not in (0, 1)))
def test_a_random_non_zero_multiple_passes_up_to_a_factor_and_fails_plain_equivalence(
        coeffs: list[int], factor: Fraction) -> None:
    key = " + ".join(f"({c})*x^{i}" for i, c in enumerate(coeffs))
    multiple = f"({factor})*({key})"
    plain = {"type": "symbolic", "variables": V, "reference": key, "domain": "real"}
    assert grade(multiple, plain, {}).outcome == "incorrect"
    assert grade(multiple, {**plain, "equivalent_up_to": ["factor"]}, {}).outcome == "correct"
