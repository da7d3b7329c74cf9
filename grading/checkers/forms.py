"""Required forms of an answer, decided on our own tree: expanded, factored, lowest terms, ...

A form check never decides equality: the symbolic checker asks it only about an answer that
is already equal to the key, and an answer in the wrong form gets the author's ``form_credit``
and the message of the first requirement it fails. Each requirement is a name in the spec's
``form`` list (see ``FORMS``); ``form_check(node, forms, variables)`` returns the first
``FormFailure`` (its ``name`` and a message for the student) or None; each requirement's
rule is a predicate of ``form_rules.py``.

The rules follow STACK's answer tests where one exists (Expanded, FacForm, LowestTerms,
SingleFrac, PartFrac, CompSquare, EqualComAss) and WeBWorK's limited contexts:

* ``expanded``: no product or power of a sum that contains a variable, or of numbers with an
  irrational part (denominators may stay sums; function arguments must be expanded too):
  ``x^2 + 2x + 1``, not ``(x+1)^2`` or ``(1+sqrt(5))(1-sqrt(3))``.
* ``factored`` (over the integers, as Maxima's ``factor``): a product of a number and of
  factors (or powers of factors) that are primitive polynomials with integer coefficients,
  each irreducible over the rationals: ``2(x-1)(x+3)``, not ``2x^2+4x-6`` or ``(2x-2)(x+3)``.
  ``factored_rationals`` allows rational coefficients and non-primitive factors
  (``(x - 1/2)(x + 3)``), each still irreducible.
* ``lowest_terms``: every fraction of integers is reduced (``3/4``, not ``6/8``), and a
  quotient of polynomials has no common factor.
* ``single_fraction``: at most one division, at the top (numbers as exponents aside):
  ``(x+1)/(x-1)``, ``(5^(3/2)+6)/15``, not ``1 + 2/(x-1)``.
* ``simplified``: no arithmetic left on numbers (``2+3``, ``2*3``, ``6/4``, ``2^3``), no
  uncollected like terms (``x + x``), no repeated factor (``x*x``), no ``x^1``, ``x^0``,
  ``1*x``, ``0 + x`` or ``--x``, fractions in lowest terms.
* ``partial_fractions`` (one variable): a sum of a polynomial and terms ``N/(c D^k)`` with
  ``D`` irreducible, ``deg N < deg D`` and ``c`` a number, no two terms over the same ``D^k``;
  the sum may be multiplied or divided by a number.
* ``no_decimals``: no number written with a decimal point or an exponent (``0.5``, ``1e3``).
* ``rationalised``: no root (``sqrt``, ``cbrt``, ``root``, a fractional power) in a denominator.
* ``completed_square`` (one variable): the variable occurs exactly once, squared:
  ``2(x-3)^2 + 1``.
* ``equal_com_ass``: the key's expression up to the order of the terms of sums and the factors
  of products (and their grouping) only: ``1 + x``, ``x + 1``; not ``2x - x + 1``.
* ``as_written``: the key's expression exactly as the author wrote it (spacing and the
  ``*`` of implicit products aside).

``forbidden_functions``, ``required_functions`` and ``forbidden_operators`` (``+ - * / ^ !``)
are checked by ``usage_check`` on every answer (equal or not): they say what may be typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from grading.checkers.form_rules import (
    has_completed_square,
    in_lowest_terms,
    in_partial_fractions,
    is_expanded,
    is_factored,
    is_rationalised,
    is_simplified,
    is_single_fraction,
    signed_terms,
    written_with_decimals,
)
from grading.checkers.mathparse import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.nodes import walk
from grading.checkers.mathparse.render import to_text

__all__ = [
    "FORMS",
    "KEY_FORMS",
    "OPERATORS",
    "FormFailure",
    "form_check",
    "normalized_com_ass",
    "usage_check",
]

#: The form requirements and what each asks for (in the student's message).
FORMS: dict[str, str] = {
    "expanded": "expanded (multiply out every bracket)",
    "factored": "fully factored over the integers",
    "factored_rationals": "fully factored over the rationals",
    "lowest_terms": "in lowest terms",
    "single_fraction": "a single fraction",
    "simplified": "simplified",
    "partial_fractions": "in partial fractions",
    "no_decimals": "written without decimals (use fractions or exact values)",
    "rationalised": "written with a rational denominator",
    "completed_square": "written with the square completed",
    "equal_com_ass": "the expected expression, up to the order of terms and factors",
    "as_written": "exactly the expected expression",
}
#: Forms compared with the key's own tree rather than decided on the answer alone.
KEY_FORMS = frozenset({"equal_com_ass", "as_written"})
#: Operators an author may forbid, and how each is recognised in the tree.
OPERATORS = ("+", "-", "*", "/", "^", "!")


@dataclass(frozen=True)
class FormFailure:
    """The first requirement an answer failed: its name and a message for the student."""

    name: str
    message: str


def form_check(node: Node, forms: Sequence[str], variables: Sequence[str],
               key: Node | None = None) -> FormFailure | None:
    """The first of ``forms`` that ``node`` does not meet (None: all met).

    ``variables`` are the answer's variables (the rest are numbers); ``key`` is the key's tree,
    needed by ``equal_com_ass`` and ``as_written``.
    """
    for name in forms:
        if not _meets(name, node, variables, key):
            return FormFailure(name, f"Your answer {to_text(node)} is equal to the expected "
                                     f"answer but is not {FORMS[name]}.")
    return None


def _meets(name: str, node: Node, variables: Sequence[str], key: Node | None) -> bool:
    if name == "expanded":
        return is_expanded(node, variables)
    if name == "factored":
        return is_factored(node, variables, integers=True)
    if name == "factored_rationals":
        return is_factored(node, variables, integers=False)
    if name == "lowest_terms":
        return in_lowest_terms(node, variables)
    if name == "single_fraction":
        return is_single_fraction(node)
    if name == "simplified":
        return is_simplified(node, variables)
    if name == "partial_fractions":
        return in_partial_fractions(node, variables)
    if name == "no_decimals":
        return not any(isinstance(n, Num) and written_with_decimals(n) for n in walk(node))
    if name == "rationalised":
        return is_rationalised(node)
    if name == "completed_square":
        return has_completed_square(node, variables)
    if name == "equal_com_ass":
        return key is not None and normalized_com_ass(node) == normalized_com_ass(key)
    if name == "as_written":
        return key is not None and node == key
    raise ValueError(f"unknown form '{name}'")


def usage_check(node: Node, *, required: Iterable[str] = (), forbidden: Iterable[str] = (),
                operators: Iterable[str] = ()) -> str | None:
    """A message when the answer uses a forbidden function or operator, or misses a required
    function (canonical names: ``factorial`` for ``!``, ``abs`` for ``|x|``); else None."""
    used = {n.func for n in walk(node) if isinstance(n, Call)}
    if any(isinstance(n, Abs) for n in walk(node)):
        used.add("abs")
    for name in forbidden:
        if name in used:
            return f"This answer may not use {name}."
    for name in required:
        if name not in used:
            return f"This answer must use {name}."
    ops = _operators_used(node)
    for op in operators:
        if op in ops:
            return f"This answer may not use the operator {op}."
    return None


def _operators_used(node: Node) -> set[str]:
    ops: set[str] = set()
    for n in walk(node):
        if isinstance(n, BinOp):
            ops.add(n.op)
        elif isinstance(n, Neg):
            ops.add("-")
        elif isinstance(n, Pow):
            ops.add("^")
        elif isinstance(n, Call) and n.func == "factorial":
            ops.add("!")
    return ops


# --------------------------------------------------------------------------- EqualComAss


def normalized_com_ass(node: Node) -> object:
    """A value equal for trees that differ only by commutativity and associativity of ``+``
    and ``*`` with their inverses, as STACK's EqualComAss reads them: subtraction adds the
    negation and division multiplies by the reciprocal, so ``(a*b)/c`` is ``a*(b/c)``; a
    negation is a factor -1, so ``x*(-y)`` is ``-(x*y)`` and ``(-x)/y`` is ``-(x/y)``, but
    ``x/(-y)`` is not (the reciprocal of a negation stays one) and ``(-x)*(-x)`` is not
    ``x*x`` (negations are counted, never cancelled); ``exp(x)`` is ``e^x``."""
    if isinstance(node, BinOp) and node.op in "+-":
        terms = []
        for sign, term in signed_terms(node):
            value = normalized_com_ass(term)
            terms.append(("neg", value) if sign < 0 else value)
        return ("+", tuple(sorted(terms, key=repr)))
    if isinstance(node, Neg) or (isinstance(node, BinOp) and node.op in "*/"):
        negations = 0
        factors: list[object] = []
        stack: list[Node] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, Neg):
                negations += 1
                stack.append(current.operand)
            elif isinstance(current, BinOp) and current.op == "*":
                stack += [current.left, current.right]
            elif isinstance(current, BinOp) and current.op == "/":
                stack.append(current.left)
                factors.append(("recip", normalized_com_ass(current.right)))
            else:
                factors.append(normalized_com_ass(current))
        product: object = factors[0] if len(factors) == 1 else \
            ("*", tuple(sorted(factors, key=repr)))
        for _ in range(negations):
            product = ("neg", product)
        return product
    if isinstance(node, BinOp):
        return (node.op, normalized_com_ass(node.left), normalized_com_ass(node.right))
    if isinstance(node, Pow):
        return ("^", normalized_com_ass(node.base), normalized_com_ass(node.exponent))
    if isinstance(node, Abs):
        return ("abs", normalized_com_ass(node.operand))
    if isinstance(node, Call) and node.func == "exp" and len(node.args) == 1:
        return ("^", ("Const", "e"), normalized_com_ass(node.args[0]))
    if isinstance(node, Call):
        return ("call", node.func, tuple(normalized_com_ass(a) for a in node.args))
    if isinstance(node, Num):
        return ("num", node.value)
    if isinstance(node, Var | Const):
        return (type(node).__name__, node.name)
    return repr(node)
