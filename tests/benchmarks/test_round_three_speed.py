# ruff: noqa: RUF001 - the plus-minus sign and logic symbols are the point here
"""The answer types of issue 41: check latency beside a naive sympy baseline, in one run.

Run on demand: RUN_BENCHMARKS=1 pytest tests/benchmarks/test_round_three_speed.py -s
For each new class (undefined symbolic answers, units with a number inside and teaching
symbols, comparisons and notation, ±, a unit alone, matching grids, LaTeX, logic, lists of
words and mixed items): p50/p99 of ``grade()`` over right and wrong answers, beside the naive
way of grading the same answers (sympy's ``parse_expr`` of the student's text, then
``simplify(a - r) == 0``; ``simplify_logic`` of the equivalence for logic; pint's own parser
for units; for LaTeX, a textual replacement of the commands and then the same as symbolic), and
the ratio of medians. Then pathological answers of each class. Asserts nothing about time
(machines are shared).
"""

import contextlib
import statistics
from collections.abc import Callable

import pytest
import sympy
from sympy.logic.boolalg import Equivalent
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
SYM = {"type": "symbolic", "reference": "sqrt(x)/2 + x^2", "variables": ["x"]}
LOGIC = {"type": "logic", "reference": "(p implies q) and (q implies r)",
         "variables": ["p", "q", "r"]}
ITEMS = {"type": "item_list", "items": [
    {"type": "string", "reference": "red"}, {"type": "numeric", "reference": "2"},
    {"type": "symbolic", "reference": "x^2", "variables": ["x"]}]}
GRID = {"type": "matching", "rows": ["a", "b", "c"], "columns": ["x", "y", "z"],
        "correct": {"a": "x", "b": "y", "c": "x"}}
QUADRATIC = {"type": "symbolic", "reference": "(-b ± sqrt(b^2 - 4*a*c))/(2*a)",
             "variables": ["a", "b", "c"]}

Case = tuple[dict, str]
SETS: dict[str, list[Case]] = {
    "undefined": [(SYM, a) for a in ("x^2 + 1/0", "csc(0) + x", "x/0", "sqrt(x)/2 + x^2")],
    "units": [({"type": "quantity", "reference": "15000/pi", "unit": "N/mm^2", "rtol": 1e-3}, a)
              for a in ("(15*kN)/(pi*mm^2)", "4774.6 N/mm^2", "(16*kN)/(pi*mm^2)")]
    + [({"type": "quantity", "reference": "12", "unit": "m", "unit_match": "exact"}, a)
       for a in ("12 metre", "1200 cm")],
    "notation": [({"type": "numeric", "reference": "1500", "comparison": "at_least",
                   "notation": "scientific", "precision_credit": 0.5}, a)
                 for a in ("1.5e3", "1.6×10^3", "1500", "1.4e3")],
    "plus_minus": [(QUADRATIC, a) for a in ("(-b ± sqrt(b^2-4ac))/(2a)",
                                            "(-b + sqrt(b^2-4ac))/(2a)",
                                            "(b ± sqrt(b^2-4ac))/(2a)")],
    "unit_only": [({"type": "quantity", "unit": "m/s^2", "unit_mode": "only"}, a)
                  for a in ("m/s^2", "N/kg", "km/h^2", "kg")],
    "matching": [(GRID, a) for a in ("a=x, b=y, c=x", "a=x, b=z, c=x", "c:x; a:x")],
    "latex": [({**SYM, "latex": True}, a) for a in (r"\frac{1}{2}\sqrt{x}+x^{2}",
                                                     r"\frac{\sqrt{x}}{2} + x^{2}",
                                                     r"\frac{1}{2}\sqrt{x}+x^{3}")],
    "logic": [(LOGIC, a) for a in ("(not p or q) and (not q or r)", "p implies r",
                                   "~p | q & ~q | r", "(p -> q) & (q -> r)")],
    "item_list": [(ITEMS, a) for a in ("red, 2, x^2", "x*x, red, 2.0", "red, 3", "blue, 2, x^3")],
}


def _expr(text: str) -> sympy.Expr:
    local = {"x": sympy.Symbol("x", positive=True)}
    return parse_expr(text.replace("±", "+"), local_dict=local, transformations=TRANSFORMS)


def _naive_symbolic(spec: dict, answer: str) -> bool:
    return sympy.simplify(_expr(answer) - _expr(spec["reference"])) == 0


