"""The conformance report (docs/accessibility.md, issue 43 item 4) lists every WCAG 2.2
success criterion of levels A and AA once, each with a status, and every test it gives as
evidence exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "docs" / "accessibility.md"

#: WCAG 2.2's success criteria at levels A and AA (4.1.1 Parsing is obsolete and removed).
LEVEL_A = ["1.1.1", "1.2.1", "1.2.2", "1.2.3", "1.3.1", "1.3.2", "1.3.3", "1.4.1", "1.4.2",
           "2.1.1", "2.1.2", "2.1.4", "2.2.1", "2.2.2", "2.3.1", "2.4.1", "2.4.2", "2.4.3",
           "2.4.4", "2.5.1", "2.5.2", "2.5.3", "2.5.4", "3.1.1", "3.2.1", "3.2.2", "3.2.6",
           "3.3.1", "3.3.2", "3.3.7", "4.1.2"]
LEVEL_AA = ["1.2.4", "1.2.5", "1.3.4", "1.3.5", "1.4.3", "1.4.4", "1.4.5", "1.4.10", "1.4.11",
            "1.4.12", "1.4.13", "2.4.5", "2.4.6", "2.4.7", "2.4.11", "2.5.7", "2.5.8", "3.1.2",
            "3.2.3", "3.2.4", "3.3.3", "3.3.4", "3.3.8", "4.1.3"]
STATUSES = {"Supports", "Partially supports", "Does not support", "Not applicable"}
ROW = re.compile(r"^\| (\d\.\d+\.\d+) [^|]+ \| ([^|]+) \| (.+) \|$", re.MULTILINE)


def _rows() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in ROW.finditer(REPORT.read_text())]


def test_every_a_and_aa_criterion_is_listed_once_with_a_status_and_evidence():
    rows = _rows()
    assert [number for number, _, _ in rows] == LEVEL_A + LEVEL_AA
    assert {status for _, status, _ in rows} <= STATUSES
    assert all(len(evidence) > 20 for _, _, evidence in rows)


def test_every_test_named_as_evidence_exists():
    text = REPORT.read_text()
    tests = {path.relative_to(ROOT).as_posix(): path.read_text()
             for path in (ROOT / "tests").rglob("test_*.py")}
    for path, name in re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", text):
        assert f"def {name}(" in tests[path], f"{path}::{name}"
    for path in re.findall(r"`(tests/[\w/]+\.py)`", text):
        assert path in tests, path
    browser = "".join(source for path, source in tests.items() if path.startswith("tests/browser/"))
    for name in re.findall(r"`(test_\w+)`", text):
        assert f"def {name}(" in browser, name
