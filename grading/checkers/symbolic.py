"""Symbolic answers: expressions equivalent to the reference over a domain.

Equivalence is decided by sampling (sampling.py): seeded points over the spec's ``domain``
("positive", the default, or "real"), evaluated with floats and confirmed with exact or
high-precision arithmetic, with parameters substituted. Only when sampling is inconclusive
does sympy, built from our own trees in a helper process that is killed on timeout
(isolation.py), try to decide; if it cannot, the outcome is "review" (a person looks).
A decimal in an answer means exactly that decimal unless the spec gives ``rtol``/``atol``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from grading.checkers.arbitrary_constant import constant_answer_text, up_to_arbitrary_constant
from grading.checkers.base import (
    Answer,
    Checker,
    Outcome,
    Verdict,
    check_misconception_shapes,
    feedback,
    functions_of,
    is_number,
    misconception_list,
    names_of,
)
from grading.checkers.defined import refuse_undefined
from grading.checkers.forms import FORMS, KEY_FORMS, OPERATORS, form_check, usage_check
from grading.checkers.marking_rules import (
    partial_credit_rules,
    relation_holds,
    up_to_relations,
    validate_marking,
)
from grading.checkers.mathparse import Expr, FormatError, Node, Var, parse, to_sympy
from grading.checkers.mathparse import functions as registry
from grading.checkers.mathparse.render import to_text
from grading.checkers.mathparse.sympy_build import sympy_text
from grading.checkers.notation import STRING_KEYS, check_strings, validate_notation
from grading.checkers.refs import parse_reference, sympy_params
from grading.checkers.sampling import DOMAINS, Comparison, Domain, compare
from grading.checkers.substitution import number, substitute

__all__ = ["DOMAINS", "REVIEW_FEEDBACK", "Comparison", "SymbolicAnswer", "SymbolicChecker",
           "compare"]

REVIEW_FEEDBACK = ("Your answer could not be checked automatically; a teacher will look at "
                   "it.")
_RELATIVE_SLACK = 1e-8  # the sampling's own float tolerance, for hints
#: How many names a student may introduce when ``rename_variables`` is on.
_MAX_RENAMED = 4
#: Keys of the form and marking rules (forms.py, marking_rules.py).
MARKING_KEYS = frozenset({"form", "form_credit", "required_functions", "forbidden_functions",
                          "forbidden_operators", "equivalent_up_to", "rename_variables",
                          "partial_credit", "arbitrary_constant", *STRING_KEYS})
_NOT_GENERAL = ("There is always more than one possibility: add an arbitrary constant "
                "(+ C). Your answer is not the most general solution.")


@dataclass(frozen=True)
class SymbolicAnswer(Answer):
    """The parsed expression."""

    expr: Expr | None = None


class SymbolicChecker(Checker[SymbolicAnswer]):
    """An expression equivalent to the reference for all values of the variables in the
    spec's ``domain`` ("positive", the default, or "real")."""

    type_name = "symbolic"
    spec_keys = frozenset({"domain", "rtol", "atol", "allow_infinity"}) | MARKING_KEYS

    def parse(self, raw: str, spec: Mapping[str, Any]) -> SymbolicAnswer:
        check_strings(raw if isinstance(raw, str) else "", spec)
        expr = _read(raw if isinstance(raw, str) else "", spec)
        message = usage_check(expr.node, forbidden=_function_names(spec, "forbidden_functions"),
                              operators=_strings(spec, "forbidden_operators"))
        if message:
            raise FormatError(message, None)
        refuse_undefined(expr)
        return SymbolicAnswer(raw=raw, canonical=expr.to_text(), latex=expr.to_latex(),
                              expr=expr)

    def check(self, answer: SymbolicAnswer, spec: Mapping[str, Any],
              params: Mapping[str, Any] | None = None) -> Verdict:
        params = params or {}
        assert answer.expr is not None  # noqa: S101 - always set by parse
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        domain = _domain(spec)
        rtol, atol = _tolerance(spec)
        canonical = answer.canonical
        if spec.get("arbitrary_constant"):
            verdict = _with_arbitrary_constant(answer.expr, reference, spec, params)
            if verdict is not None:
                return verdict
        renamings = _renamings(answer.expr, variables) if spec.get("rename_variables") \
            else [answer.expr]
        if not renamings:
            return Verdict(0.0, "incorrect", feedback(spec, False) + " Your answer uses more "
                           "variables than the expected answer.", None, [], canonical)
        first: tuple[Expr, Comparison] | None = None
        for candidate in renamings:
            result = compare(candidate, reference, variables, functions=functions,
                             params=params, domain=domain, rtol=rtol, atol=atol)
            first = first or (candidate, result)
            if result.status == "equal":
                break
        else:
            assert first is not None  # noqa: S101 - renamings is not empty
            candidate, result = first
        answer_expr = candidate

        def same(a: Node, b: Node) -> bool:
            return compare(Expr(a), Expr(b), variables, functions=functions, params=params,
                           use_sympy=False, domain=domain, rtol=rtol,
                           atol=atol).status == "equal"

        if result.status == "equal":
            return _form_verdict(answer_expr, reference, spec, canonical, params)
        for rule in up_to_relations(spec):
            if relation_holds(rule, answer_expr.node, reference.node, variables, same,
                              result.ratio):
                return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
        for item in misconception_list(spec):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError:
                continue
            if same(answer_expr.node, target.node):
                # its credit, if any, is scored by the pipeline (pipeline.misconception_credit)
                return Verdict(0.0, "incorrect",
                               str(item.get("feedback", "")), str(item.get("tag")), [],
                               canonical)
        for entry in partial_credit_rules(spec):
            if relation_holds(str(entry["rule"]), answer_expr.node, reference.node, variables,
                              same, result.ratio):
                credit = float(entry["credit"])
                message = str(entry.get("feedback") or _RULE_FEEDBACK[str(entry["rule"])])
                return Verdict(credit, "partial" if credit > 0 else "incorrect", message,
                               str(entry.get("tag") or f"rule:{entry['rule']}"), [], canonical)
        if result.status == "unknown":
            return Verdict(None, "review", REVIEW_FEEDBACK, None, [], canonical)
        return Verdict(0.0, "incorrect", _hint(spec, result), None, [], canonical)

    def reference_answer(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        if spec.get("arbitrary_constant"):
            return constant_answer_text(self._key_text({**spec, "arbitrary_constant": False},
                                                       params), names_of(spec, "variables"))
        return self._key_text(spec, params)

    def _key_text(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
        variables = names_of(spec, "variables")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions_of(spec))
        unknown = reference.free_variables - set(variables)
        written = _author_tree(reference, params) if unknown and (
            _forms(spec) or spec.get("required_functions")) else None
        if written is not None:
            return to_text(written)  # keeps the author's form, which sympy would rewrite
        if unknown:
            # Parameters appear in the reference: substitute their values as numbers.
            values = {k: v for k, v in params.items() if k in unknown}
            expr = to_sympy(reference, substitutions=sympy_params(values))
            if isinstance(expr, list):
                raise ValueError("the reference gives a list, not one expression")
            return sympy_text(expr)
        return reference.to_text()

    def validate_spec(self, spec: Mapping[str, Any]) -> list[str]:
        problems = super().validate_spec(spec) + validate_notation(spec)
        reference = spec.get("reference")
        if not isinstance(reference, str) or not reference.strip():
            problems.append("'reference' must be an expression string")
        elif not problems:
            try:
                parse(reference, variables=names_of(spec, "variables"),
                      functions=functions_of(spec), list_functions=True, max_length=2000,
                      infinity=True)
            except ValueError as exc:
                message = getattr(exc, "message", str(exc))
                if not message.startswith("unknown name"):  # parameters are not known here
                    problems.append(f"'reference' cannot be read: {message}")
        if spec.get("domain", "positive") not in DOMAINS:
            problems.append(f"'domain' must be one of {', '.join(sorted(DOMAINS))}")
        for key in ("rtol", "atol"):
            if key in spec and (not is_number(spec[key]) or not 0 <= spec[key] < 1):
                problems.append(f"'{key}' must be a number from 0 to below 1")
        if "allow_infinity" in spec and not isinstance(spec["allow_infinity"], bool):
            problems.append("'allow_infinity' must be true or false")
        problems += check_misconception_shapes(spec)
        problems += _form_problems(spec) + validate_marking(spec)
        return problems

    def self_check(self, spec: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
        """As every checker's, and the key written as the author wrote it meets its forms."""
        problems = super().self_check(spec, params)
        if problems or not _forms(spec):
            return problems
        variables = names_of(spec, "variables")
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions_of(spec))
        written = _author_tree(reference, params)
        if written is None:
            return problems
        verdict = _form_verdict(Expr(written), reference, spec, to_text(written), params)
        if verdict.outcome != "correct":
            problems.append(f"'reference' does not meet its own form: {verdict.feedback}")
        return problems

    def misconception_problems(self, spec: Mapping[str, Any],
                               params: Mapping[str, Any]) -> list[str]:
        problems = []
        variables = names_of(spec, "variables")
        functions = functions_of(spec)
        reference = parse_reference(spec["reference"], params, variables=variables,
                                    functions=functions)
        rtol, atol = _tolerance(spec)
        for index, item in enumerate(misconception_list(spec), start=1):
            try:
                target = parse_reference(item.get("answer"), params, variables=variables,
                                         functions=functions)
            except ValueError as exc:
                problems.append(f"'misconceptions' entry {index}: {exc}")
                continue
            if compare(target, reference, variables, functions=functions, params=params,
                       use_sympy=False, domain=_domain(spec), rtol=rtol,
                       atol=atol).status == "equal":
                problems.append(f"'misconceptions' entry {index} ('{item.get('tag')}') is "
                                f"equivalent to the reference")
        return problems


_RULE_FEEDBACK = {
    "sign": "Your answer has the wrong sign.",
    "factor": "Your answer is off by a constant factor.",
    "constant": "Your answer differs from the expected one by a constant.",
    "power_of_ten": "Your answer is off by a power of ten.",
}


def _read(raw: str, spec: Mapping[str, Any]) -> Expr:
    """Parse the answer; with ``rename_variables``, names the spec does not declare are read
    as variables (single names that are not functions), up to a few of them."""
    variables = list(names_of(spec, "variables"))
    extra: list[str] = []
    while True:
        try:
            return parse(raw, variables=variables + extra, functions=functions_of(spec),
                         infinity=bool(spec.get("allow_infinity")))
        except FormatError as exc:
            name = _unknown_name(exc)
            if spec.get("arbitrary_constant") and name is not None and len(name) == 1:
                if extra:
                    raise FormatError(f"your answer should have one arbitrary constant, not "
                                      f"two ({extra[0]} and {name})", exc.position) from None
                extra.append(name)
                continue
            if not spec.get("rename_variables") or name is None or \
                    len(extra) >= _MAX_RENAMED or name in extra:
                raise
            extra.append(name)


def _with_arbitrary_constant(answer: Expr, reference: Expr, spec: Mapping[str, Any],
                             params: Mapping[str, Any]) -> Verdict | None:
    """The verdict for an answer that must carry an arbitrary constant (arbitrary_constant.py),
    or None to grade it as usual (no constant written and not the key plus a number)."""
    variables = names_of(spec, "variables")
    functions = functions_of(spec)
    canonical = answer.to_text()
    constants = sorted(answer.free_variables - set(variables))
    names = [*variables, *constants]
    domain = _domain(spec)
    rtol, atol = _tolerance(spec)

    def same(a: Node, b: Node) -> bool:
        return compare(Expr(a), Expr(b), names, functions=functions, params=params,
                       use_sympy=False, domain=domain, rtol=rtol,
                       atol=atol).status == "equal"

    if not constants:
        if relation_holds("constant", answer.node, reference.node, variables, same, None):
            return Verdict(0.0, "incorrect", _NOT_GENERAL, "no-constant", [], canonical)
        return None
    relation = up_to_arbitrary_constant(answer.node, reference.node, variables, constants[0],
                                        same)
    if relation == "equal":
        return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)
    if relation == "not_general":
        return Verdict(0.0, "incorrect", _NOT_GENERAL, "no-constant", [], canonical)
    for item in misconception_list(spec):  # a named wrong antiderivative, with its + C
        try:
            target = parse_reference(item.get("answer"), params, variables=variables,
                                     functions=functions)
        except ValueError:
            continue
        if up_to_arbitrary_constant(answer.node, target.node, variables, constants[0],
                                    same) == "equal":
            # its credit, if any, is scored by the pipeline (pipeline.misconception_credit)
            return Verdict(0.0, "incorrect",
                           str(item.get("feedback", "")), str(item.get("tag")), [], canonical)
    message = feedback(spec, False)
    if relation == "nonlinear":
        message += f" Your answer should be linear in the constant {constants[0]}."
    return Verdict(0.0, "incorrect", message, None, [], canonical)


