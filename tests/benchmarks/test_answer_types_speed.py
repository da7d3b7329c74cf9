# ruff: noqa: RUF001, RUF002 - unit symbols and the multiplication sign are the point here
"""Matrices, quantities and complex numbers: check latency beside a naive sympy baseline, and
pathological answers refused, in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_answer_types_speed.py -s
For each type: p50/p99 of ``grade()`` over a benchmark set (right and wrong answers, both
syntaxes, conversions, forms), beside the naive way of grading the same answers with sympy
(``parse_expr`` of the student's text, then ``simplify(a - r) == 0``, as a CAS-backed grader
does; pint's own ``Quantity(text)`` parser for units), and the ratio of medians. Then the
time to refuse each pathological answer (a 1000×1000 matrix, ``10^10^10 m``, ...). Asserts
nothing about time (machines are shared). Targets (issue 22): p50 <= 2 ms, p99 <= 50 ms,
pathological input refused in <= 10 ms.
"""

import contextlib
import statistics

import pytest
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from grading.checkers import grade
from grading.checkers.units import registry
from tests.benchmarks.timing import p50_p99, timings

pytestmark = pytest.mark.benchmark

TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)
ATTENTION = {"Q": [[1, 0], [0, 1]], "K": [[1, 2], [3, 4]], "d": 4}

SETS: dict[str, list[tuple[dict, dict, str]]] = {
    "matrix": [
        ({"type": "matrix", "reference": "Q*transpose(K)/sqrt(d)"}, ATTENTION, answer)
        for answer in ("[[0.5, 1.5], [1, 2]]", "[1/2 3/2; 1 2]", "[[1, 3], [2, 4]]",
                       "[[0.5, 1], [1.5, 2]]", "[0.5 1.5; 1 3]")
    ] + [
        ({"type": "matrix", "reference": "softmax(S)", "sigfigs": 3}, {"S": [[1, 2], [0, 0]]},
         answer) for answer in ("[[0.269, 0.731], [0.5, 0.5]]", "[[0.731, 0.881], [0.269, 0.119]]")
    ] + [
        ({"type": "matrix", "variables": ["x"], "reference": [["x^2", "2x"], ["sin(x)", "1"]]},
         {}, answer) for answer in ("[[x*x, 2x], [sin x, 1]]", "[x^2 2x; cos(x) 1]")
    ],
    "quantity": [
        ({"type": "quantity", "reference": "3.2", "unit": "m/s"}, {}, answer)
        for answer in ("3.2 m/s", "3.2 m·s^-1", "3200 mm/s", "11.52 km/h", "3.2 s", "3200 m/s")
    ] + [
        ({"type": "quantity", "reference": "m*9.81*h", "unit": "J"}, {"m": 2, "h": 10}, answer)
        for answer in ("196.2 J", "0.1962 kJ", "196.2 kg m^2/s^2", "19.62 N")
    ],
    "complex": [
        ({"type": "numeric", "reference": "2*e^(i*pi/3)", "imaginary_unit": "i"}, {}, answer)
        for answer in ("2 e^(iπ/3)", "2(cos(π/3) + i sin(π/3))", "1 + sqrt(3) i",
                       "1 - sqrt(3) i", "(1+i)^2/(1-i)")
    ] + [
        ({"type": "symbolic", "variables": ["t"], "reference": "e^(i*2*t)",
          "imaginary_unit": "i"}, {}, answer)
        for answer in ("cos(2t) + i sin(2t)", "cos(2t) - i sin(2t)")
    ],
}

