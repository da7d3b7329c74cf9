"""One verdict writer: no module but grading/verdicts.py writes a submission's verdict fields.

A contract over the whole project, derived from the installed apps (tests/grading/
verdict_write_scan.py): every module of every project app and every project module they
import is read, and each way of writing those fields is flagged, the project's own row
builders included. The scanner is tested on snippets, so the test can fail.
"""

import ast
from pathlib import Path

import pytest

from tests.grading.verdict_write_scan import (
    ROOT,
    Scan,
    in_project,
    module_name,
    project_modules,
    project_scan,
)

#: The writer, and the demo's bulk loader (it writes graded answers in bulk, then rebuilds
#: the progress rows from them: a seed, not a verdict change).
ALLOWED = frozenset({"grading/verdicts.py", "demo/bulk.py"})


def test_only_the_verdict_writer_writes_verdict_fields() -> None:
    offenders = project_scan(ALLOWED).offenders()
    assert offenders == {}, ("write verdicts through grading.verdicts.verdict_record: "
                             f"{offenders}")


def test_the_scan_reads_every_installed_app_and_the_helpers_they_import() -> None:
    from django.apps import apps

    scanned = {p.relative_to(ROOT).as_posix() for p in project_modules()}
    project_apps = {Path(c.path).resolve().relative_to(ROOT).as_posix()
                    for c in apps.get_app_configs() if in_project(Path(c.path).resolve())}
    assert {"live", "grading", "labs", "demo"} <= project_apps
    assert all(any(s.startswith(f"{app}/") for s in scanned) for app in project_apps)
    assert "core/sql.py" in scanned  # not an app: reached through the apps' imports
    assert not any(s.startswith("tests/") or "/migrations/" in s for s in scanned)


def test_the_projects_row_builders_are_found_as_writers() -> None:
    """Every function of the scanned code that writes rows of a model or instance it is
    given through SQL built from its `_meta` is a writer, classified as updating or
    inserting by its statement (the row builders of core/sql.py, while they exist)."""
    scan = project_scan(ALLOWED)
    builders = 0
    for path, tree in scan.trees.items():
        if path in ALLOWED:
            continue
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            text = ast.unparse(node)
            params = {arg.arg for arg in node.args.args}
            given = any(isinstance(n, ast.Attribute) and n.attr == "_meta"
                        and _names_in(n.value) & params for n in ast.walk(node))
            if given and ".execute" in text and ("UPDATE " in text or "INSERT " in text):
                writer = scan.writers.get((module_name(path), node.name))
                assert writer is not None, f"{path}: {node.name} is not found as a writer"
                assert writer.updates == ("UPDATE " in text), f"{path}: {node.name}"
                builders += 1
    assert builders >= 1
    # The progress rows' bulk writer, wherever grading keeps it.
    assert any(module.startswith("grading.") and writer.updates
               for (module, _), writer in scan.writers.items())


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


#: A helper module of some app: generic writers, as a project grows them, and how a caller
#: imports them.
HELPERS = '''
def stamp(model, pk, values):
    opts = model._meta
    sql = f"UPDATE {opts.db_table} SET x = %s WHERE id = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [values, pk])

def put(instance, fields):
    return stamp(type(instance), instance.pk, {f: getattr(instance, f) for f in fields})

def add_all(model, rows):
    model.objects.bulk_create(rows)

def keep(row, fields):
    row.save(update_fields=fields)
'''
IMPORTS = "from app.helpers import add_all, keep, put, stamp\nfrom app import helpers\n"


def _scanned(snippet: str) -> tuple[Scan, list[str]]:
    caller = IMPORTS + snippet
    scan = Scan({"app/helpers.py": HELPERS, "app/caller.py": caller})
    return scan, scan.violations(caller, "app/caller.py")


@pytest.mark.parametrize("snippet", [
    "Submission.objects.filter(pk=1).update(outcome='correct')",
    "submission.score = 1.0",
    "s.outcome = 'incorrect'",
    "self.submission.counts_as_attempt = False",
    "submission.save(update_fields=['feedback', 'graded_at'])",
    "run.submission.graded_at = now",
    "Submission.objects.create(student=s, outcome=Submission.Outcome.CORRECT, score=1)",
    "Submission(student=s, outcome=Submission.Outcome.CORRECT, score=1)",
    "cursor.execute('UPDATE grading_submission SET score = 1')",
    "sql = 'update  \"grading_submission\" set outcome = %s'",
    "queryset.submissions.update(misconception='')",
    "Submission.objects.filter(pk=1).update(feedback='Reviewed.')",
    # Through the project's own row builders (defined in HELPERS).
    "stamp(Submission, submission.pk, {'score': 1.0})",
    "stamp(Submission, pk, values)",
    "put(submission, ['outcome', 'score'])",
    "put(submission, fields)",
    "keep(submission, ['graded_at'])",
    "helpers.put(instance=submission, fields=['feedback'])",
])
def test_the_scan_flags_each_way_of_writing_a_verdict(snippet: str) -> None:
    scan, found = _scanned(snippet)
    assert found
    assert list(scan.offenders()) == ["app/caller.py"]


@pytest.mark.parametrize("snippet", [
    "Submission.objects.create(student=s, raw_answer=r, outcome=Submission.Outcome.PENDING)",
    "Submission(student=s, raw_answer=r, outcome=Submission.Outcome.PENDING)",
    "review.score = 0.5",
    "override = GradeOverride.objects.create(score=0.4)",
    "Submission.objects.filter(pk=1).update(raw_answer='')",
    "Submission.objects.filter(student=u).update(raw_answer='', canonical='', feedback='')",
    "LabRun.objects.filter(pk=1).update(status='failed')",
    "cursor.execute('SELECT score FROM grading_submission')",
    # Row builders writing other rows, or only inserting a submission built pending.
    "put(row, ['attempts', 'pending'])",
    "stamp(PartProgress, row.pk, values)",
    "put(submission, ['raw_answer'])",
    "add_all(Submission, [Submission(outcome=Submission.Outcome.PENDING)])",
    "progress_refresh(course_id=submission.course_id, row=row)",
])
def test_the_scan_leaves_other_writes_alone(snippet: str) -> None:
    scan, found = _scanned(snippet)
    assert found == []
    assert scan.offenders() == {}


def test_the_allowed_modules_writers_are_the_sanctioned_way() -> None:
    writer = "def verdict_record(submission, verdict):\n    submission.save()\n"
    caller = "from grading.verdicts import verdict_record\nverdict_record(submission, v)\n"
    scan = Scan({"grading/verdicts.py": writer, "app/caller.py": caller}, {"grading/verdicts.py"})
    assert scan.writers == {}
    assert scan.offenders() == {}