def _unknown_name(exc: FormatError) -> str | None:
    match = re.match(r"unknown name '([A-Za-z][A-Za-z0-9_]*)'", exc.message)
    return match.group(1) if match else None


def _renamings(expr: Expr, variables: list[str]) -> list[Expr]:
    """The answer with its undeclared names mapped one-to-one onto unused declared variables,
    every way (at most 4! ways); the answer itself when it uses declared names only."""
    from itertools import permutations

    foreign = sorted(expr.free_variables - set(variables))
    if not foreign:
        return [expr]
    free = [v for v in variables if v not in expr.free_variables]
    if len(foreign) > len(free):
        return []
    out = []
    for targets in permutations(free, len(foreign)):
        mapping = {name: _var(target) for name, target in zip(foreign, targets, strict=True)}
        node = substitute(expr.node, mapping)
        out.append(Expr(node, to_text(node)))
    return out


def _var(name: str) -> Node:
    return Var(name)


def _strings(spec: Mapping[str, Any], key: str) -> list[str]:
    value = spec.get(key)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _function_names(spec: Mapping[str, Any], key: str) -> list[str]:
    """The functions named under ``key``, by their canonical names (``ln`` is ``log``)."""
    names = []
    for name in _strings(spec, key):
        fn = registry.find(name)
        names.append(fn.name if fn is not None else name)
    return names


