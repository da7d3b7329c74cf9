"""Student text never reaches a string evaluator: the checkers' source is scanned for calls
that turn a string into code or a sympy expression, and the checkers import no Django."""

import ast
from pathlib import Path

import pytest

import grading.checkers

CHECKERS_ROOT = Path(grading.checkers.__file__).parent
SOURCES = sorted(CHECKERS_ROOT.rglob("*.py"))
#: Calls that evaluate or parse a string as code or as a sympy expression.
FORBIDDEN_CALLS = {"eval", "exec", "compile", "sympify", "parse_expr", "S", "__import__",
                   "literal_eval", "parse_latex", "parse_mathematica", "lambdify", "Rational"}
FORBIDDEN_MODULES = ("sympy.parsing", "pickle", "marshal", "shelve", "django")


def _called_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        if isinstance(node.func.value, ast.Name) and node.func.value.id in ("re", "re2"):
            return None  # re.compile / re2.compile build a regular expression, not code
        return node.func.attr
    return None


def _rational_from_numbers(node: ast.Call) -> bool:
    """sympy.Rational(p, q) with two arguments is built from integers, never parsed."""
    return len(node.args) == 2 and not node.keywords


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(CHECKERS_ROOT)))
def test_no_string_evaluator_is_called_in_the_checkers(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called_name(node)
            if name == "Rational" and _rational_from_numbers(node):
                continue
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}()"
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""]
            for module in modules:
                assert not module.startswith(FORBIDDEN_MODULES), \
                    f"{path.name}:{node.lineno} imports {module}"


def test_the_scan_sees_every_checker_module():
    names = {p.name for p in SOURCES}
    assert {"numeric.py", "symbolic.py", "sympy_helper.py", "parser.py", "precise.py"} <= names
