# ruff: noqa: RUF001 - maths symbols are the point here
"""Equations, sets, lists and strings: grading latency beside a naive sympy baseline, and
how fast pathological answers are refused, in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_answer_type_speed.py -s
For each type: p50 and p99 of ``grade()`` over a mixed set of right, wrong and invalid
answers; beside it the naive way (sympy: ``parse_expr`` of both texts, then
``simplify(lhs - rhs)`` ratios for equations, ``solve_univariate_inequality`` for
inequalities, ``FiniteSet``/``Interval``/``Union`` equality for sets, sorted lists), with the
ratio of medians. Then the time to refuse pathological input (nested unions, huge lists,
deep brackets, a catastrophic pattern). Asserts nothing about time (machines are shared).
Targets (issue 22): p50 <= 2 ms, p99 <= 50 ms per type; pathological input <= 10 ms.
"""

from collections.abc import Callable

import pytest
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from grading.checkers import grade
from tests.benchmarks.timing import p50_p99, timings

pytestmark = pytest.mark.benchmark

TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)
X, Y = sympy.symbols("x y", real=True)

EQUATION = {"type": "equation", "reference": "y = 2x + 1", "variables": ["x", "y"]}
INEQUALITY = {"type": "equation", "reference": "-2 <= x < 5", "variables": ["x"]}
SYSTEM = {"type": "equation", "reference": ["x + y = 3", "x - y = 1"], "variables": ["x", "y"]}
SET = {"type": "set", "reference": "(-oo, 0) U (1, oo)"}
LIST = {"type": "list", "reference": ["2", "-3", "1/2", "sqrt(2)"]}
STRING = {"type": "string", "reference": ["softmax", "soft-max"], "max_distance": 1,
          "pattern": "(soft|arg) ?max"}

CASES: dict[str, tuple[dict, list[str]]] = {
    "equation": (EQUATION, ["y = 2x + 1", "2y = 4x + 2", "2x + 1 = y", "y = 2x", "y - 2x = 3",
                            "y = 2x + ", "1/y = 1/(2x+1)"]),
    "inequality": (INEQUALITY, ["-2 <= x < 5", "x >= -2 and x < 5", "5 > x >= -2",
                                "-2 < x < 5", "x < 5", "x^2 < 4"]),
    "system": (SYSTEM, ["x = 2, y = 1", "x + y = 3; x - y = 1", "x = 2, y = 2"]),
    "set": (SET, ["(-oo, 0) U (1, oo)", "(1, ∞) ∪ (-∞, 0)", "(-oo, 0] U (1, oo)", "R",
                  "{0, 1)", "(-oo, 0) U (1, 5) U [5, oo)"]),
    "list": (LIST, ["2, -3, 1/2, sqrt(2)", "sqrt(2), 1/2, -3, 2", "2, -3", "2, 3, 0.5, 1.4142",
                    "{2, -3}"]),
    "string": (STRING, ["softmax", "Soft Max", "softmx", "argmax", "sigmoid"]),
}


def _naive_equation(a: str, b: str) -> bool:
    la, ra = (parse_expr(s, {"x": X, "y": Y}, transformations=TRANSFORMS) for s in a.split("="))
    lb, rb = (parse_expr(s, {"x": X, "y": Y}, transformations=TRANSFORMS) for s in b.split("="))
    ratio = sympy.simplify((la - ra) / (lb - rb))
    return ratio.is_number and ratio != 0


def _naive_inequality(a: str, b: str) -> bool:
    ea = parse_expr(a.replace("<=", "<="), {"x": X}, transformations=TRANSFORMS)
    eb = parse_expr(b, {"x": X}, transformations=TRANSFORMS)
    return sympy.solve_univariate_inequality(ea, X, relational=False) == \
        sympy.solve_univariate_inequality(eb, X, relational=False)


def _naive_set(_a: str, _b: str) -> bool:
    a = sympy.Union(sympy.Interval.open(-sympy.oo, 0), sympy.Interval.open(1, sympy.oo))
    b = sympy.Union(sympy.Interval.open(1, sympy.oo), sympy.Interval.open(-sympy.oo, 0))
    return bool(a == b)


def _naive_list(a: str, b: str) -> bool:
    ea = [parse_expr(t, transformations=TRANSFORMS) for t in a.split(",")]
    eb = [parse_expr(t, transformations=TRANSFORMS) for t in b.split(",")]
    return sorted(ea, key=sympy.default_sort_key) == sorted(eb, key=sympy.default_sort_key)


def _naive_string(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


NAIVE: dict[str, tuple[Callable[[str, str], bool], str, str]] = {
    "equation": (_naive_equation, "2y = 4x + 2", "y = 2x + 1"),
    "inequality": (_naive_inequality, "x**2 < 4", "-x**2 > -4"),
    "system": (lambda a, b: bool(sympy.solve([X + Y - 3, X - Y - 1], [X, Y])), "", ""),
    "set": (_naive_set, "", ""),
    "list": (_naive_list, "sqrt(2), 1/2, -3, 2", "2, -3, 1/2, sqrt(2)"),
    "string": (_naive_string, "Soft Max", "softmax"),
}

PATHOLOGICAL: dict[str, tuple[dict, str]] = {
    "nested unions (300 intervals)": (SET, " U ".join(f"({i}, {i}.5)" for i in range(300))),
    "union of 2000 points": (SET, " U ".join("{" + str(i) + "}" for i in range(2000))),
    "set of 5000 elements": (SET, "{" + ",".join("1" for _ in range(5000)) + "}"),
    "3000 nested brackets": (SET, "(" * 2500 + "1" + ")" * 2500),
    "list of 100,000 characters": (LIST, ", ".join(["1"] * 40000)),
    "1000-entry list": (LIST, ", ".join(str(i) for i in range(1000))),
    "200-entry list (graded)": (LIST, ", ".join(str(i) for i in range(199))),
    "50 chained relations": (INEQUALITY, " < ".join(["x"] * 60)),
    "equation 9^9^9^9": (EQUATION, "y = 9^9^9^9"),
    "catastrophic pattern": ({"type": "string", "pattern": "(a+)+b"}, "a" * 999),
}




def test_answer_types_against_a_naive_sympy_baseline():
    print()
    for name, (spec, answers) in CASES.items():
        ours = [t for a in answers for t in timings(lambda a=a, s=spec: grade(a, s, {}), 60)]
        naive, a, b = NAIVE[name]
        baseline = timings(lambda n=naive, a=a, b=b: n(a, b), 15)
        (o50, o99), (n50, n99) = p50_p99(ours), p50_p99(baseline)
        print(f"{name:<11} grade p50 {o50:7.3f} p99 {o99:7.3f} ms | naive sympy p50 "
              f"{n50:8.3f} p99 {n99:8.3f} ms | naive/ours {n50 / o50:7.1f}x")


def test_pathological_input_is_refused_fast():
    print()
    for name, (spec, answer) in PATHOLOGICAL.items():
        samples = timings(lambda s=spec, a=answer: grade(a, s, {}), 10)
        result = grade(answer, spec, {})
        print(f"{name:<30} {result.outcome:<9} worst {max(samples):7.3f} ms  "
              f"({result.feedback[:60]})")
