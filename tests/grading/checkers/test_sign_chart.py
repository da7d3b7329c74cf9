"""The sign chart: exact solution sets of one-variable relations of polynomials, quotients and
absolute values, and the class of relations it declines."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.checkers.mathparse import parse
from grading.checkers.realsets import RealSet
from grading.checkers.sign_chart import real_roots, solve_by_sign_chart


def _solve(lhs: str, op: str, rhs: str, params: dict | None = None) -> RealSet | None:
    names = ["x", *(params or {})]
    return solve_by_sign_chart(parse(lhs, variables=names), op, parse(rhs, variables=names),
                               "x", params or {})


def _shape(found: RealSet | None) -> list[tuple[float, float, bool, bool]] | None:
    if found is None:
        return None
    return [(c.lo.value, c.hi.value, c.lo_closed, c.hi_closed) for c in found.components]


INF = float("inf")


@pytest.mark.parametrize(("lhs", "op", "rhs", "expected"), [
    ("x^3", "<", "8", [(-INF, 2.0, False, False)]),
    ("abs(x - 1)", "<=", "2", [(-1.0, 3.0, True, True)]),
    ("(x - 1)/(x + 2)", ">=", "0", [(-INF, -2.0, False, False), (1.0, INF, True, False)]),
    ("abs(x)", ">", "x^2 - 2", [(-2.0, 2.0, False, False)]),
    ("(x - 1)^2 (x + 3)", "<=", "0", [(-INF, -3.0, False, True), (1.0, 1.0, True, True)]),
    ("x^2 + 1", "<", "0", []),
    ("abs(x)", "!=", "1", [(-INF, -1.0, False, False), (-1.0, 1.0, False, False),
                           (1.0, INF, False, False)]),
    ("x/x", "=", "1", [(-INF, 0.0, False, False), (0.0, INF, False, False)]),
])
def test_solution_sets(lhs, op, rhs, expected):
    assert _shape(_solve(lhs, op, rhs)) == expected


def test_an_irrational_root_is_kept_to_about_sixty_digits():
    (component,) = _solve("x^3", ">", "2").components
    assert component.lo.exact is None
    assert abs(component.lo.best() ** 3 - 2) < Fraction(1, 10**38)


def test_parameters_are_numbers_and_an_absolute_value_of_parameters_stays():
    assert _shape(_solve("abs(a) * x", "<", "6", {"a": -3})) == [(-INF, 2.0, False, False)]


@pytest.mark.parametrize(("lhs", "rhs"), [
    ("sqrt(x)", "1"),                      # another function of the variable
    ("(x + 1)^13", "0"),                   # above the degree limit
    ("|x| + |x - 1| + |x - 2| + |x - 3|", "5"),  # more absolute values than the limit
    ("2^x", "4"),
])
def test_outside_its_class_it_declines(lhs, rhs):
    assert _solve(lhs, "<", rhs) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fractions(min_value=-20, max_value=20, max_denominator=6),
                min_size=1, max_size=5),
       st.sampled_from(["<", "<=", ">", ">="]))
def test_the_expanded_and_the_factored_polynomial_have_the_same_solution_set(roots, op):
    factored = " * ".join(f"(x - ({r.numerator}/{r.denominator}))" for r in roots)
    coefficients = [Fraction(1)]
    for r in roots:  # multiply by (x - r)
        coefficients = [Fraction(0), *coefficients]
        for i in range(len(coefficients) - 1):
            coefficients[i] -= r * coefficients[i + 1]
    expanded = " + ".join(f"({c.numerator}/{c.denominator})*x^{i}"
                          for i, c in enumerate(coefficients))
    a, b = _solve(factored, op, "0"), _solve(expanded, op, "0")
    assert a is not None and b is not None
    assert a == b
    # Each distinct root is exact, and the set's ends are among them.
    found = {r.exact for r in real_roots(coefficients)}
    assert found == set(roots)
