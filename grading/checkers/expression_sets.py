"""Finite sets of expressions (a set part that declares ``variables``): ``{x + 1, x - 1}``.

The roots ``{a x, -a x}`` of ``t² = a² x²``, the eigenvalues ``{λ1, λ2}`` of a symbolic
matrix: each element is an expression compared as a symbolic answer compares one (sampling,
then exact confirmation), order does not count, and each element of the key is matched by
exactly one of the answer. A repeated element is refused when the set must be written
reduced (the default) and dropped otherwise. Intervals have real endpoints, so they are not
read here; the answer must be written in braces (``∅``, ``{}`` for the empty set).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grading.checkers.base import Verdict, feedback, functions_of, misconception_list, names_of
from grading.checkers.lists import MAX_SYMBOLIC_ENTRIES, ListAnswer, ListChecker, read_list
from grading.checkers.mathparse import FormatError
from grading.checkers.symbolic import SymbolicChecker

__all__ = ["EMPTY_SET", "check_expression_set", "expression_set_key_text",
           "expression_set_reference", "read_expression_set"]

EMPTY_SET = frozenset({"{}", "∅", "empty", "none", "no solution"})


def _braced(raw: str) -> str | None:
    """``raw`` with its outer braces blanked (offsets kept), or None if it is not braced."""
    start = len(raw) - len(raw.lstrip())
    end = len(raw.rstrip())
    if end - start < 2 or raw[start] != "{" or raw[end - 1] != "}":
        return None
    return raw[:start] + " " + raw[start + 1:end - 1] + " " + raw[end:]


def read_expression_set(raw: str, spec: Mapping[str, Any], *,
                        variables: Sequence[str] | None = None) -> ListAnswer:
    """The elements of a braced set of expressions, as a list answer (``exprs`` empty for the
    empty set). FormatError, with a position in ``raw``, when it is not one."""
    if raw.strip().lower() in EMPTY_SET:
        return ListAnswer(raw=raw, canonical="{}", latex=r"\emptyset", exprs=())
    body = _braced(raw)
    if body is None:
        raise FormatError("write the set in braces, e.g. {x + 1, x - 1} (intervals need "
                          "numbers at their ends)", 1)
    exprs = read_list(body, variables=names_of(spec, "variables") if variables is None
                      else variables, functions=functions_of(spec),
                      limit=MAX_SYMBOLIC_ENTRIES, what="set")
    canonical = "{" + ", ".join(e.to_text() for e in exprs) + "}"
    latex = r"\left\{" + ", ".join(e.to_latex() for e in exprs) + r"\right\}"
    return ListAnswer(raw=raw, canonical=canonical, latex=latex, exprs=tuple(exprs))


def expression_set_reference(text: object, spec: Mapping[str, Any],
                             params: Mapping[str, Any]) -> list[str]:
    """An author's set of expressions as the list of its elements' texts (parameters may
    appear in them). ValueError when it cannot be read."""
    if not isinstance(text, str):
        raise ValueError(f"a set must be written as a string, not {text!r}")
    try:
        answer = read_expression_set(text, spec, variables=[*names_of(spec, "variables"),
                                                            *params])
    except FormatError as exc:
        raise ValueError(f"the set {text!r} cannot be read: {exc.message}") from exc
    return [e.to_text() for e in answer.exprs]


def _as_list_spec(spec: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    misconceptions = []
    for item in misconception_list(spec):
        try:
            misconceptions.append({**item, "answer": expression_set_reference(
                item.get("answer"), spec, params)})
        except ValueError:
            continue
    out = {**spec, "type": "list", "ordered": False,
           "duplicates": "refuse" if spec.get("reduced", True) else "ignore",
           "reference": expression_set_reference(spec["reference"], spec, params)}
    out.pop("reduced", None)
    if misconceptions:
        out["misconceptions"] = misconceptions
    else:
        out.pop("misconceptions", None)
    return out


def check_expression_set(answer: ListAnswer, spec: Mapping[str, Any],
                         params: Mapping[str, Any]) -> Verdict:
    """Grade a set of expressions against the spec's key: as an unordered list whose
    repeated elements are refused (reduced) or dropped, with the spec's misconceptions and
    ``partial`` rule. The empty set equals only the empty set."""
    key = expression_set_reference(spec["reference"], spec, params)
    if not answer.exprs or not key:
        right = not answer.exprs and not key
        return Verdict(1.0 if right else 0.0, "correct" if right else "incorrect",
                       feedback(spec, right), None, [], answer.canonical)
    verdict = ListChecker().check(answer, _as_list_spec(spec, params), params)
    message = verdict.feedback.replace("entries in your list", "elements in your set")
    return Verdict(verdict.score, verdict.outcome, message, verdict.misconception,
                   verdict.concepts_found, answer.canonical)


def expression_set_key_text(spec: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    """The key in one variant, parameters replaced by their values: ``{2*x, -2*x}``."""
    checker = SymbolicChecker()
    elements = [checker.reference_answer({**spec, "type": "symbolic", "reference": text},
                                         params)
                for text in expression_set_reference(spec["reference"], spec, params)]
    return "{" + ", ".join(elements) + "}"
