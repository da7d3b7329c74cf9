"""The rules of the required forms (``forms.py`` lists them and says what each one means),
each a predicate on our own tree: ``is_expanded``, ``is_factored``, ``in_lowest_terms``,
``is_single_fraction``, ``is_simplified``, ``in_partial_fractions``, ``is_rationalised``,
``has_completed_square``, and ``written_with_decimals`` for a number literal. A predicate
never decides equality: it is asked about an answer already equal to the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grading.checkers.mathparse import Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.exact import exact_value
from grading.checkers.mathparse.nodes import children, walk
from grading.checkers.mathparse.render import to_text
from grading.checkers.polynomials import (
    Poly,
    atomised,
    degree,
    is_constant,
    is_irreducible,
    polynomial_of,
    primitive_integer,
)

__all__ = [
    "has_completed_square",
    "in_lowest_terms",
    "in_partial_fractions",
    "is_expanded",
    "is_factored",
    "is_rationalised",
    "is_simplified",
    "is_single_fraction",
    "signed_terms",
    "written_with_decimals",
]


# --------------------------------------------------------------------------- tree helpers


def written_with_decimals(num: Num) -> bool:
    return "." in num.text or "e" in num.text.lower()


def _has_variable(node: Node, variables: Sequence[str]) -> bool:
    return any(isinstance(n, Var) and n.name in variables for n in walk(node))


def signed_terms(node: Node) -> list[tuple[int, Node]]:
    """The signed terms of a sum: ``a - b + c`` -> [(1, a), (-1, b), (1, c)]."""
    out: list[tuple[int, Node]] = []
    stack: list[tuple[int, Node]] = [(1, node)]
    while stack:
        sign, current = stack.pop()
        if isinstance(current, BinOp) and current.op in "+-":
            stack.append((sign if current.op == "+" else -sign, current.right))
            stack.append((sign, current.left))
        elif isinstance(current, Neg):
            stack.append((-sign, current.operand))
        else:
            out.append((sign, current))
    return out


def _factors(node: Node) -> tuple[list[Node], list[Node]]:
    """Numerator and denominator factors of a product/quotient (signs dropped)."""
    num: list[Node] = []
    den: list[Node] = []
    stack: list[tuple[bool, Node]] = [(False, node)]
    while stack:
        below, current = stack.pop()
        if isinstance(current, BinOp) and current.op == "*":
            stack += [(below, current.right), (below, current.left)]
        elif isinstance(current, BinOp) and current.op == "/":
            stack += [(not below, current.right), (below, current.left)]
        elif isinstance(current, Neg):
            stack.append((below, current.operand))
        else:
            (den if below else num).append(current)
    return num, den


def _is_sum(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op in "+-"


def _small_integer(node: Node) -> int | None:
    if isinstance(node, Num) and node.value.denominator == 1:
        return int(node.value)
    if isinstance(node, Neg) and isinstance(node.operand, Num) \
            and node.operand.value.denominator == 1:
        return -int(node.operand.value)
    return None


# --------------------------------------------------------------------------- the forms


def _unexpanded_sum(node: Node, variables: Sequence[str]) -> bool:
    """A sum that expanding would distribute: one with a variable, or of numbers that is not
    one rational number (``1 + sqrt(5)``; ``3 + 1`` is just 4)."""
    return _is_sum(node) and (_has_variable(node, variables) or exact_value(node) is None)


def is_expanded(node: Node, variables: Sequence[str]) -> bool:
    """No product or positive power of a sum containing a variable (or of numbers with an
    irrational part, as STACK's Expanded: ``(1+sqrt(5))(1-sqrt(3))`` is not expanded),
    anywhere in a numerator (function arguments included)."""
    for _, term in signed_terms(node):
        numerators, denominators = _factors(term)
        for factor in numerators:
            if _unexpanded_sum(factor, variables):
                return False
            if isinstance(factor, Pow):
                exponent = _small_integer(factor.exponent)
                if exponent is not None and exponent > 1 \
                        and _unexpanded_sum(factor.base, variables):
                    return False
        for factor in numerators + denominators:
            for sub in _inner_arguments(factor):
                if not is_expanded(sub, variables):
                    return False
        for factor in denominators:
            if _is_sum(factor) and not is_expanded(factor, variables):
                return False
    return True


def _inner_arguments(node: Node) -> list[Node]:
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Abs):
        return [node.operand]
    if isinstance(node, Pow):
        return [node.exponent] if not isinstance(node.exponent, Num) else []
    return []


def _split_power(node: Node) -> tuple[Node, int]:
    if isinstance(node, Pow):
        exponent = _small_integer(node.exponent)
        if exponent is not None and exponent >= 1:
            return node.base, exponent
    return node, 1


def is_factored(node: Node, variables: Sequence[str], *, integers: bool) -> bool:
    """A number times irreducible polynomial factors (primitive with integer coefficients
    when ``integers``); non-polynomial factors are left alone."""
    node, variables = atomised(node, variables)  # factored "in" sin(x) as in x
    numerators, denominators = _factors(node)
    for factor in numerators + denominators:
        base, _ = _split_power(factor)
        if not _has_variable(base, variables):
            continue
        poly = polynomial_of(base, variables)
        if poly is None:
            if _is_sum(base):
                return False  # a sum we cannot read as a polynomial is not factored
            continue
        if is_constant(poly):
            continue
        if integers and not primitive_integer(poly):
            return False
        if not is_irreducible(poly):
            return False
    return True


def _quotient(node: Node) -> tuple[list[Node], list[Node]]:
    return _factors(node)


def in_lowest_terms(node: Node, variables: Sequence[str]) -> bool:
    """Every integer fraction reduced; a polynomial quotient without a common factor."""
    for sub in walk(node):
        if isinstance(sub, BinOp) and sub.op == "/":
            a, b = _small_integer(sub.left), _small_integer(sub.right)
            if a is not None and b is not None and (b in (0, 1, -1) or
                                                    Fraction(a, b).denominator != abs(b)):
                return False
    if isinstance(node, BinOp) and node.op == "/" and _has_variable(node, variables):
        top = polynomial_of(node.left, variables)
        bottom = polynomial_of(node.right, variables)
        if top is not None and bottom is not None and not is_constant(bottom):
            return _coprime(top, bottom, variables)
    return True


def _coprime(a: Poly, b: Poly, variables: Sequence[str]) -> bool:
    import sympy  # built from our coefficients, never from student text

    symbols = sympy.symbols(f"v0:{len(variables)}")

    def build(poly: Poly) -> sympy.Expr:
        return sum((sympy.Rational(v.numerator, v.denominator)
                    * sympy.Mul(*(s**e for s, e in zip(symbols, k, strict=True)))
                    for k, v in poly.items()), sympy.Integer(0))

    common = sympy.gcd(build(a), build(b))
    return not bool(getattr(common, "free_symbols", set()))


def is_single_fraction(node: Node) -> bool:
    """At most one division, at the top (under a sign), over division-free parts."""
    core = node.operand if isinstance(node, Neg) else node
    parts = [core.left, core.right] if isinstance(core, BinOp) and core.op == "/" else [core]
    for part in parts:
        stack = [part]
        while stack:
            sub = stack.pop()
            if isinstance(sub, BinOp) and sub.op == "/":
                return False
            if isinstance(sub, Pow) and (_small_integer(sub.exponent) or 0) < 0:
                return False
            if isinstance(sub, Pow) and exact_value(sub.exponent) is not None:
                stack.append(sub.base)  # a number as exponent (5^(3/2)) is no fraction
                continue
            stack.extend(children(sub))
    return True


def _numeric(node: Node, variables: Sequence[str]) -> bool:
    return not any(isinstance(n, Var) for n in walk(node))


def _plain_number(node: Node) -> bool:
    """A number as a simplified answer may write it: n, -n, a/b reduced, a surd, pi, e,
    or a product of a number and such constants."""
    if isinstance(node, Num | Const):
        return True
    if isinstance(node, Neg):
        return _plain_number(node.operand)
    if isinstance(node, BinOp) and node.op == "/":
        a, b = _small_integer(node.left), _small_integer(node.right)
        if a is not None and b is not None:
            return b not in (0, 1, -1) and Fraction(a, b).denominator == abs(b)
        return _plain_number(node.left) and _plain_number(node.right) and \
            not (isinstance(node.left, Num) and isinstance(node.right, Num))
    if isinstance(node, BinOp) and node.op == "*":
        return not (isinstance(node.left, Num) and isinstance(node.right, Num)) and \
            _plain_number(node.left) and _plain_number(node.right)
    if isinstance(node, Call) and node.func in ("sqrt", "cbrt", "root", "log", "ln", "exp"):
        return all(isinstance(a, Num) or _plain_number(a) for a in node.args)
    if isinstance(node, Pow):
        exponent = node.exponent
        fractional = (isinstance(exponent, BinOp) and exponent.op == "/") or (
            isinstance(exponent, Num) and exponent.value.denominator != 1)
        return isinstance(node.base, Num | Const) and (fractional or isinstance(node.base, Const))
    return False


def _monomial_key(term: Node, variables: Sequence[str]) -> tuple[str, ...]:
    """The non-numeric factors of a term, as sorted texts (like terms share it)."""
    numerators, denominators = _factors(term)
    keys = sorted(to_text(f) for f in numerators if not _numeric(f, variables))
    keys += sorted("/" + to_text(f) for f in denominators if not _numeric(f, variables))
    return tuple(keys)


def is_simplified(node: Node, variables: Sequence[str]) -> bool:
    """See the module docstring: no arithmetic on numbers, no like terms or repeated
    factors, no neutral elements, fractions in lowest terms."""
    if not in_lowest_terms(node, variables):
        return False
    for sub in walk(node):
        if _numeric(sub, variables) and not _plain_number(sub) and \
                not isinstance(sub, Call | Abs):
            return False
        if isinstance(sub, Neg) and isinstance(sub.operand, Neg):
            return False
        if isinstance(sub, Pow) and _small_integer(sub.exponent) in (0, 1):
            return False
        if isinstance(sub, BinOp) and sub.op in "*/" and (
                _small_integer(sub.right) == 1 or
                (sub.op == "*" and _small_integer(sub.left) == 1)):
            return False
        if isinstance(sub, BinOp) and sub.op in "+-" and (
                _small_integer(sub.right) == 0 or _small_integer(sub.left) == 0):
            return False
    for sub in walk(node):
        if _is_sum(sub) and sub is _sum_root(node, sub):
            keys = [_monomial_key(t, variables) for _, t in signed_terms(sub)]
            if len(keys) != len(set(keys)):
                return False
        if isinstance(sub, BinOp) and sub.op == "*":
            numerators, _ = _factors(sub)
            bases = [to_text(_split_power(f)[0]) for f in numerators
                     if not _numeric(f, variables)]
            if len(bases) != len(set(bases)):
                return False
            if sum(1 for f in numerators if isinstance(f, Num)) > 1:
                return False
    return True


def _sum_root(root: Node, target: Node) -> Node | None:
    """``target`` when it is the top of its sum (not a sub-sum of a larger one)."""
    stack = [(root, False)]
    while stack:
        current, parent_is_sum = stack.pop()
        if current is target:
            return None if parent_is_sum else target
        for child in children(current):
            stack.append((child, _is_sum(current) or (
                isinstance(current, Neg) and parent_is_sum)))
    return None


def _without_constant_factor(node: Node, variables: Sequence[str]) -> Node:
    """``3*(a + b)``, ``(a + b)/2``, ``-(a + b)``: the part that is not a number."""
    while True:
        if isinstance(node, Neg):
            node = node.operand
        elif isinstance(node, BinOp) and node.op == "*" \
                and not _has_variable(node.left, variables):
            node = node.right
        elif isinstance(node, BinOp) and node.op in "*/" \
                and not _has_variable(node.right, variables):
            node = node.left
        else:
            return node


def in_partial_fractions(node: Node, variables: Sequence[str]) -> bool:
    """A polynomial plus terms N/(c D^k) (D irreducible, deg N < deg D, c a number), each D^k
    once; the whole may be a number times such a sum (``3*(1/(x+1) + 1/(x+2))``)."""
    seen: set[str] = set()
    for _, term in signed_terms(_without_constant_factor(node, variables)):
        if polynomial_of(term, variables) is not None:
            continue
        core = term.operand if isinstance(term, Neg) else term
        if not (isinstance(core, BinOp) and core.op == "/"):
            return False
        top = polynomial_of(core.left, variables)
        base, power = _split_power(_without_constant_factor(core.right, variables))
        bottom = polynomial_of(base, variables)
        if top is None or bottom is None or is_constant(bottom):
            return False
        if not is_irreducible(bottom) or degree(top) >= degree(bottom):
            return False
        key = f"{to_text(base)}^{power}"
        if key in seen:
            return False
        seen.add(key)
    return True


def _root_like(node: Node) -> bool:
    if isinstance(node, Call) and node.func in ("sqrt", "cbrt", "root"):
        return True
    if isinstance(node, Pow):
        exponent = node.exponent
        if isinstance(exponent, Num) and exponent.value.denominator != 1:
            return True
        if isinstance(exponent, BinOp) and exponent.op == "/":
            return True
    return False


def _negative(node: Node) -> bool:
    if isinstance(node, BinOp) and node.op in "*/":
        return _negative(node.left) != _negative(node.right)
    return isinstance(node, Neg) or (isinstance(node, Num) and node.value < 0)


def _fractional(node: Node) -> bool:
    core = node.operand if isinstance(node, Neg) else node
    if isinstance(core, Num):
        return core.value.denominator != 1
    return isinstance(core, BinOp) and core.op == "/"


def is_rationalised(node: Node) -> bool:
    """No root in any denominator."""
    for sub in walk(node):
        denominators: list[Node] = []
        if isinstance(sub, BinOp) and sub.op == "/":
            denominators.append(sub.right)
        if isinstance(sub, Pow) and _negative(sub.exponent):
            denominators.append(sub.base)
            if _fractional(sub.exponent):
                return False  # x^(-1/2) is 1/sqrt(x)
        for den in denominators:
            if any(_root_like(n) for n in walk(den)):
                return False
    return True


def has_completed_square(node: Node, variables: Sequence[str]) -> bool:
    """Each variable that occurs occurs exactly once, inside a square."""
    counts: dict[str, int] = {}
    for sub in walk(node):
        if isinstance(sub, Var) and sub.name in variables:
            counts[sub.name] = counts.get(sub.name, 0) + 1
    if not counts:
        return True  # a constant: there is no square to complete (the key may be one)
    if any(c != 1 for c in counts.values()):
        return False
    return any(isinstance(sub, Pow) and _small_integer(sub.exponent) == 2
               and _has_variable(sub.base, variables) for sub in walk(node))
