"""One verdict writer: no module but grading/verdicts.py writes a submission's verdict fields.

The scan reads every module of the project (not tests, not migrations) and flags each way
Django code can write those fields: an `update(...)` or `create(...)` of submissions naming
one, an assignment to one on a submission object, a `save(update_fields=...)` listing one,
raw SQL updating the table. The scanner itself is tested on snippets, so the test can fail.
"""

import ast
from pathlib import Path

import pytest

from grading.verdicts import VERDICT_FIELDS

ROOT = Path(__file__).resolve().parents[2]
APPS = ("api", "backups", "config", "core", "courses", "demo", "events", "grading",
        "instructor", "labs", "lti", "ops", "privacy", "student")
#: The writer, and the demo's bulk loader (it writes graded answers in bulk, then rebuilds
#: the progress rows from them: a seed, not a verdict change).
ALLOWED = {"grading/verdicts.py", "demo/bulk.py"}
#: Fields whose names other models share: flagged only on an object named for a submission.
SHARED = {"score", "feedback", "misconception", "canonical"}
#: Text fields that erasure and retention empty (the verdict's outcome and score stay).
ERASABLE = {"canonical", "feedback", "answer_key"}


def _names_submission(node: ast.AST) -> bool:
    text = ast.unparse(node).lower()
    return "submission" in text


def violations(source: str) -> list[str]:
    """Where `source` writes a submission's verdict fields (line: what)."""
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, receiver = node.func.attr, node.func.value
            # Emptying the text fields is erasure (privacy), not a verdict: outcome and score stay.
            keywords = {k.arg for k in node.keywords if k.arg and not (
                k.arg in ERASABLE and isinstance(k.value, ast.Constant) and k.value.value == "")}
            if method in ("update", "create", "bulk_update", "update_or_create",
                          "get_or_create") and _names_submission(receiver):
                written = keywords & set(VERDICT_FIELDS)
                if method == "create":  # storing a new answer: only as pending, ungraded
                    written -= {"outcome"} if _pending(node) else set()
                if method == "bulk_update" and node.args[1:]:
                    written |= _listed(node.args[1]) & set(VERDICT_FIELDS)
                if written:
                    found.append(f"{node.lineno}: {method}({', '.join(sorted(written))})")
            if method == "save" and _names_submission(receiver):
                for k in node.keywords:
                    if k.arg == "update_fields" and _listed(k.value) & set(VERDICT_FIELDS):
                        found.append(f"{node.lineno}: save(update_fields=...)")
            if method == "execute" and any(
                    isinstance(a, ast.Constant) and isinstance(a.value, str)
                    and "update grading_submission" in a.value.lower() for a in node.args):
                found.append(f"{node.lineno}: raw UPDATE")
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (isinstance(target, ast.Attribute) and target.attr in VERDICT_FIELDS
                        and (target.attr not in SHARED or _names_submission(target.value))):
                    found.append(f"{node.lineno}: .{target.attr} =")
    return found


def _pending(call: ast.Call) -> bool:
    return any(k.arg == "outcome" and ast.unparse(k.value).endswith("PENDING")
               for k in call.keywords)


def _listed(node: ast.AST) -> set[str]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant)
                and isinstance(e.value, str)}
    return set()


def _modules() -> list[Path]:
    paths = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                paths.append(path)
    return paths


def test_only_the_verdict_writer_writes_verdict_fields() -> None:
    offenders = {}
    for path in _modules():
        relative = path.relative_to(ROOT).as_posix()
        if relative in ALLOWED:
            continue
        found = violations(path.read_text())
        if found:
            offenders[relative] = found
    assert offenders == {}, ("write verdicts through grading.verdicts.verdict_record: "
                             f"{offenders}")


@pytest.mark.parametrize("snippet", [
    "Submission.objects.filter(pk=1).update(outcome='correct')",
    "submission.score = 1.0",
    "s.outcome = 'incorrect'",
    "self.submission.counts_as_attempt = False",
    "submission.save(update_fields=['feedback', 'graded_at'])",
    "run.submission.graded_at = now",
    "Submission.objects.create(student=s, outcome=Submission.Outcome.CORRECT, score=1)",
    "cursor.execute('UPDATE grading_submission SET score = 1')",
    "queryset.submissions.update(misconception='')",
    "Submission.objects.filter(pk=1).update(feedback='Reviewed.')",
])
def test_the_scan_flags_each_way_of_writing_a_verdict(snippet: str) -> None:
    assert violations(snippet)


@pytest.mark.parametrize("snippet", [
    "Submission.objects.create(student=s, raw_answer=r, outcome=Submission.Outcome.PENDING)",
    "review.score = 0.5",
    "override = GradeOverride.objects.create(score=0.4)",
    "Submission.objects.filter(pk=1).update(raw_answer='')",
    "Submission.objects.filter(student=u).update(raw_answer='', canonical='', feedback='')",
    "LabRun.objects.filter(pk=1).update(status='failed')",
])
def test_the_scan_leaves_other_writes_alone(snippet: str) -> None:
    assert violations(snippet) == []