def _naive_quantity(spec: dict, answer: str) -> bool:
    ureg = registry()
    got = ureg.Quantity(answer)
    value = float(sympy.sympify(spec.get("reference", "1")))
    want = ureg.Quantity(value, spec["unit"])
    return got.dimensionality == want.dimensionality and \
        abs(got.to(want.units).magnitude - value) <= 1e-3 * abs(value)


def _naive_numeric(spec: dict, answer: str) -> bool:
    return bool(_expr(answer.replace("×", "*")) >= _expr(spec["reference"]))


def _naive_latex(spec: dict, answer: str) -> bool:
    text = answer.replace(r"\frac{", "(").replace("}{", ")/(").replace(r"\sqrt{", "sqrt(")
    text = text.replace("^{", "**(").replace("}", ")")
    return _naive_symbolic(spec, text)


def _naive_logic(spec: dict, answer: str) -> bool:
    def read(text: str) -> sympy.Basic:
        text = text.replace("->", ">>").replace("implies", ">>").replace("not ", "~")
        text = text.replace(" and ", " & ").replace(" or ", " | ")
        return parse_expr(text, local_dict={n: sympy.Symbol(n) for n in "pqr"})

    return sympy.simplify_logic(Equivalent(read(answer), read(spec["reference"]))) == sympy.true


def _naive_matching(spec: dict, answer: str) -> bool:
    pairs = dict(p.replace(":", "=").split("=") for p in answer.replace(";", ",").split(","))
    return {k.strip(): v.strip() for k, v in pairs.items()} == spec["correct"]


def _naive_items(spec: dict, answer: str) -> bool:
    entries = [e.strip() for e in answer.split(",")]
    keys = [item["reference"] for item in spec["items"]]
    return all(any(e == k or sympy.simplify(_expr(e) - _expr(k)) == 0 for e in entries)
               for k in keys) and len(entries) == len(keys)


NAIVE: dict[str, Callable[[dict, str], bool]] = {
    "undefined": _naive_symbolic, "units": _naive_quantity, "notation": _naive_numeric,
    "plus_minus": _naive_symbolic, "unit_only": _naive_quantity, "matching": _naive_matching,
    "latex": _naive_latex, "logic": _naive_logic, "item_list": _naive_items,
}

PATHOLOGICAL: dict[str, Case] = {
    "1/0 nested 30 deep": (SYM, "(" * 30 + "1/0" + ")" * 30 + " + x"),
    "100 unit factors": ({"type": "quantity", "reference": "1", "unit": "m"},
                         "1*" + "m*" * 100 + "m"),
    "300 decimals": ({"type": "numeric", "reference": "1", "max_decimals": 2}, "1." + "1" * 300),
    "5 ± signs": ({"type": "numeric", "reference": "1 ± 1"}, "1 ± 1 ± 1 ± 1 ± 1"),
    "1000 matches": (GRID, "a=x, " * 1000),
    "\\frac 60 deep": ({"type": "numeric", "reference": "1", "latex": True},
                       r"\frac{" * 60 + "1" + "}{2}" * 60),
    "logic 60 deep": (LOGIC, "(" * 60 + "p" + ")" * 60),
    "200 list entries": (ITEMS, ", ".join(["red"] * 200)),
}


def test_check_latency_against_a_naive_sympy_baseline():
    print()
    for name, cases in SETS.items():
        ours = [t for spec, answer in cases
                for t in timings(lambda s=spec, a=answer: grade(a, s), 60)]
        naive: list[float] = []
        for spec, answer in cases:
            with contextlib.suppress(Exception):  # the naive way cannot read some forms
                naive += timings(lambda s=spec, a=answer, f=NAIVE[name]: f(s, a), 3)
        (o50, o99), (n50, n99) = p50_p99(ours), p50_p99(naive) if naive else (0.0, 0.0)
        print(f"{name:<11} ours p50 {o50:7.3f} p99 {o99:7.3f} ms | naive p50 {n50:8.3f} "
              f"p99 {n99:8.3f} ms | naive/ours {n50 / o50 if o50 else 0:6.1f}x")


def test_pathological_answers_are_refused_fast():
    print()
    for label, (spec, answer) in PATHOLOGICAL.items():
        samples = timings(lambda s=spec, a=answer: grade(a, s), 10)
        result = grade(answer, spec)
        print(f"{label:<20} {result.outcome:<9} p50 {statistics.median(samples):7.3f} max "
              f"{max(samples):7.3f} ms  ({result.feedback[:60]})")
