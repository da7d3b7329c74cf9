"""Grading latency per answer type, against the naive CAS baseline, in the same run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_grading_speed.py -s
Prints p50/p99 latency and checks per second for each answer type, and for numeric and
symbolic answers the naive approach (`parse_expr` + `simplify(a - b) == 0`) on the same
cases with the ratio of medians. Asserts nothing about time (machines are shared).
Targets (issue 3): numeric p99 <= 1 ms; symbolic p50 <= 5 ms and p99 <= 50 ms; >= 10x the
naive median; a pathological answer refused within 1 s.
"""

import statistics
import time
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

pytestmark = pytest.mark.benchmark

NUMERIC = {"type": "numeric", "reference": "sigma^steps", "rtol": 0.02}
NUMERIC_PARAMS = {"sigma": 0.85, "steps": 40}
NUMERIC_ANSWERS = ["0.0015", "1.5e-3", "0.85^40", "exp(40 ln 0.85)", "34", "1 - 0.85^40",
                   "0.85^39", "1.5\u00d710^-3", "0.00150", "3/2000"]

SYMBOLIC = {"type": "symbolic", "reference": "c*sigma_max^(T-t)",
            "variables": ["c", "sigma_max", "T", "t"]}
SYMBOLIC_ANSWERS = ["c sigma_max^(T-t)", "c*sigma_max^T/sigma_max^t", "sigma_max^(T-t) c",
                    "c sigma_max^(t-T)", "c*exp((T-t)*ln(sigma_max))", "c sigma_max^T",
                    "(c sigma_max^T) sigma_max^(-t)", "c*sigma_max*(T-t)"]
SYMBOLIC_NAIVE_REFERENCE = "c*sigma_max**(T-t)"

OTHERS: dict[str, tuple[dict, list[str]]] = {
    "vector": ({"type": "vector", "reference": ["1.9", "0.7"], "rtol": 0.01},
               ["[1.9, 0.7]", "(1.9, 0.7)", "1.9, 0.7", "[1.9, 0.8]"]),
    "integer": ({"type": "integer", "reference": "N"}, ["1000", "1,000", "1e3", "10^3", "1"]),
    "choice": ({"type": "choice", "options": [{"key": k, "text": k} for k in "abcd"],
                "correct": ["b", "c"], "multiple": True, "partial": True},
               ["b,c", "b", "a,b,c", "d"]),
    "text": ({"type": "text", "review": "never", "pass_score": 1.0, "rubric": [
        {"key": "p", "points": 1, "phrasings": ["parallel", "sequential"]},
        {"key": "v", "points": 1, "phrasings": ["vanish"]},
        {"key": "r", "points": 1, "phrasings": ["recurrence", "previous state"]}]},
             ["Steps are sequential and gradients vanish; the recurrence causes both.",
              "They cannot run in parallel.", "Exploding gradients."]),
}
PATHOLOGICAL = ["9^9^9^9", "(" * 300 + "1" + ")" * 300, "10^1000000", "exp(exp(exp(1000)))",
                "1+" * 249 + "1"]

TIMES = "\u00d7"  # the multiplication sign students paste
TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)


def _timings(call: Callable[[], object], repeats: int) -> list[float]:
    call()  # warm caches the way a long-running worker has them warm
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def _summary(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return p50, p99, 1000 / statistics.mean(ordered)


def _naive(answer: str, reference: str, symbols: dict[str, sympy.Symbol]) -> bool:
    """What many systems do: hand the text to the CAS and ask it to simplify the difference."""
    a = parse_expr(answer.replace(TIMES, "*").replace("ln", "log"), local_dict=symbols,
                   transformations=TRANSFORMS)
    b = parse_expr(reference, local_dict=symbols, transformations=TRANSFORMS)
    return bool(sympy.simplify(a - b) == 0)


def _report(name: str, samples: list[float]) -> float:
    p50, p99, rate = _summary(samples)
    print(f"{name:<22} p50 {p50:8.3f} ms   p99 {p99:8.3f} ms   {rate:9.0f} checks/s")
    return p50


def test_latency_per_answer_type_and_against_the_naive_baseline():
    print()
    numeric = [t for a in NUMERIC_ANSWERS
               for t in _timings(lambda a=a: grade(a, NUMERIC, NUMERIC_PARAMS), 200)]
    numeric_p50 = _report("numeric", numeric)
    naive_numeric = [t for a in NUMERIC_ANSWERS if TIMES not in a
                     for t in _timings(lambda a=a: _naive(a, "0.85**40", {}), 5)]
    naive_numeric_p50 = _report("numeric (naive CAS)", naive_numeric)

    symbolic = [t for a in SYMBOLIC_ANSWERS
                for t in _timings(lambda a=a: grade(a, SYMBOLIC, {}), 100)]
    symbolic_p50 = _report("symbolic", symbolic)
    names = {n: sympy.Symbol(n) for n in SYMBOLIC["variables"]}
    naive_symbolic = [t for a in SYMBOLIC_ANSWERS
                      for t in _timings(lambda a=a: _naive(a, SYMBOLIC_NAIVE_REFERENCE, names), 5)]
    naive_symbolic_p50 = _report("symbolic (naive CAS)", naive_symbolic)

    for name, (spec, answers) in OTHERS.items():
        _report(name, [t for a in answers
                       for t in _timings(lambda a=a, s=spec: grade(a, s, {"N": 1000}), 200)])

    worst = max(max(_timings(lambda a=a: grade(a, NUMERIC, NUMERIC_PARAMS), 3))
                for a in PATHOLOGICAL)
    print(f"{'pathological (worst)':<22} {worst:8.3f} ms to refuse")
    print(f"speed-up over naive at the median: numeric {naive_numeric_p50 / numeric_p50:.0f}x, "
          f"symbolic {naive_symbolic_p50 / symbolic_p50:.0f}x (target >= 10x)")