def _forms(spec: Mapping[str, Any]) -> list[str]:
    value = spec.get("form")
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _form_problems(spec: Mapping[str, Any]) -> list[str]:
    problems = []
    if "form" in spec:
        value = spec["form"]
        if not (isinstance(value, str) or (isinstance(value, list)
                                           and all(isinstance(v, str) for v in value))):
            problems.append("'form' must be a name or a list of names")
        problems += [f"'form': unknown form '{name}' (use one of {', '.join(FORMS)})"
                     for name in _forms(spec) if name not in FORMS]
    if "form_credit" in spec and (not is_number(spec["form_credit"])
                                  or not 0 <= spec["form_credit"] < 1):
        problems.append("'form_credit' must be a number from 0 to below 1")
    for key in ("required_functions", "forbidden_functions", "forbidden_operators"):
        if key in spec and (not isinstance(spec[key], list)
                            or not all(isinstance(v, str) for v in spec[key])):
            problems.append(f"'{key}' must be a list of names")
    problems += [f"'forbidden_operators': unknown operator '{op}' (use {' '.join(OPERATORS)})"
                 for op in _strings(spec, "forbidden_operators") if op not in OPERATORS]
    for key in ("required_functions", "forbidden_functions"):
        problems += [f"'{key}': unknown function '{name}'" for name in _strings(spec, key)
                     if registry.find(name) is None]
    for key in ("rename_variables", "arbitrary_constant"):
        if key in spec and not isinstance(spec[key], bool):
            problems.append(f"'{key}' must be true or false")
    if spec.get("rename_variables") and spec.get("arbitrary_constant"):
        problems.append("'arbitrary_constant' and 'rename_variables' cannot be combined (an "
                        "undeclared name would be either)")
    return problems


