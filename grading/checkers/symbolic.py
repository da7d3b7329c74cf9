"""Symbolic answers: an expression in declared variables, graded by equivalence.

Equivalence is decided by sampling first: both expressions are evaluated with floats at
seeded random points drawn from the part's declared ``domain`` ("positive", the default:
moderate positive values, then a wider positive range, then both signs; or "real": every sign
combination from the start), with parameters substituted. An answer undefined where the
reference has a value disagrees there. Declared undefined functions (``functions = ["f"]``)
are replaced by fixed smooth functions, the same on both sides. Only when sampling is
inconclusive (too few points where both sides are defined, or a single disagreeing point) does
sympy, built from our own AST, try to confirm or refute, under a time budget, with the
variables assumed positive or real as the domain says.
"""

from __future__ import annotations

import math
import signal
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
import sympy

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import Expr, evaluate, parse, to_sympy
from grading.checkers.refs import float_params, parse_reference, sympy_params

__all__ = [
    "DOMAINS", "Comparison", "SymbolicAnswer", "SymbolicChecker", "compare",
    "run_with_time_budget",
]

Domain = Literal["positive", "real"]
@dataclass(frozen=True)
class Phase:
    """One range of sample points. Magnitudes are uniform or log-uniform in [low, high];
    `signed` gives variable j a minus sign on attempts whose bit j is set, so every sign
    combination is visited within the first 2^len(variables) points. `inside` says the points
    lie in the domain: there, an answer undefined where the reference has a value disagrees;
    outside (the positive domain's last resort, for references mostly undefined on the first
    draws) such points are skipped."""

    low: float
    high: float
    log: bool = False
    signed: bool = False
    inside: bool = True


DOMAINS: dict[str, tuple[Phase, ...]] = {
    "positive": (
        Phase(0.5, 2.5),  # moderate positive values
        Phase(0.02, 50.0, log=True),  # wider positive values
        Phase(-5.0, 5.0, inside=False),  # both signs, when the above are mostly undefined
    ),
    "real": (
        Phase(0.0, 2.5, signed=True),  # moderate values of both signs
        Phase(0.02, 50.0, log=True, signed=True),  # wider values of both signs
    ),
}
POINTS_PER_PHASE = 40
NEEDED_POINTS = 12
RTOL = 1e-8
ATOL = 1e-13
SYMPY_BUDGET_SECONDS = 2.0
SEED = 20240505

