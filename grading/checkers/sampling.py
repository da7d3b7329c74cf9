"""Are two expressions the same function? Sampling with floats, decided with exact arithmetic.

``compare(answer, reference, variables, ...)`` draws seeded random points over the domain
("positive": values in 0.5..2.5, then 0.02..50, then -5..5 as a last resort; "real":
magnitudes up to 2.5 then 0.02..50, every sign combination) and evaluates both sides with
floats until 12 points where both are defined. Floats only propose; high precision decides:

* a few of the points (both agreeing and disagreeing ones) are evaluated again exactly
  (rationals) or with mpmath at 50+ digits (more when the answer writes long decimals), so a
  decimal means exactly that decimal (``0.6666666667*y`` is not ``2y/3``), huge coefficients
  and catastrophic cancellation cannot fool the verdict, and powers beyond the float range
  (``(x-b)^4000``) are compared at all;
* if high precision contradicts the floats, or the floats found too few defined points, the
  points are evaluated with high precision only;
* one point where the two sides differ at high precision refutes; equality needs the float
  points and the precise points to agree.

Where only the answer is undefined at a point of the domain (and the reference has a value),
the two disagree (``ln(x^2)`` is not ``2 ln(x)`` over the reals). Declared undefined functions
are replaced, identically on both sides, by fixed smooth functions of their arguments. Only
when sampling stays inconclusive does sympy try (isolation.py: in a helper process that is
killed on timeout); if it cannot decide, the comparison is "unknown" (a person looks).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from grading.checkers import isolation
from grading.checkers.mathparse import Expr, declared_functions, evaluate, precise_evaluate
from grading.checkers.mathparse.floats import compile_float
from grading.checkers.mathparse.names import Functions
from grading.checkers.mathparse.precise import (
    DEFAULT_DIGITS,
    UNDEFINED,
    PreciseValue,
    Unavailable,
    context,
    literal_digits,
    precise_closeness,
    precise_equal,
)
from grading.checkers.refs import float_params, fraction_params

__all__ = [
    "ATOL",
    "DOMAINS",
    "NEEDED_POINTS",
    "RTOL",
    "Comparison",
    "Domain",
    "Phase",
    "compare",
]

Domain = Literal["positive", "real"]
Status = Literal["equal", "different", "unknown"]


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
PRECISE_CHECKS = 2  # float-agreeing points confirmed with high precision
NEEDED_PRECISE = 6  # points needed when high precision alone decides
MAX_PRECISE = 30  # high-precision evaluations at most, per comparison
RTOL = 1e-8
ATOL = 1e-13
SEED = 20240505
_CLEARLY_EQUAL = 1e-6  # closeness (difference / rounding bound) of values equal up to rounding

_PointStatus = Literal["agree", "differ", "skip"]


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing two expressions."""

    status: Status
    valid_points: int = 0
    differing_points: int = 0
    ratio: float | None = None  # answer/reference when constant over the points (hints)
    decided_by: str = "sampling"  # sampling | precise | sympy | timeout


@dataclass(frozen=True)
class _Point:
    index: int  # in _draws(domain, len(variables))
    values: tuple[float, ...]
    inside: bool
    family: int
    status: _PointStatus


def _declared_impl(index: int, family: int, module: Any) -> Callable[..., Any]:
    """A fixed smooth function of any number of arguments, written over ``module`` (math
    for floats, an mpmath context for high precision), so both evaluators agree."""
    a = 0.7 + 0.31 * index
    b = 0.3 + 0.17 * index
    c = 0.2 + 0.05 * index

    def impl(*args: Any) -> Any:
        if module is not math:
            args = args[1:]  # precise implementations receive the context first
        s = sum((1 + 0.29 * j) * u for j, u in enumerate(args))
        q = sum((0.3 + 0.2 * j) * u * u for j, u in enumerate(args[1:]))
        if family == 0:
            return module.sin(a * s + b) + c * s + 1.5 + 0.1 * q
        return module.exp(0.3 * a * s) / (1 + 0.2 * s * s) + b + 0.05 * q

    return impl


def _draw(rng: np.random.Generator, phase: Phase, count: int, attempt: int) -> np.ndarray:
    if phase.log:
        draws = np.exp(rng.uniform(math.log(phase.low), math.log(phase.high), count))
    else:
        draws = rng.uniform(phase.low, phase.high, count)
    if phase.signed:
        draws *= [-1.0 if (attempt >> j) & 1 else 1.0 for j in range(count)]
    return draws


@dataclass(frozen=True)
class _Draw:
    values: tuple[float, ...]
    inside: bool
    family: int  # which family of replacement functions is used at this point


@functools.lru_cache(maxsize=64)
def _draws(domain: Domain, count: int) -> tuple[_Draw, ...]:
    """Every sample point of a domain for ``count`` variables, in order (seeded)."""
    rng = np.random.default_rng(SEED)
    points = []
    for phase in DOMAINS[domain]:
        for attempt in range(POINTS_PER_PHASE):
            values = tuple(float(x) for x in _draw(rng, phase, count, attempt))
            points.append(_Draw(values, phase.inside, attempt % 2))
    return tuple(points)


