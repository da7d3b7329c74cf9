"""Safe reader for students' maths: text in, a small immutable tree out, never ``eval``.

Student text is never passed to ``eval``, ``sympify`` or ``parse_expr``. The reader accepts a
whitelisted grammar (numbers, the part's declared names, ``+ - * / ^ **``, brackets, ``|x|``,
``n!``, implicit multiplication, the functions of one registry table, Greek names, ``pi``,
``e`` and, where allowed, infinity) and builds nodes of its own. One module per seam:

* ``characters`` Unicode normalisation (NFKC, with positions kept) and character classes;
* ``tokenizer``  text to tokens;  ``parser`` tokens to a tree (``parse``), over ``cursor``
  (the place in the tokens); ``names`` declared names and how a run of letters is read;
* ``nodes``      the tree's node classes; ``expr`` ``Expr``, a tree with its text;
* ``functions``  the function registry (names, aliases, arity, every evaluator, LaTeX);
* ``limits``, ``bounds``  the size bounds and their enforcement;
* ``floats`` (``evaluate``), ``exact`` (``exact_value``), ``precise`` (``precise_evaluate``):
  float, exact-rational and high-precision evaluation;
* ``sympy_build`` (``to_sympy``) and ``render`` (``to_text``, ``to_latex``);
* ``wire``       the tree as plain data, for the isolated sympy helper process.

Every input is bounded in length, nesting depth, node count, exponent size and exact-number
size, so a pathological answer is refused quickly with a ``FormatError`` whose message says
what is wrong and where (1-based positions in the student's own characters).
"""

from grading.checkers.mathparse.bounds import check_sizes
from grading.checkers.mathparse.characters import GREEK_LETTERS, GREEK_NAMES
from grading.checkers.mathparse.errors import FormatError
from grading.checkers.mathparse.exact import exact_value
from grading.checkers.mathparse.expr import Expr
from grading.checkers.mathparse.floats import evaluate
from grading.checkers.mathparse.functions import (
    BUILTIN_FUNCTIONS,
    FUNCTIONS,
    LIST_FUNCTIONS,
    Function,
)
from grading.checkers.mathparse.limits import (
    MAX_DEPTH,
    MAX_EXACT_BITS,
    MAX_EXPONENT,
    MAX_LENGTH,
    MAX_LITERAL_EXPONENT,
    MAX_NODES,
    MAX_SYMBOLIC_EXPONENT,
)
from grading.checkers.mathparse.names import declared_functions, normalize_name
from grading.checkers.mathparse.nodes import CONSTANTS, Abs, BinOp, Call, Const, Neg, Node, Num, Pow, Var
from grading.checkers.mathparse.parser import INFINITY_NAMES, parse
from grading.checkers.mathparse.precise import precise_evaluate
from grading.checkers.mathparse.render import to_latex, to_text
from grading.checkers.mathparse.sympy_build import to_sympy

__all__ = [
    "BUILTIN_FUNCTIONS",
    "CONSTANTS",
    "FUNCTIONS",
    "GREEK_LETTERS",
    "GREEK_NAMES",
    "INFINITY_NAMES",
    "LIST_FUNCTIONS",
    "MAX_DEPTH",
    "MAX_EXACT_BITS",
    "MAX_EXPONENT",
    "MAX_LENGTH",
    "MAX_LITERAL_EXPONENT",
    "MAX_NODES",
    "MAX_SYMBOLIC_EXPONENT",
    "Abs",
    "BinOp",
    "Call",
    "Const",
    "Expr",
    "FormatError",
    "Function",
    "Neg",
    "Node",
    "Num",
    "Pow",
    "Var",
    "check_sizes",
    "declared_functions",
    "evaluate",
    "exact_value",
    "normalize_name",
    "parse",
    "precise_evaluate",
    "to_latex",
    "to_sympy",
    "to_text",
]