PATHOLOGICAL: dict[str, tuple[dict, dict, str]] = {
    "1000×1000 matrix": ({"type": "matrix", "reference": "Q"}, ATTENTION,
                         "[" + "; ".join(" ".join(["1"] * 1000) for _ in range(1000)) + "]"),
    "30×30 matrix": ({"type": "matrix", "reference": "Q"}, ATTENTION,
                     "[" + "; ".join(" ".join(["1"] * 30) for _ in range(30)) + "]"),
    "9^9^9^9 in a cell": ({"type": "matrix", "reference": "Q"}, ATTENTION,
                          "[[9^9^9^9, 0], [0, 1]]"),
    "10^10^10 m": ({"type": "quantity", "reference": "1", "unit": "m"}, {}, "10^10^10 m"),
    "m^99999": ({"type": "quantity", "reference": "1", "unit": "m"}, {}, "1 m^99999"),
    "long unit": ({"type": "quantity", "reference": "1", "unit": "m"}, {},
                  "1 " + "m*" * 200 + "m"),
    "(1+i)^(10^10)": ({"type": "numeric", "reference": "1", "imaginary_unit": "i"}, {},
                      "(1+i)^(10^10)"),
    "exp(exp(exp(1000 i)))": ({"type": "numeric", "reference": "1", "imaginary_unit": "i"},
                              {}, "exp(exp(exp(1000 i)))"),
}




def _naive_matrix(spec: dict, params: dict, answer: str) -> bool:
    text = answer.replace(";", "],[").replace(" ", ",") if "[[" not in answer else answer
    got = sympy.Matrix(parse_expr(text, transformations=TRANSFORMS))
    local = {k: sympy.Matrix(v) for k, v in params.items() if isinstance(v, list)}
    local.update({k: v for k, v in params.items() if not isinstance(v, list)})
    local["transpose"] = sympy.transpose
    if isinstance(spec["reference"], list):
        want = sympy.Matrix([[parse_expr(c, transformations=TRANSFORMS) for c in row]
                             for row in spec["reference"]])
    else:
        want = sympy.Matrix(parse_expr(spec["reference"], local_dict=local,
                                       transformations=TRANSFORMS))
    return got.shape == want.shape and sympy.simplify(got - want) == sympy.zeros(*want.shape)


def _naive_quantity(spec: dict, params: dict, answer: str) -> bool:
    ureg = registry()
    got = ureg.Quantity(answer.replace("·", "*"))
    value = float(sympy.sympify(spec["reference"], locals=params))
    want = ureg.Quantity(value, spec["unit"])
    return got.dimensionality == want.dimensionality and \
        abs(got.to(want.units).magnitude - value) <= 1e-9 * abs(value)


def _naive_complex(spec: dict, params: dict, answer: str) -> bool:
    local = {"i": sympy.I, "t": sympy.Symbol("t", real=True), "π": sympy.pi}
    got = parse_expr(answer.replace("π", "pi"), local_dict=local, transformations=TRANSFORMS)
    want = parse_expr(spec["reference"], local_dict=local, transformations=TRANSFORMS)
    return sympy.simplify(got - want) == 0


NAIVE = {"matrix": _naive_matrix, "quantity": _naive_quantity, "complex": _naive_complex}


def test_check_latency_against_a_naive_sympy_baseline():
    print()
    for name, cases in SETS.items():
        ours = [t for spec, params, answer in cases
                for t in timings(lambda s=spec, p=params, a=answer: grade(a, s, p), 100)]
        naive = []
        for spec, params, answer in cases:
            with contextlib.suppress(Exception):  # the naive way cannot read some forms
                naive += timings(lambda s=spec, p=params, a=answer, f=NAIVE[name]: f(s, p, a), 5)
        (o50, o99), (n50, n99) = p50_p99(ours), p50_p99(naive) if naive else (0.0, 0.0)
        worst = max(ours)
        print(f"{name:<9} ours p50 {o50:7.3f} p99 {o99:7.3f} max {worst:7.3f} ms | naive sympy "
              f"p50 {n50:8.3f} p99 {n99:8.3f} ms | naive/ours {n50 / o50 if o50 else 0:6.1f}x")


def test_pathological_answers_are_refused_fast():
    print()
    for label, (spec, params, answer) in PATHOLOGICAL.items():
        samples = timings(lambda s=spec, p=params, a=answer: grade(a, s, p), 20)
        result = grade(answer, spec, params)
        median = statistics.median(samples)
        print(f"{label:<24} {result.outcome:<9} p50 {median:7.3f} max {max(samples):7.3f} ms  "
              f"({result.feedback[:60]})")