class _ReferenceValues:
    """The reference's values at the sample points, computed once per (reference, names,
    parameters, functions, domain) and shared by every answer compared with it."""

    def __init__(self) -> None:
        self.floats: dict[int, float] = {}
        self.precise: dict[tuple[int, int], PreciseValue | Unavailable] = {}


def _freeze(value: Any) -> Any:
    return tuple(_freeze(v) for v in value) if isinstance(value, list | tuple) else value


@functools.lru_cache(maxsize=1024)
def _reference_values(key: tuple[Any, ...]) -> _ReferenceValues:
    return _ReferenceValues()


def _reference_values_for(reference: Expr, names: Sequence[str], params: Mapping[str, Any],
                          functions: Mapping[str, int], domain: Domain) -> _ReferenceValues:
    try:
        key = (reference.node, tuple(names), tuple(sorted(
            (k, _freeze(v)) for k, v in params.items())), tuple(sorted(functions.items())),
            domain)
        hash(key)
    except TypeError:
        return _ReferenceValues()
    return _reference_values(key)


def _coarse(value: float) -> Fraction:
    """A short rational near ``value`` (20 significant bits), for exact evaluation."""
    if value == 0.0 or not math.isfinite(value):
        return Fraction(0)
    mantissa, exponent = math.frexp(value)
    return Fraction(round(mantissa * (1 << 20))) * Fraction(2) ** (exponent - 20)


class _Sampler:
    def __init__(self, answer: Expr, reference: Expr, variables: Sequence[str],
                 functions: Mapping[str, int], params: Mapping[str, Any],
                 rtol: float | None, atol: float | None, domain: Domain) -> None:
        self.domain = domain
        self.known = _reference_values_for(reference, variables, params, functions, domain)
        self.answer = answer
        self.reference = reference
        self.names = list(variables)
        self.float_env = {k: v for k, v in float_params(params).items() if k not in variables}
        self.exact_env = {k: v for k, v in fraction_params(params).items()
                          if k not in variables and not isinstance(v, list)}
        self.float_impls = [
            {name: _declared_impl(i, family, math) for i, name in enumerate(functions)}
            for family in (0, 1)
        ]
        self.functions = list(functions)
        self.scalar = not any(isinstance(v, list) for v in self.float_env.values())
        if self.scalar:  # compiled once, evaluated at every point
            compiled_answer, compiled_reference = compile_float(answer), compile_float(reference)
            self.float_answer = lambda env, impls: compiled_answer(env, impls)
            self.float_reference = lambda env, impls: compiled_reference(env, impls)
        else:  # list parameters: the general evaluator lifts over lists
            self.float_answer = lambda env, impls: evaluate(answer, env, impls)
            self.float_reference = lambda env, impls: evaluate(reference, env, impls)
        self.rtol = rtol
        self.atol = atol
        self.digits = DEFAULT_DIGITS + literal_digits(answer, reference)
        self.precise_done = 0

    # -- floats
    def close(self, x: float, y: float) -> bool:
        rtol = max(RTOL, self.rtol or 0.0)
        return abs(x - y) <= rtol * max(abs(x), abs(y)) + max(ATOL, self.atol or 0.0)

    def float_status(self, fa: float, fb: float, inside: bool) -> _PointStatus:
        if inside and math.isfinite(fb) and math.isnan(fa):
            return "differ"  # the answer is undefined where the reference has a value
        if math.isinf(fa) and math.isinf(fb) and (fa > 0) == (fb > 0):
            return "agree"
        if not (math.isfinite(fa) and math.isfinite(fb)):
            return "skip"
        return "agree" if self.close(fa, fb) else "differ"

    # -- high precision
    def precise_values(self, point: _Point, digits: int
                       ) -> tuple[PreciseValue | Unavailable, PreciseValue | Unavailable]:
        env: dict[str, Any] = dict(self.exact_env)
        env.update({name: _coarse(v) for name, v in zip(self.names, point.values, strict=True)})
        module = context(digits)
        impls = {name: _declared_impl(i, point.family, module)
                 for i, name in enumerate(self.functions)}
        b = self.known.precise.get((point.index, digits))
        if b is None:
            b = precise_evaluate(self.reference, env, impls, digits=digits)
            self.known.precise[(point.index, digits)] = b
        if isinstance(b, Unavailable):
            return UNDEFINED, b
        return precise_evaluate(self.answer, env, impls, digits=digits), b

    def precise_status(self, point: _Point) -> _PointStatus:
        """Agree/differ/skip at ``point`` with high precision. Values that are close but not
        clearly equal up to rounding are evaluated again with twice the digits: a true
        equality gets closer, a tiny true difference (ln(1 + 10^-20) against 10^-20) stays."""
        self.precise_done += 1
        digits = self.digits
        while True:
            a, b = self.precise_values(point, digits)
            if isinstance(b, Unavailable):
                return "skip"
            if a is Unavailable.UNDEFINED:
                return "differ" if point.inside else "skip"
            if isinstance(a, Unavailable):
                return "skip"
            if self.rtol is not None or self.atol is not None:
                return "agree" if precise_equal(a, b, digits=digits, rtol=self.rtol,
                                                atol=self.atol) else "differ"
            closeness = precise_closeness(a, b, digits=digits)
            if closeness > 1:
                return "differ"
            if closeness <= _CLEARLY_EQUAL or digits > 4 * self.digits:
                return "agree"
            digits = 2 * digits + 10


