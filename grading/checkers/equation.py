"""Equation and inequality answers (``type = "equation"``), and systems of equations.

**Equations** (as STACK's AlgEquiv on equations): ``a = b`` is equivalent to the key
``c = d`` when a - b is a non-zero constant multiple of c - d over the spec's ``domain``
(default ``real``), so scaling and swapped sides are allowed, and ``x = 2 or x = -2`` is
``(x - 2)(x + 2) = 0``; failing that, the numerators of a - b and c - d written over one
denominator are compared the same way (``1/x + 1/y = 2`` is ``y = x/(2x - 1)``).
Multiplicity counts (``(x - 2)^2 = 0`` is not ``x = 2``), as in STACK. The constant
multiple is decided by a cross-multiplied identity f(u)·g(v) = f(v)·g(u) in two copies of
the variables, checked by the sampling comparison (floats, then exact/high precision; sympy
only in its killable helper, never on text). ``form = "sides"`` also requires the key's two
sides (in either order): ``y = 2x + 1`` but not ``2x - y = -1``.

**Inequalities** in one variable (``x > 3``, ``-2 <= x < 5``, ``x < -2 or x > 2``,
``x != 1``, ``x^2 < 4``, ``x^3 < 8``, ``|x - 1| <= 2``, ``(x - 1)/(x + 2) >= 0``) are solved
into sets of reals, exactly, and equal when the sets are: polynomials up to degree 2 by
formula (solving.py), and up to degree 12, their quotients and up to 3 absolute values by a
sign chart (sign_chart.py). Otherwise (several variables, other functions) one inequality
matches another when their sides' differences are a positive multiple of each other with the
same strictness (``a < b`` is ``b > a``).

**Systems** (``system = true``, or a list as ``reference``): linear systems compare their
reduced row echelon forms exactly (same solutions); other systems match equation by
equation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.base import (
    Answer,
    Checker,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    misconception_list,
    names_of,
)
from grading.checkers.mathparse import (
    Abs,
    BinOp,
    Expr,
    FormatError,
    Node,
    Num,
    Pow,
    Var,
    precise_evaluate,
)
from grading.checkers.realsets import (
    Component,
    RealSet,
    compare_numbers,
    parse_set,
    reduce_components,
    sets_equal,
)
from grading.checkers.refs import Number, fraction_params
from grading.checkers.relation_sets import set_as_relation, with_infinity
from grading.checkers.relations import Chain, Statement, System, parse_statement, parse_system
from grading.checkers.sampling import DOMAINS, Domain, compare
from grading.checkers.sign_chart import solve_by_sign_chart
from grading.checkers.solving import linear_rows, numerator, rref, solve_relation
from grading.checkers.substitution import substitute
from grading.checkers.symbolic import SymbolicChecker
from grading.checkers.tolerance import Tolerance

__all__ = ["FORMS", "EquationAnswer", "EquationChecker", "relation_set"]

_SIGN = re.compile("[<>=\u2264\u2265\u2260]")  # a relation, not a set (set_answers)

FORMS = ("any", "sides")
_TWIN = "__2"  # suffix of the second copy of each variable in the cross-multiplied identity
_ZERO = Num(Fraction(0), "0")
_EXACT = Tolerance(rtol=1e-12)
_PROBES = [Fraction(7, 10), Fraction(13, 10), Fraction(3, 5), Fraction(17, 10),
           Fraction(11, 5), Fraction(2, 7), Fraction(23, 10), Fraction(9, 10)]
Parsed = Statement | System


@dataclass(frozen=True)
class EquationAnswer(Answer):
    """The statement (or system) as read."""

    parsed: Parsed | None = None


def _renamed(node: Node, names: frozenset[str]) -> Node:
    """``node`` with each variable in ``names`` renamed to its twin."""
    return substitute(node, {name: Var(name + _TWIN) for name in names})


class _Context:
    """One part's variables, functions, parameters and domain."""

    def __init__(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        self.spec = spec
        self.params = params
        self.variables = names_of(spec, "variables")
        self.functions = functions_of(spec)
        self.domain: Domain = "positive" if spec.get("domain") == "positive" else "real"

    def same(self, a: Node, b: Node, variables: Sequence[str] | None = None) -> str:
        """"equal", "different" or "unknown"."""
        return compare(Expr(a), Expr(b), list(variables or self.variables),
                       functions=self.functions, params=self.params, domain=self.domain,
                       use_sympy=False).status

    def is_zero(self, node: Node) -> bool:
        return self.same(node, _ZERO) == "equal"

    def ratio_sign(self, f: Node, g: Node) -> int | None:
        """The sign of the constant c with f = c·g, or None if f/g is not constant (f and g
        not identically zero)."""
        names = frozenset(self.variables)
        twins = [*self.variables, *(v + _TWIN for v in self.variables)]
        left = BinOp("*", f, _renamed(g, names))
        right = BinOp("*", _renamed(f, names), g)
        if self.same(left, right, twins) != "equal":
            return None
        result = compare(Expr(f), Expr(g), self.variables, functions=self.functions,
                         params=self.params, domain=self.domain, use_sympy=False)
        if result.ratio is not None:
            return 1 if result.ratio > 0 else -1
        return self._sign_at_a_point(f, g)

    def _sign_at_a_point(self, f: Node, g: Node) -> int | None:
        """The sign of f·g at the first of a few rational points where both have a non-zero
        value (high precision: floats overflow on x^6000)."""
        env = {k: v for k, v in fraction_params(self.params).items() if not isinstance(v, list)}
        for i, base in enumerate(_PROBES):
            point = {v: base + Fraction(j, 7) * (1 if self.domain == "positive" or i % 2 == 0
                                                 else -1)
                     for j, v in enumerate(self.variables)}
            a = Number.of_precise(precise_evaluate(f, {**env, **point}))
            b = Number.of_precise(precise_evaluate(g, {**env, **point}))
            if a.is_finite and b.is_finite and a.best() != 0 and b.best() != 0:
                return 1 if (a.best() > 0) == (b.best() > 0) else -1
        return None

    def multiple(self, f: Node, g: Node) -> int | None:
        """Sign of c with f = c·g (c ≠ 0), trying the numerators too; 0 when both are
        identically zero; None when not a constant multiple."""
        f_zero, g_zero = self.is_zero(f), self.is_zero(g)
        if f_zero or g_zero:
            return 0 if f_zero and g_zero else None
        sign = self.ratio_sign(f, g)
        if sign is None:
            nf, ng = numerator(f), numerator(g)
            if (nf, ng) != (f, g):
                if self.is_zero(nf) or self.is_zero(ng):
                    return None
                sign = self.ratio_sign(nf, ng)
        return sign


def _difference(chain: Chain, index: int = 0) -> Node:
    """Left side minus right side; ``|a| = |b|`` (also < >) as ``a^2 - b^2``, which has
    the same solutions (STACK: ``abs(x) = abs(y)`` is ``x = y or x = -y``)."""
    left, right = chain.sides[index].node, chain.sides[index + 1].node
    if isinstance(left, Abs) and isinstance(right, Abs):
        two = Num(Fraction(2), "2")
        return BinOp("-", Pow(left.operand, two), Pow(right.operand, two))
    return BinOp("-", left, right)


def _product(statement: Statement) -> Node:
    """An or of equations as one: the product of their differences."""
    nodes = [_difference(group[0]) for group in statement.alternatives]
    product = nodes[0]
    for node in nodes[1:]:
        product = BinOp("*", product, node)
    return product


def _one_variable(ctx: _Context, *statements: Statement) -> str | None:
    names: set[str] = set()
    for statement in statements:
        for chain in statement.chains:
            for side in chain.sides:
                names |= side.free_variables & set(ctx.variables)
    if len(ctx.variables) == 1:
        return ctx.variables[0]
    return next(iter(names)) if len(names) == 1 else None


def _solution_set(statement: Statement, variable: str, ctx: _Context) -> RealSet | None:
    union: list[Any] = []
    for group in statement.alternatives:
        current: RealSet | None = None
        for chain in group:
            for i, op in enumerate(chain.ops):
                solved = with_infinity(chain.sides[i], op, chain.sides[i + 1])
                if solved is None:
                    solved = solve_relation(chain.sides[i], op, chain.sides[i + 1], variable,
                                            ctx.params)
                if solved is None:
                    solved = solve_by_sign_chart(chain.sides[i], op, chain.sides[i + 1],
                                                 variable, ctx.params)
                if solved is None:
                    return None
                current = solved if current is None else _intersect(current, solved)
        if current is not None:
            union.extend(current.components)
    return reduce_components(union)


def relation_set(raw: str, variable: str) -> RealSet:
    """The set of reals an inequality (or equation) in ``variable`` describes: ``x > 2`` is
    (2, oo). FormatError, with the position, when it cannot be read or solved exactly."""
    statement = parse_statement(raw, variables=[variable])
    solved = _solution_set(statement, variable, _Context({"variables": [variable]}, {}))
    if solved is None:
        raise FormatError("this relation cannot be solved exactly: write the set as intervals, "
                          "such as (2, oo)", 1)
    return solved


def _intersect(a: RealSet, b: RealSet) -> RealSet:
    out = []
    for x in a.components:
        for y in b.components:
            lo_order = compare_numbers(x.lo, y.lo)
            lo, lo_closed = (x.lo, x.lo_closed) if lo_order > 0 else (y.lo, y.lo_closed) \
                if lo_order < 0 else (x.lo, x.lo_closed and y.lo_closed)
            hi_order = compare_numbers(x.hi, y.hi)
            hi, hi_closed = (x.hi, x.hi_closed) if hi_order < 0 else (y.hi, y.hi_closed) \
                if hi_order > 0 else (x.hi, x.hi_closed and y.hi_closed)
            order = compare_numbers(lo, hi)
            if order < 0 or (order == 0 and lo_closed and hi_closed):
                out.append(Component(lo, hi, lo_closed, hi_closed))
    return reduce_components(out)


def _normal(chain: Chain) -> tuple[Node, str]:
    """A single inequality as (f, ">" or ">=" or "!=") with f > 0 (or >= 0, != 0)."""
    op = chain.ops[0]
    if op in ("<", "<="):
        swapped = Chain((chain.sides[1], chain.sides[0]), (op,))
        return _difference(swapped), op.replace("<", ">")
    return _difference(chain), op


def _lone_variable(side: Expr) -> str | None:
    return side.node.name if isinstance(side.node, Var) else None


class EquationChecker(Checker[EquationAnswer]):
    """Equations, inequalities and systems equivalent to the key (see the module)."""

    type_name = "equation"
    spec_keys = frozenset({"domain", "form", "system", "set_answers"})

    @staticmethod
    def _is_system(spec: Mapping[str, Any]) -> bool:
        return bool(spec.get("system")) or isinstance(spec.get("reference"), list)

    def _read(self, raw: str, spec: Mapping[str, Any], variables: Sequence[str]) -> Parsed:
        functions = functions_of(spec)
        if spec.get("set_answers") and len(variables) == 1 and not _SIGN.search(raw):
            written = parse_set(raw, variables=variables, functions=functions)  # (2, oo)
            raw = set_as_relation(written, variables[0])
        if self._is_system(spec):
            return parse_system(raw, variables=variables, functions=functions)
        return parse_statement(raw, variables=variables, functions=functions)

    def parse(self, raw: str, spec: Mapping[str, Any]) -> EquationAnswer:
        parsed = self._read(raw or "", spec, names_of(spec, "variables"))
        return EquationAnswer(raw=raw, canonical=parsed.to_text(), latex=parsed.to_latex(),
                              parsed=parsed)

    def _key(self, text: object, spec: Mapping[str, Any], params: Mapping[str, Any]) -> Parsed:
        names = [*names_of(spec, "variables"), *(p for p in params
                                                 if p not in names_of(spec, "variables"))]
        try:
            if isinstance(text, list):
                return parse_system(", ".join(str(t) for t in text), variables=names,
                                    functions=functions_of(spec))
            if not isinstance(text, str):
                raise ValueError(f"an equation must be a string, not {text!r}")
            return self._read(text, spec, names)
        except FormatError as exc:
            raise ValueError(f"'{text}': {exc.message}") from None

    def _equivalent(self, answer: Parsed, key: Parsed, ctx: _Context) -> bool | None:
        """True/False, or None when the two are not of comparable kinds."""
        if isinstance(answer, System) or isinstance(key, System):
            a = answer.statements if isinstance(answer, System) else (answer,)
            k = key.statements if isinstance(key, System) else (key,)
            return self._systems(a, k, ctx)
        return self._statements(answer, key, ctx)

    def _statements(self, answer: Statement, key: Statement, ctx: _Context) -> bool | None:
        if key.is_equation and answer.is_equation:
            return ctx.multiple(_product(answer), _product(key)) is not None
        variable = _one_variable(ctx, answer, key)
        if variable is not None:
            a, k = _solution_set(answer, variable, ctx), _solution_set(key, variable, ctx)
            if a is not None and k is not None:
                return sets_equal(a, k, _EXACT)
        a_chains, k_chains = answer.chains, key.chains
        if len(answer.alternatives) != 1 or len(key.alternatives) != 1:
            return False
        a_rel = [(c, i) for c in a_chains for i in range(len(c.ops))]
        k_rel = [(c, i) for c in k_chains for i in range(len(c.ops))]
        if len(a_rel) != len(k_rel):
            return False
        unused = list(k_rel)
        for chain, i in a_rel:
            single = Chain(chain.sides[i:i + 2], (chain.ops[i],))
            f, op = _normal(single) if single.ops[0] != "=" else (_difference(single), "=")
            match = None
            for index, (k_chain, j) in enumerate(unused):
                k_single = Chain(k_chain.sides[j:j + 2], (k_chain.ops[j],))
                g, k_op = _normal(k_single) if k_single.ops[0] != "=" else (
                    _difference(k_single), "=")
                if op != k_op:
                    continue
                sign = ctx.multiple(f, g)
                if sign is not None and (op in ("=", "!=") or sign > 0):
                    match = index
                    break
            if match is None:
                return False
            unused.pop(match)
        return True

    def _systems(self, answer: Sequence[Statement], key: Sequence[Statement],
                 ctx: _Context) -> bool:
        if not all(s.is_equation for s in (*answer, *key)):
            return len(answer) == len(key) and all(
                self._statements(a, k, ctx) for a, k in zip(answer, key, strict=True))
        a_rows = linear_rows([_product(s) for s in answer], ctx.variables, ctx.params)
        k_rows = linear_rows([_product(s) for s in key], ctx.variables, ctx.params)
        if a_rows is not None and k_rows is not None:
            return rref(a_rows) == rref(k_rows)
        if len(answer) != len(key):
            return False
        unused = list(key)
        for statement in answer:
            match = next((i for i, k in enumerate(unused)
                          if ctx.multiple(_product(statement), _product(k)) is not None), None)
            if match is None:
                return False
            unused.pop(match)
        return True

    def _in_form(self, answer: Parsed, key: Parsed, ctx: _Context) -> bool:
        if not (isinstance(answer, Statement) and isinstance(key, Statement)
                and answer.is_equation and key.is_equation
                and len(answer.alternatives) == 1 and len(key.alternatives) == 1):
            return True
        a, k = answer.chains[0].sides, key.chains[0].sides
        straight = ctx.same(a[0].node, k[0].node) == "equal" \
            and ctx.same(a[1].node, k[1].node) == "equal"
        return straight or (ctx.same(a[0].node, k[1].node) == "equal"
                            and ctx.same(a[1].node, k[0].node) == "equal")

    def check(self, answer: EquationAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.parsed is not None  # noqa: S101 - set by parse
        ctx = _Context(spec, params)
        key = self._key(spec["reference"], spec, params)
        canonical = answer.canonical
        if self._equivalent(answer.parsed, key, ctx):
            if spec.get("form", "any") == "sides" and not self._in_form(answer.parsed, key, ctx):
                message = "Your equation is equivalent, but not in the form asked for"
                if isinstance(key, Statement):
                    lone = [_lone_variable(s) for s in key.chains[0].sides]
                    name = next((n for n in lone if n), None)
                    if name:
                        message += f": write it with {name} on its own on one side"
                return Verdict(0.0, "incorrect", message + ".", None, [], canonical)
            return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = self._key(item.get("answer"), spec, params)
            except ValueError:
                continue
            if self._equivalent(answer.parsed, target, ctx):
                return Verdict(0.0, "incorrect", str(item.get("feedback", "")),
                               str(item.get("tag")), [], canonical)
        return Verdict(0.0, "incorrect", self._hint(answer.parsed, key, ctx, spec), None, [],
                       canonical)

    @staticmethod
    def _hint(answer: Parsed, key: Parsed, ctx: _Context, spec: Mapping[str, Any]) -> str:
        base = feedback(spec, False)
        if "feedback_incorrect" in spec or not (isinstance(answer, Statement)
                                                and isinstance(key, Statement)):
            return base
        if key.is_equation and not answer.is_equation:
            return f"{base} An equation (with '=') is expected."
        if len(answer.chains) == 1 and len(key.chains) == 1 \
                and len(answer.chains[0].ops) == 1 and len(key.chains[0].ops) == 1:
            a_op, k_op = answer.chains[0].ops[0], key.chains[0].ops[0]
            if {a_op, k_op} <= {"<", "<=", ">", ">="} and a_op != "=":
                f, fop = _normal(answer.chains[0])
                g, gop = _normal(key.chains[0])
                sign = ctx.multiple(f, g)
                if sign is not None and sign < 0:
                    return f"{base} Your inequality points the wrong way."
                if sign is not None and sign > 0 and fop != gop:
                    return f"{base} Check whether the boundary is included (< or <=)."
        return base

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        key = self._key(spec["reference"], spec, params)
        unknown = set(params) - set(names_of(spec, "variables"))
        text = key.to_text()
        if unknown and any(
                n in unknown for s in (key.statements if isinstance(key, System) else (key,))
                for c in s.chains for side in c.sides for n in side.free_variables):
            sym = SymbolicChecker()
            statements = key.statements if isinstance(key, System) else (key,)
            out = []
            for statement in statements:
                groups = []
                for group in statement.alternatives:
                    chains = []
                    for chain in group:
                        parts = [sym.reference_answer({**spec, "type": "symbolic",
                                                       "reference": side.to_text()}, params)
                                 for side in chain.sides]
                        pieces = [parts[0]]
                        for op, part in zip(chain.ops, parts[1:], strict=True):
                            pieces += [op, part]
                        chains.append(" ".join(pieces))
                    groups.append(" and ".join(chains))
                out.append(" or ".join(groups))
            text = ", ".join(out)
        return text

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec)
        reference = spec.get("reference")
        if isinstance(reference, list):
            if not reference or not all(isinstance(r, str) and r.strip() for r in reference):
                problems.append("'reference' must be an equation string or a list of them")
        elif not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be an equation or inequality string, e.g. "
                            "\"y = 2x + 1\" or \"-2 <= x < 5\"")
        if not problems:
            try:
                self._key(reference, spec, {})
            except ValueError as exc:
                if "unknown name" not in str(exc):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {exc}")
        if spec.get("domain", "real") not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        if spec.get("form", "any") not in FORMS:
            problems.append(f"'form' must be one of {', '.join(FORMS)}")
        for key in ("system", "set_answers"):
            if key in spec and not isinstance(spec[key], bool):
                problems.append(f"'{key}' must be true or false")
        problems += check_misconception_shapes(spec)
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        key = self._key(spec["reference"], spec, params)
        ctx = _Context(spec, params)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = self._key(item.get("answer"), spec, params)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if self._equivalent(target, key, ctx):
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is "
                                f"equivalent to the reference")
        return problems
