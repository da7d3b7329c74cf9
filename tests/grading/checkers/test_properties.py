"""Property tests over the whole vocabulary: the float evaluator, the high-precision evaluator
and the sympy builder compute the same values, and canonical text reads back to itself."""

import math
from fractions import Fraction

import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grading.checkers.mathparse import (
    FUNCTIONS,
    Abs,
    BinOp,
    Call,
    Const,
    FormatError,
    Neg,
    Num,
    Pow,
    Var,
    check_sizes,
    evaluate,
    parse,
    precise_evaluate,
    to_sympy,
    to_text,
)
from grading.checkers.mathparse.nodes import walk
from grading.checkers.mathparse.precise import PreciseValue, Unavailable

STUDENT = [f for f in FUNCTIONS if not f.reference_only and not f.complex_only
           and f.name != "abs"]  # |x| is Abs
X = Fraction(7, 5)
Y = Fraction(-3, 4)


def _number(n: int) -> Num:
    return Num(Fraction(n), str(n))


def _trees():
    leaves = st.one_of(
        st.integers(0, 9).map(_number),
        st.sampled_from([Var("x"), Var("y"), Const("pi"), Const("e")]),
        st.sampled_from([Num(Fraction(1, 2), "0.5"), Num(Fraction(3, 2), "1.5")]),
    )

    def call(children, function):
        count = function.min_args if function.max_args == function.min_args else 2
        return st.lists(children, min_size=count, max_size=count).map(
            lambda args: Call(function.name, tuple(args)))

    def extend(children):
        return st.one_of(
            st.tuples(st.sampled_from("+-*/"), children, children).map(
                lambda t: BinOp(t[0], t[1], t[2])),
            children.map(Neg),
            children.map(Abs),
            st.tuples(children, st.integers(-3, 4)).map(
                lambda t: Pow(t[0], _number(t[1]) if t[1] >= 0 else Neg(_number(-t[1])))),
            st.sampled_from(STUDENT).flatmap(lambda f: call(children, f)),
        )

    return st.recursive(leaves, extend, max_leaves=7)


def _real(node):
    x, y = sympy.Rational(X.numerator, X.denominator), sympy.Rational(Y.numerator, Y.denominator)
    try:
        value = sympy.N(to_sympy(node, substitutions={"x": x, "y": y}), 40)
    except (ValueError, TypeError, ArithmeticError):
        return None
    if not value.is_number or value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    re, im = value.as_real_imag()
    if abs(im) > 1e-25 * max(1, abs(re)) or not re.is_finite:
        return None
    return float(re)


def _sympy_value(tree):
    """sympy's value, when every part of the tree is real there (sympy continues through
    complex numbers, as in |asin(2)|; the reader calls such a value undefined)."""
    if any(_real(node) is None for node in walk(tree)):
        return None
    return _real(tree)


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _sized(tree) -> bool:
    try:
        check_sizes(tree)
    except FormatError:
        return False
    return True


@SETTINGS
@given(_trees())
def test_float_precise_and_sympy_values_agree(tree):
    if not _sized(tree):
        return
    precise = precise_evaluate(tree, {"x": X, "y": Y})
    floats = evaluate(tree, {"x": float(X), "y": float(Y)})
    if precise is Unavailable.UNDEFINED:  # both evaluators agree it is undefined
        assert math.isnan(floats), (to_text(tree), floats)
        return
    if precise is Unavailable.OVERFLOW:
        return
    expected = _sympy_value(tree)
    if expected is None:
        return
    assert isinstance(precise, PreciseValue)
    scale = 2.0 ** precise.scale if precise.scale is not None else 1.0
    assert abs(float(precise.value) - expected) <= 1e-12 * max(1.0, abs(expected), scale), (
        to_text(tree), float(precise.value), expected)
    if math.isfinite(floats):
        assert abs(floats - expected) <= 1e-6 * max(1.0, abs(expected), scale), (
            to_text(tree), floats, expected)


@SETTINGS
@given(_trees())
def test_canonical_text_reads_back_to_the_same_tree(tree):
    text = to_text(tree)
    try:
        again = parse(text, variables=["x", "y"])
    except FormatError:
        return  # a generated tree may exceed the bounds (e.g. a huge constant)
    assert to_text(again) == text
    a = evaluate(tree, {"x": 1.3, "y": 0.7})
    b = evaluate(again, {"x": 1.3, "y": 0.7})
    assert (math.isnan(a) and math.isnan(b)) or a == b or math.isclose(a, b, rel_tol=1e-12)
