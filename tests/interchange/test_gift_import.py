"""GIFT import: each question read into Moodle's own form, then converted and validated."""

import tomllib
from pathlib import Path

from courses.content_files import read_module_folder
from courses.content_validation import REGISTERED, validate_content
from interchange.module_writer import import_moodle_file

GIFT = (Path(__file__).parent / "fixtures" / "bank.gift").read_bytes()


def _part(target: Path, slug: str) -> dict:
    return tomllib.loads((target / "exercises" / f"{slug}.toml").read_text())["parts"][0]


def test_a_gift_bank_imports_every_type_with_its_line(tmp_path):
    target = tmp_path / "m"
    report = import_moodle_file(GIFT, target, gift=True)
    assert report.summary() == "9 of 9 question(s) imported (2 with changes), 0 not imported"
    assert [o.line for o in report.outcomes][:2] == [4, 6]
    assert validate_content(read_module_folder(target), REGISTERED) == []
    assert _part(target, "capital")["reference"] == ["Paris", "paris"]
    primes = _part(target, "primes")
    assert primes["multiple"] and primes["correct"] == ["a", "b"]
    pick = _part(target, "pick-one")
    assert pick["correct"] == ["a"] and pick["misconceptions"][0]["feedback"] == "Off by one"
    assert (_part(target, "sum")["reference"], _part(target, "sum")["atol"]) == ("4", 0.1)
    assert (_part(target, "range")["reference"], _part(target, "range")["atol"]) == ("4.0", 1.0)
    sun = _part(target, "sun")
    assert sun["correct"] == ["true"] and sun["misconceptions"][0]["feedback"] == "Yes, it is."
    assert _part(target, "explain")["type"] == "text"
    assert "{x}" in tomllib.loads((target / "exercises" / "explain.toml").read_text())["prompt"]
    assert _part(target, "match")["correct"] == {"r1": "c1", "r2": "c2"}
    section = next((target / "sections").glob("*.md")).read_text()
    assert "Some plain text that becomes section text." in section


def test_a_gift_file_that_is_not_text_is_refused(tmp_path):
    report = import_moodle_file(b"\xff\xfe\x00bad", tmp_path / "m", gift=True)
    assert report.refused.startswith("the file is not UTF-8 text")
