"""Hand-written SQL lives in one module per app (`<app>/sql.py`), nowhere else.

The scan reads every module of the project (not tests, not migrations) and flags each way
Django code runs SQL of its own: a cursor opened or executed, `QuerySet.raw`/`extra`,
`RawSQL`, and an f-string that builds a statement. Allowed besides each app's `sql.py`:
the load test's bare baseline view (its own table, outside the models) and `backups/`
(an operator's tool that dumps and restores the database itself). The scanner itself is
tested on snippets, so the test can fail.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted(p.name for p in ROOT.iterdir()
              if (p / "__init__.py").exists() and p.name not in ("tests",))
ALLOWED = {f"{app}/sql.py" for app in APPS} | {"config/load_baseline.py"}
ALLOWED_APPS = {"backups"}
STATEMENT = re.compile(r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b",
                       re.DOTALL)
CURSOR_CALLS = {"execute", "executemany", "fetchone", "fetchall", "fetchmany"}


def violations(source: str) -> list[str]:
    """Where `source` runs SQL of its own (line: what)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            receiver = ast.unparse(func.value).lower() if isinstance(func, ast.Attribute) else ""
            if (name in CURSOR_CALLS and isinstance(func, ast.Attribute)) or name == "RawSQL" or (
                    name in ("cursor", "chunked_cursor") and "connection" in receiver) or (
                    name in ("raw", "extra") and ("objects" in receiver or "queryset" in receiver)
                    ) or (name == "copy" and "cursor" in receiver):
                found.append(f"{node.lineno}: {name}()")
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(part.value) if isinstance(part, ast.Constant) else "{}"
                           for part in node.values)
            if STATEMENT.search(" ".join(text.split()) + " x"):
                found.append(f"{node.lineno}: f-string SQL")
    return found


def _modules() -> list[Path]:
    return [path for app in APPS if app not in ALLOWED_APPS
            for path in sorted((ROOT / app).rglob("*.py")) if "migrations" not in path.parts]


def test_sql_is_written_only_in_each_apps_sql_module() -> None:
    offenders = {}
    for path in _modules():
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED:
            continue
        found = violations(path.read_text())
        if found:
            offenders[relative] = found
    assert offenders == {}, f"move hand-written SQL into the app's sql.py: {offenders}"


def test_every_app_sql_module_has_its_test() -> None:
    for app in APPS:
        if (ROOT / app / "sql.py").exists():
            assert (ROOT / "tests" / app).is_dir(), app
            tests = " ".join(p.read_text() for p in (ROOT / "tests" / app).rglob("test_*.py"))
            assert f"from {app}.sql import" in tests, f"{app}/sql.py has no test"


@pytest.mark.parametrize("snippet", [
    "with connection.cursor() as cursor:\n    pass",
    "cursor.execute('SELECT 1')",
    "c.executemany(sql, rows)",
    "connections[db].chunked_cursor()",
    "Part.objects.raw('SELECT * FROM courses_part')",
    "queryset.extra(where=['1'])",
    "Course.objects.annotate(n=RawSQL('1', []))",
    'sql = f"SELECT {columns} FROM {table} WHERE id = %s"',
    'sql = f"UPDATE {table} SET a = 1"',
    'sql = (f"INSERT INTO {table} "\n       f"VALUES (%s)")',
    "cursor.cursor.copy(statement)",
])
def test_the_scan_flags_each_way_of_running_sql(snippet: str) -> None:
    assert violations(snippet)


@pytest.mark.parametrize("snippet", [
    "Part.objects.filter(pk=1).update(order=2)",
    "values = params.copy()",
    'message = f"Select {n} parts from the list"',
    "rows = queryset.values_list('id')",
    'label = f"{title} (updated)"',
])
def test_the_scan_leaves_the_orm_and_plain_text_alone(snippet: str) -> None:
    assert not violations(snippet)