Status = Literal["equal", "different", "unknown"]
T = TypeVar("T")


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing two expressions."""

    status: Status
    valid_points: int = 0
    differing_points: int = 0
    ratio: float | None = None  # answer/reference when constant over the points (hints)
    decided_by: str = "sampling"  # sampling | sympy | timeout


def _function_impl(index: int, family: int) -> Callable[[float], float]:
    a = 0.7 + 0.31 * index
    b = 0.3 + 0.17 * index
    c = 0.2 + 0.05 * index
    if family == 0:
        return lambda u: math.sin(a * u + b) + c * u + 1.5
    return lambda u: math.exp(0.3 * a * u) / (1.0 + 0.2 * u * u) + b


def _draw(rng: np.random.Generator, phase: Phase, count: int, attempt: int) -> np.ndarray:
    if phase.log:
        draws = np.exp(rng.uniform(math.log(phase.low), math.log(phase.high), count))
    else:
        draws = rng.uniform(phase.low, phase.high, count)
    if phase.signed:
        draws *= [-1.0 if (attempt >> j) & 1 else 1.0 for j in range(count)]
    return draws


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= RTOL * max(abs(x), abs(y)) + ATOL


def compare(
    answer: Expr,
    reference: Expr,
    variables: Sequence[str],
    *,
    functions: Sequence[str] = (),
    params: Mapping[str, Any] | None = None,
    use_sympy: bool = True,
    budget: float = SYMPY_BUDGET_SECONDS,
    domain: Domain = "positive",
) -> Comparison:
    """Are ``answer`` and ``reference`` the same function of ``variables`` over ``domain``
    (positive or real values)? Points where the reference is undefined are skipped; where
    only the answer is undefined (NaN, not overflow), they disagree."""
    params = params or {}
    env_base = {k: v for k, v in float_params(params).items() if k not in variables}
    families = [
        {name: _function_impl(i, family) for i, name in enumerate(functions)}
        for family in (0, 1)
    ]
    rng = np.random.default_rng(SEED)
    valid = differ = 0
    ratios: list[float] = []
    names = list(variables)
    for phase in DOMAINS[domain]:
        for attempt in range(POINTS_PER_PHASE):
            if valid >= NEEDED_POINTS:
                break
            draws = _draw(rng, phase, len(names), attempt)
            env = dict(env_base)
            env.update({name: float(x) for name, x in zip(names, draws, strict=True)})
            impls = families[attempt % 2]
            fa = evaluate(answer, env, impls)
            fb = evaluate(reference, env, impls)
            if phase.inside and math.isfinite(fb) and math.isnan(fa):
                valid += 1  # the answer is undefined where the reference has a value
                differ += 1
                continue
            if not (math.isfinite(fa) and math.isfinite(fb)):
                continue
            valid += 1
            if not _close(fa, fb):
                differ += 1
            if fb != 0.0:
                ratios.append(fa / fb)
        if valid >= NEEDED_POINTS:
            break
    ratio = None
    if ratios and len(ratios) == valid and all(_close(r, ratios[0]) for r in ratios):
        ratio = ratios[0]
    if differ >= 2 or (differ == 1 and valid >= 1 and differ / valid > 0.25):
        return Comparison("different", valid, differ, ratio)
    if differ == 0 and valid >= NEEDED_POINTS:
        return Comparison("equal", valid, differ, ratio)
    if not use_sympy:
        return Comparison("unknown", valid, differ, ratio)
    substitutions = {k: v for k, v in sympy_params(params).items() if k not in variables}
    verdict = run_with_time_budget(
        lambda: _sympy_equal(answer, reference, substitutions, domain), budget
    )
    if verdict is None:
        return Comparison("unknown", valid, differ, ratio, "timeout")
    status: Status = "equal" if verdict == "equal" else (
        "different" if verdict == "different" else "unknown")
    return Comparison(status, valid, differ, ratio, "sympy")


def _sympy_equal(answer: Expr, reference: Expr, substitutions: Mapping[str, Any],
                 domain: Domain) -> str:
    try:
        return _sympy_decide(answer, reference, substitutions, domain)
    except _Timeout:
        raise
    except Exception:  # sympy internals may raise anything: the comparison stays unknown
        return "unknown"


def _sympy_decide(answer: Expr, reference: Expr, substitutions: Mapping[str, Any],
                  domain: Domain) -> str:
    assumptions = {"positive": True} if domain == "positive" else {"real": True}
    a = to_sympy(answer, substitutions=substitutions, assumptions=assumptions)
    b = to_sympy(reference, substitutions=substitutions, assumptions=assumptions)
    if isinstance(a, list) or isinstance(b, list):
        return "unknown"
    difference = sympy.simplify(a - b)
    if difference == 0:
        return "equal"
    same = a.equals(b)
    if same is True:
        return "equal"
    if same is False:
        return "different"
    return "unknown"


class _Timeout(Exception):
    pass


def run_with_time_budget(fn: Callable[[], T], seconds: float) -> T | None:
    """``fn()``, or None if it takes longer than ``seconds``.

    In the main thread, when no other interval timer is running, SIGALRM interrupts the
    computation (the previous handler is restored). Elsewhere (a threaded server) ``fn`` runs
    in a daemon thread that is abandoned, still running, on timeout.
    """
    if (threading.current_thread() is threading.main_thread()
            and hasattr(signal, "setitimer")
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)):
        state = {"active": True}

        def interrupt(signum: int, frame: object) -> None:
            if state["active"]:
                raise _Timeout

        previous = signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            try:
                result = fn()
            finally:
                state["active"] = False
            return result
        except _Timeout:
            return None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    box: list[T] = []
    worker = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    worker.start()
    worker.join(seconds)
    return box[0] if box else None


@dataclass(frozen=True)
class SymbolicAnswer(Answer):
    """The parsed expression."""

    expr: Expr | None = None


class SymbolicChecker(Checker[SymbolicAnswer]):
    """An expression equivalent to the reference for all values of the variables in the
    spec's ``domain`` ("positive", the default, or "real")."""

    type_name = "symbolic"
    spec_keys = frozenset({"domain"})

    def parse(self, raw: str, spec: Mapping[str, Any]) -> SymbolicAnswer:
        expr = parse(raw or "", variables=names_of(spec, "variables"),
                     functions=names_of(spec, "functions"))
        return SymbolicAnswer(raw=raw, canonical=expr.to_text(), latex=expr.to_latex(),
                              expr=expr)

    def check(self, answer: SymbolicAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        variables = names_of(spec, "variables")
        functions = names_of(spec, "functions")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        domain = _domain(spec)
        result = compare(answer.expr, reference, variables, functions=functions, params=params,
                         domain=domain)
        canonical = answer.canonical
        if result.status == "equal":
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError:
                continue
            matched = compare(answer.expr, target, variables, functions=functions,
                              params=params, use_sympy=False, domain=domain)
            if matched.status == "equal":
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        if result.status == "unknown":
            return Verdict(None, "pending",
                           "Your answer could not be checked automatically; a teacher will "
                           "look at it.", None, [], canonical)
        return Verdict(0.0, "incorrect", _hint(spec, result), None, [], canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        variables = names_of(spec, "variables")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=names_of(spec, "functions"))
        unknown = reference.free_variables - set(variables)
        if unknown:
            # Parameters appear in the reference: substitute their values as numbers.
            values = {k: v for k, v in params.items() if k in unknown}
            expr = to_sympy(reference, substitutions=sympy_params(values))
            if isinstance(expr, list):
                raise ValueError("the reference gives a list, not one expression")
            return _sympy_text(expr)
        return reference.to_text()

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        reference = spec.get("reference")
        if not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be an expression string")
        elif not problems:
            try:
                parse(reference, variables=names_of(spec, "variables"),
                      functions=names_of(spec, "functions"), list_functions=True,
                      max_length=2000)
            except ValueError as exc:
                message = getattr(exc, "message", str(exc))
                if not message.startswith("unknown name"):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {message}")
        if spec.get("domain", "positive") not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        variables = names_of(spec, "variables")
        functions = names_of(spec, "functions")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if compare(target, reference, variables, functions=functions, params=params,
                       use_sympy=False, domain=_domain(spec)).status == "equal":
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is "
                                f"equivalent to the reference")
        return problems


def _domain(spec: Mapping[str, Any]) -> Domain:
    return "real" if spec.get("domain") == "real" else "positive"


def _hint(spec: Mapping[str, Any], result: Comparison) -> str:
    base = feedback(spec, False)
    if "feedback_incorrect" in spec or result.ratio is None:
        return base
    if _close(result.ratio, -1.0):
        return f"{base} Your expression has the wrong sign."
    if not _close(result.ratio, 0.0):
        return f"{base} Your expression is off by a constant factor."
    return base


def _sympy_text(expr: Any) -> str:
    """A sympy expression written in our grammar (used only for authors' references)."""
    text = sympy.sstr(expr, full_prec=False)
    return text.replace("**", "^")
