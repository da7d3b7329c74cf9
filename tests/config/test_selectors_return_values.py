"""Selectors return values, None or a NotFound, and the interface (view, API, consumer)
decides on the 404 (issue 39, item 4): no selectors module of these apps names Http404.

The selectors modules are each app's `selectors.py` and the read modules that play that part
under another name.
Docstrings do not count: the names are read from the code's syntax tree."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ["student", "labs", "live", "instructor", "courses", "exams"]
#: read modules named for what they read rather than `selectors.py`
OTHER_SELECTORS = ["student/module_page.py", "instructor/statistics.py", "instructor/students.py",
                   "exams/staff_selectors.py", "exams/start_reads.py"]


def selectors_modules(root: Path) -> list[Path]:
    """Each app's `selectors.py` (module or package) and `OTHER_SELECTORS`, as they exist."""
    found = [root / app / "selectors.py" for app in APPS if (root / app / "selectors.py").exists()]
    for app in APPS:
        package = root / app / "selectors"
        if package.is_dir():
            found.extend(sorted(package.rglob("*.py")))
    return found + [root / name for name in OTHER_SELECTORS]


def names_http404(path: Path) -> bool:
    """Whether the module imports, raises or otherwise names Http404 in its code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and any(a.name == "Http404" for a in node.names):
            return True
        if isinstance(node, ast.Name) and node.id == "Http404":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Http404":
            return True
    return False


def test_no_selectors_module_raises_http404():
    modules = selectors_modules(ROOT)
    assert len(modules) >= 5  # student, labs, live, and the two read modules
    offenders = [p.relative_to(ROOT).as_posix() for p in modules if names_http404(p)]
    assert offenders == [], f"selectors deciding on 404 (return None or a NotFound): {offenders}"


def test_the_scan_finds_http404_in_code_and_not_in_docstrings(tmp_path):
    raising = tmp_path / "raising.py"
    raising.write_text("from django.http import Http404\n\ndef f():\n    raise Http404('x')\n")
    dotted = tmp_path / "dotted.py"
    dotted.write_text("import django.http\n\ndef f():\n    raise django.http.Http404\n")
    told = tmp_path / "told.py"
    told.write_text('def f():\n    """Http404 is the view\'s to raise."""\n    return None\n')
    assert names_http404(raising) and names_http404(dotted) and not names_http404(told)