def _form_verdict(answer: Expr, reference: Expr, spec: Mapping[str, Any], canonical: str,
                  params: Mapping[str, Any]) -> Verdict:
    """The verdict for an answer equal to the key: correct, or the form credit and message
    of the first requirement it fails (its tag ``form:<name>`` groups it on the dashboard)."""
    forms = _forms(spec)
    variables = names_of(spec, "variables")
    credit = float(spec.get("form_credit", 0) or 0)
    outcome: Outcome = "partial" if credit > 0 else "incorrect"
    missing = usage_check(answer.node, required=_function_names(spec, "required_functions"))
    if missing:
        return Verdict(credit, outcome, f"Your answer is equal to the expected answer. "
                       f"{missing}", "form:required_functions", [], canonical)
    key = _author_tree(reference, params) if set(forms) & KEY_FORMS else None
    failure = form_check(answer.node, forms, variables, key)
    if failure is not None:
        return Verdict(credit, outcome, failure.message, f"form:{failure.name}", [], canonical)
    return Verdict(1.0, "correct", feedback(spec, True), None, [], canonical)


def _author_tree(reference: Expr, params: Mapping[str, Any]) -> Node | None:
    """The key as the author wrote it, with the variant's numbers in place of its parameters
    (None when a parameter is not a number, e.g. a list)."""
    mapping: dict[str, Node] = {}
    for name in reference.free_variables:
        if name in params:
            value = params[name]
            if isinstance(value, bool) or not isinstance(value, int | float):
                return None
            mapping[name] = number(Fraction(str(value)))
    return substitute(reference.node, mapping)


def _domain(spec: Mapping[str, Any]) -> Domain:
    return "real" if spec.get("domain") == "real" else "positive"


def _tolerance(spec: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """The spec's rtol/atol for approximate answers (None: exact)."""
    rtol, atol = spec.get("rtol"), spec.get("atol")
    return (float(rtol) if rtol is not None and is_number(rtol) else None,
            float(atol) if atol is not None and is_number(atol) else None)


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= _RELATIVE_SLACK * max(abs(x), abs(y)) + 1e-13


def _hint(spec: Mapping[str, Any], result: Comparison) -> str:
    base = feedback(spec, False)
    if "feedback_incorrect" in spec or result.ratio is None:
        return base
    if _close(result.ratio, -1.0):
        return f"{base} Your expression has the wrong sign."
    if not _close(result.ratio, 0.0):
        return f"{base} Your expression is off by a constant factor."
    return base
