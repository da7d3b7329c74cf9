"""Form checks and marking rules, against the naive CAS test of a form, in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_form_speed.py -s
For each form: the latency of grading an answer equal to the key (right and wrong form, so
the form check runs) through ``grade()``, and of the form check alone on our tree; beside it
the naive way (sympy: ``parse_expr`` then ``expand(a) == a`` / ``factor(a) == a`` /
``cancel``, as a CAS-backed system decides a form), with the ratio of medians. Asserts
nothing about time (machines are shared). Targets (issue 24): form checks p50 <= 2 ms and
p99 <= 50 ms.
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
from grading.checkers.forms import form_check
from grading.checkers.mathparse import parse
from tests.benchmarks.timing import p50_p99, timings

pytestmark = pytest.mark.benchmark

TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)
X = sympy.Symbol("x")

# form -> (key, answers equal to the key, the naive CAS test of "answer is in that form")
CASES: dict[str, tuple[str, list[str], Callable[[sympy.Expr], bool]]] = {
    "expanded": ("(x+1)^3", ["x^3 + 3x^2 + 3x + 1", "(x+1)^3", "(x+1)(x^2+2x+1)"],
                 lambda e: sympy.expand(e) == e),
    "factored": ("2(x-1)(x+3)(x^2+1)", ["2(x-1)(x+3)(x^2+1)", "2x^4+4x^3-4x^2+4x-6",
                                        "(2x-2)(x+3)(x^2+1)"],
                 lambda e: sympy.factor(e) == e),
    "lowest_terms": ("(x+1)/(x-1)", ["(x+1)/(x-1)", "(x^2+2x+1)/(x^2-1)"],
                     lambda e: sympy.cancel(e) == e),
    "simplified": ("2x + 1", ["2x + 1", "x + x + 1", "3x - x + 2 - 1"],
                   lambda e: sympy.simplify(e) == e),
    "partial_fractions": ("2/(x^2-1)", ["1/(x-1) - 1/(x+1)", "2/(x^2-1)"],
                          lambda e: sympy.apart(e) == e),
}




def test_form_checks_against_the_naive_cas_test_of_a_form():
    print()
    for form, (key, answers, naive) in CASES.items():
        spec = {"type": "symbolic", "variables": ["x"], "reference": key, "form": form}
        graded = [t for a in answers for t in timings(lambda a=a, s=spec: grade(a, s, {}), 100)]
        trees = [parse(a, variables=["x"]).node for a in answers]
        alone = [t for n in trees
                 for t in timings(lambda n=n, f=form: form_check(n, [f], ["x"]), 200)]
        texts = [parse_expr(a, local_dict={"x": X}, transformations=TRANSFORMS,
                            evaluate=False) for a in answers]
        baseline = [t for e in texts for t in timings(lambda e=e, t=naive: t(e), 10)]
        (g50, g99), (a50, a99), (n50, n99) = (p50_p99(graded), p50_p99(alone),
                                              p50_p99(baseline))
        print(f"{form:<18} grade p50 {g50:7.3f} p99 {g99:7.3f} ms | form check p50 "
              f"{a50:7.3f} p99 {a99:7.3f} ms | naive CAS p50 {n50:7.3f} p99 {n99:7.3f} ms | "
              f"naive/ours {n50 / a50:6.1f}x")
