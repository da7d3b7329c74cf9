"""No module of the service over 500 lines (issue 39, item 4): a module holds one concept, and
one that outgrows that is split by concept, not trimmed.

The apps are the import contracts' root packages; migrations (written by makemigrations)
and tests (each mirrors one module, and long tables of cases read best in one place) are
not counted."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500


def _apps() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["root_packages"]


def modules_over(limit: int, root: Path, apps: list[str]) -> dict[str, int]:
    """{path relative to `root`: lines} of each module of `apps` longer than `limit` lines,
    migrations left out."""
    found = {}
    for app in apps:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.relative_to(root).parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > limit:
                found[path.relative_to(root).as_posix()] = lines
    return found


def test_no_module_of_the_service_is_over_500_lines() -> None:
    over = modules_over(MAX_LINES, ROOT, _apps())
    assert over == {}, f"split these by concept (at most {MAX_LINES} lines each): {over}"


def test_a_long_module_is_found_and_a_migration_is_not(tmp_path: Path) -> None:
    (tmp_path / "app" / "migrations").mkdir(parents=True)
    (tmp_path / "app" / "long.py").write_text("x = 1\n" * 501)
    (tmp_path / "app" / "short.py").write_text("x = 1\n" * 500)
    (tmp_path / "app" / "migrations" / "0001_initial.py").write_text("x = 1\n" * 900)
    assert modules_over(MAX_LINES, tmp_path, ["app"]) == {"app/long.py": 501}
