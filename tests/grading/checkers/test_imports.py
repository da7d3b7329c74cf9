"""The checkers' own imports: all at the top of their module, and no cycle among them.

An import inside a function hides a cycle from the import contracts (it runs only when
called); a helper two modules share belongs in a module of its own instead.
"""

import ast
from pathlib import Path

import pytest

import grading.checkers

ROOT = Path(grading.checkers.__file__).parent
PACKAGE = "grading.checkers"
SOURCES = sorted(ROOT.rglob("*.py"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join((PACKAGE, *parts)).removesuffix(".__init__")


MODULES = {_module_name(path): path for path in SOURCES}


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The checkers modules an import statement names (a package's submodule when it names one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in MODULES]
    base = node.module or ""
    if not base.startswith(PACKAGE):
        return []
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
            for alias in node.names]


def _imports(path: Path) -> tuple[set[str], list[int]]:
    """The checkers modules ``path`` imports, and the lines of those imported in a body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    names: set[str] = set()
    hidden = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found = _imported(node)
            names.update(found)
            if found and id(node) not in top:
                hidden.append(node.lineno)
    return names - {_module_name(path)}, hidden


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_checkers_module_imports_the_others_at_its_top(path):
    assert _imports(path)[1] == []


def test_the_checkers_import_no_module_that_imports_them_back():
    graph = {name: _imports(path)[0] for name, path in MODULES.items()}
    cycles = []
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycles.append([*trail[trail.index(target):], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_scan_sees_the_package_and_its_reader():
    assert {PACKAGE, f"{PACKAGE}.pipeline", f"{PACKAGE}.mathparse.parser"} <= set(MODULES)
