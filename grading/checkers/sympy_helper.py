"""The sympy helper process: ``python -m grading.checkers.sympy_helper`` (see isolation.py).

It reads one JSON request per line on standard input, rebuilds both trees from plain data
(mathparse.wire: our own node kinds, never an expression string), builds them into sympy with
the parameters as exact rationals and the variables positive or real, and writes one JSON line
``{"verdict": "equal" | "different" | "unknown"}``. Before answering anything it caps its
address space (RLIMIT_AS: what it uses at start plus ``GRADER_SYMPY_MEMORY_MB``); before each
request it caps its CPU time (RLIMIT_CPU), so a helper whose parent is gone still stops.
It exits at the end of its input.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy

from grading.checkers.mathparse import to_sympy
from grading.checkers.mathparse.wire import WireError, from_data

__all__ = ["decide", "main"]

_CPU_SECONDS_PER_REQUEST = 30


def _limit_memory() -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux
        return
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        current = 512 * 1024 * 1024
    extra = int(os.environ.get("GRADER_SYMPY_MEMORY_MB", "1024")) * 1024 * 1024
    limit = current + extra
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _limit_cpu() -> None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Linux
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    spent = int(used.ru_utime + used.ru_stime) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = spent + _CPU_SECONDS_PER_REQUEST
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _rational(value: Any) -> Any:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and value[1] > 0):
        raise WireError("invalid parameter")
    exact = Fraction(value[0], value[1])
    return sympy.Rational(exact.numerator, exact.denominator)


def _substitutions(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise WireError("invalid substitutions")
    out: dict[str, Any] = {}
    for name, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], list):
            out[str(name)] = [_rational(v) for v in value]
        else:
            out[str(name)] = _rational(value)
    return out


def decide(request: Mapping[str, Any]) -> str:
    """sympy's verdict on one request: "equal", "different" or "unknown"."""
    functions = request.get("functions") or {}
    if not isinstance(functions, dict):
        raise WireError("invalid functions")
    answer = from_data(request.get("answer"), functions)
    reference = from_data(request.get("reference"), functions)
    substitutions = _substitutions(request.get("substitutions") or {})
    assumptions = {"real": True} if request.get("domain") == "real" else {"positive": True}
    a = to_sympy(answer, substitutions=substitutions, assumptions=assumptions)
    b = to_sympy(reference, substitutions=substitutions, assumptions=assumptions)
    if isinstance(a, list) or isinstance(b, list):
        return "unknown"
    if sympy.simplify(a - b) == 0:
        return "equal"
    same = a.equals(b)
    if same is True:
        return "equal"
    if same is False:
        return "different"
    return "unknown"


def _warm_up() -> None:
    """One small simplification before answering, so sympy's lazy imports and caches do not
    count against the first request's budget."""
    x = sympy.Symbol("x", positive=True)
    sympy.simplify(sympy.sqrt(x**2) - x)
    (sympy.sin(x) ** 2 + sympy.cos(x) ** 2).equals(1)


def main() -> None:
    """Serve requests until the end of standard input."""
    _limit_memory()
    _warm_up()
    out = sys.stdout.buffer
    out.write(b"ready\n")
    out.flush()
    for line in sys.stdin.buffer:
        _limit_cpu()
        try:
            verdict = decide(json.loads(line))
        except Exception:  # any sympy failure, MemoryError or bad data: undecided
            verdict = "unknown"
        out.write(json.dumps({"verdict": verdict}).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
