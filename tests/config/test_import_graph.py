"""No import cycle in the project, imports inside functions included (issue 39, item 4).

grimp (what import-linter reads) records the imports inside functions too, so a cycle
"broken" by moving one import into a function is still a cycle here. The import contract
`acyclic_siblings` in pyproject.toml checks the same at the level of packages; this test
names the modules of each cycle."""

import sys
import tomllib
from collections.abc import Collection
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def import_cycles(graph: grimp.ImportGraph, packages: set[str],
                  ignored: Collection[tuple[str, str]] = ()) -> list[list[str]]:
    """Each set of modules of `packages` that import each other in a ring (a strongly
    connected component of more than one module), sorted; `ignored` edges left out."""
    def imported(module: str) -> list[str]:
        return sorted(m for m in graph.find_modules_directly_imported_by(module)
                      if m.split(".")[0] in packages and (module, m) not in ignored)

    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(m for m in graph.modules if m.split(".")[0] in packages):
        if start in order:
            continue
        # Tarjan's algorithm, iteratively (the graph is deep enough for recursion limits).
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(imported(start)))]
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(imported(child))))
                elif child in on_stack:
                    low[module] = min(low[module], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == order[module]:
                ring = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.append(member)
                    if member == module:
                        break
                if len(ring) > 1:
                    found.append(sorted(ring))
    return sorted(found)


def _root_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(config["tool"]["importlinter"]["root_packages"])


def test_the_project_has_no_import_cycle_even_through_imports_inside_functions() -> None:
    packages = _root_packages()
    graph = grimp.build_graph(*sorted(packages), cache_dir=None)
    cycles = import_cycles(graph, packages)
    assert cycles == [], "modules importing each other (move the shared code down): " + "; ".join(
        " <-> ".join(ring) for ring in cycles)


def test_an_import_inside_a_function_that_closes_a_cycle_is_found(tmp_path, monkeypatch) -> None:
    package = tmp_path / "ringpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from ringpkg.second import b\n\ndef a():\n    return b()\n")
    (package / "second.py").write_text(
        "def b():\n    from ringpkg.first import a  # hidden in a function\n    return a\n")
    (package / "third.py").write_text("from ringpkg.first import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("ringpkg", cache_dir=None)
    assert import_cycles(graph, {"ringpkg"}) == [["ringpkg.first", "ringpkg.second"]]
    assert import_cycles(graph, {"ringpkg"},
                         ignored={("ringpkg.second", "ringpkg.first")}) == []
    sys.modules.pop("ringpkg", None)


def test_the_acyclic_import_contract_covers_every_app() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    acyclic = [c for c in config["contracts"] if c["type"] == "acyclic_siblings"]
    assert len(acyclic) == 1
    assert set(acyclic[0]["ancestors"]) == set(config["root_packages"])