def compare(
    answer: Expr,
    reference: Expr,
    variables: Sequence[str],
    *,
    functions: Functions = (),
    params: Mapping[str, Any] | None = None,
    use_sympy: bool = True,
    budget: float | None = None,
    domain: Domain = "positive",
    rtol: float | None = None,
    atol: float | None = None,
) -> Comparison:
    """Are ``answer`` and ``reference`` the same function of ``variables`` over ``domain``
    (positive or real values)? See the module docstring. ``rtol``/``atol`` (from the spec)
    accept approximate answers; by default the comparison is exact. ``budget`` bounds the
    sympy fallback in seconds (default: isolation.SYMPY_BUDGET_SECONDS)."""
    params = params or {}
    sampler = _Sampler(answer, reference, variables, declared_functions(functions), params,
                       rtol, atol, domain)
    points, ratio = _float_points(sampler, domain)
    valid = sum(1 for p in points if p.status != "skip")
    differ = sum(1 for p in points if p.status == "differ")

    # High precision on a few points: any confirmed difference refutes.
    checked: set[int] = set()
    agreeing = 0
    overturned = False
    candidates = [i for i, p in enumerate(points) if p.status == "differ"][:2] + \
        [i for i, p in enumerate(points) if p.status == "agree"][:PRECISE_CHECKS]
    for i in candidates:
        checked.add(i)
        status = sampler.precise_status(points[i])
        if status == "differ":
            return Comparison("different", valid, max(differ, 1), ratio, "precise")
        if status == "agree":
            agreeing += 1
            overturned = overturned or points[i].status == "differ"
    if differ == 0 and valid >= NEEDED_POINTS and agreeing >= 1:
        return Comparison("equal", valid, 0, ratio, "precise")

    # Floats were contradicted or too few: decide with high precision alone.
    if overturned or differ == 0 or valid < NEEDED_POINTS:
        decided = _precise_points(sampler, points, checked, agreeing)
        if decided is not None:
            return Comparison(decided, valid, differ, ratio, "precise")
    elif differ >= 2 or differ / max(valid, 1) > 0.25:
        return Comparison("different", valid, differ, ratio)
    if not use_sympy:
        return Comparison("unknown", valid, differ, ratio)
    verdict = isolation.sympy_equivalent(answer, reference, variables=variables,
                               functions=declared_functions(functions), params=params,
                               domain=domain, budget=budget)
    if verdict is None:
        return Comparison("unknown", valid, differ, ratio, "timeout")
    outcome: Status = "equal" if verdict == "equal" else (
        "different" if verdict == "different" else "unknown")
    return Comparison(outcome, valid, differ, ratio, "sympy")


def _float_points(sampler: _Sampler, domain: Domain) -> tuple[list[_Point], float | None]:
    """Float evaluation at seeded points until NEEDED_POINTS defined ones (or the draws run
    out); with the answer/reference ratio when it is the same at every point."""
    points: list[_Point] = []
    valid = 0
    ratios: list[float] = []
    known = sampler.known.floats
    for index, draw in enumerate(_draws(domain, len(sampler.names))):
        if valid >= NEEDED_POINTS:
            break
        env = dict(sampler.float_env)
        env.update(zip(sampler.names, draw.values, strict=True))
        impls = sampler.float_impls[draw.family]
        fb = known.get(index)
        if fb is None:
            fb = known[index] = sampler.float_reference(env, impls)
        fa = sampler.float_answer(env, impls)
        status = sampler.float_status(fa, fb, draw.inside)
        points.append(_Point(index, draw.values, draw.inside, draw.family, status))
        if status == "skip":
            continue
        valid += 1
        if math.isfinite(fa) and math.isfinite(fb) and fb != 0.0:
            ratios.append(fa / fb)
    ratio = None
    defined = sum(1 for p in points if p.status != "skip")
    if ratios and len(ratios) == defined and all(sampler.close(r, ratios[0]) for r in ratios):
        ratio = ratios[0]
    return points, ratio


def _precise_points(sampler: _Sampler, points: list[_Point], checked: set[int],
                    agreeing: int) -> Status | None:
    """High precision at the remaining drawn points: "different" at the first confirmed
    difference, "equal" once NEEDED_PRECISE points agree, else None (inconclusive)."""
    for i, point in enumerate(points):
        if agreeing >= NEEDED_PRECISE or sampler.precise_done >= MAX_PRECISE:
            break
        if i in checked:
            continue
        status = sampler.precise_status(point)
        if status == "differ":
            return "different"
        if status == "agree":
            agreeing += 1
    return "equal" if agreeing >= NEEDED_PRECISE else None
