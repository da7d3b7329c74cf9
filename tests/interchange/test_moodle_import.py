"""Moodle XML import: every supported type converted, validated in every variant, reported."""

import tomllib
from pathlib import Path

import pytest

from courses.content_files import read_module_folder
from courses.content_validation import REGISTERED, validate_content
from courses.services import content_sync
from interchange.module_writer import import_moodle_file

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def imported(tmp_path):
    target = tmp_path / "module-imported"
    report = import_moodle_file((FIXTURES / "bank.xml").read_bytes(), target)
    return target, report


def _exercise(target: Path, slug: str) -> dict:
    return tomllib.loads((target / "exercises" / f"{slug}.toml").read_text())


def _outcome(report, name):
    return next(o for o in report.outcomes if o.name == name)


def test_the_report_counts_each_question_with_its_line(imported):
    _, report = imported
    assert report.summary() == "10 of 12 question(s) imported (4 with changes), 2 not imported"
    assert _outcome(report, "Speed").line == 10
    gaps = _outcome(report, "Gaps")
    assert gaps.status == "skipped" and "select-missing-words" in gaps.notes[0]
    assert "line 97" in gaps.line_text()


def test_the_imported_module_validates_with_every_question_test_in_every_variant(imported):
    target, _ = imported
    files = read_module_folder(target)
    assert len(files.exercises) == 9
    assert validate_content(files, REGISTERED) == []
    assert all(part.get("tests") for f in files.exercises for part in f.data["parts"]
               if part["type"] != "text")


@pytest.mark.django_db
def test_the_imported_module_syncs(imported):
    target, _ = imported
    report = content_sync(root=target)
    assert len(report.created) >= 12  # module, two sections, nine exercises (and their parts)


def test_numerical_keeps_tolerance_units_and_other_answers_as_credit(imported):
    target, _ = imported
    part = _exercise(target, "speed")["parts"][0]
    assert (part["type"], part["unit"], part["reference"], part["atol"]) == ("quantity", "m/s", "5", 0.1)
    assert part["unit_mode"] == "required" and part["magnitude_credit"] == 0.8
    assert part["alternatives"][0]["credit"] == 0.5
    assert part["feedback_incorrect"] == "Divide distance by time."
    assert part["points"] == 2.0 and _exercise(target, "speed")["penalty"] == 0.25


def test_shortanswer_wildcards_become_a_pattern_and_wrong_answers_misconceptions(imported):
    target, _ = imported
    part = _exercise(target, "unit-of-force")["parts"][0]
    assert part["pattern"] == "(?:newton.*)" and part["case_sensitive"] is False
    assert part["misconceptions"][0]["answer"] == "joule"


def test_multichoice_single_and_multiple_with_option_feedback(imported):
    target, _ = imported
    roots = _exercise(target, "roots")
    assert "script" not in roots["prompt"] and "$x^2-4$" in roots["prompt"]
    part = roots["parts"][0]
    assert part["correct"] == ["a"] and part["feedback_correct"] == "Yes."
    assert part["misconceptions"] == [{"answer": "b", "tag": "option-b",
                                       "feedback": "4 squared is 16."}]
    primes = _exercise(target, "primes")["parts"][0]
    assert primes["multiple"] and primes["partial"] and primes["correct"] == ["a", "b"]


def test_truefalse_and_essay(imported):
    target, _ = imported
    assert _exercise(target, "even")["parts"][0]["correct"] == ["true"]
    essay = _exercise(target, "explain")["parts"][0]
    assert essay["type"] == "text" and essay["review"] == "always"


def test_calculated_wildcards_become_parameters_and_the_formula_the_key(imported):
    target, _ = imported
    area = _exercise(target, "area")
    assert area["parameters"]["a"] == {"default": 2, "choices": [2, 3, 4.5]}
    assert area["parameters"]["b"] == {"default": 1, "min": 1, "max": 3, "step": 0.1}
    assert area["parts"][0]["reference"] == "a*b" and area["parts"][0]["rtol"] == 0.01
    assert area["derived"] == {"f1": "a/2"}
    assert "{{ a }} by {{ b }}" in area["prompt"] and "{{ f1 }}" in area["prompt"]
    hyp = _exercise(target, "hypotenuse")["parts"][0]
    assert hyp["reference"] == "sqrt((x)^(2) + (y)^(2))" and hyp["atol"] == 0.001


def test_a_formula_outside_the_grammar_is_not_imported_and_never_run(imported):
    _, report = imported
    evil = _outcome(report, "Evil formula")
    assert evil.status == "skipped" and "not part of a formula" in evil.notes[0]


def test_matching_pairs_rows_to_columns(imported):
    target, _ = imported
    part = _exercise(target, "capitals")["parts"][0]
    assert part["correct"] == {"r1": "c1", "r2": "c2"} and part["columns"] == ["c1", "c2", "c3"]


def test_categories_become_sections_and_descriptions_their_text(imported):
    target, _ = imported
    sections = sorted((target / "sections").glob("*.md"))
    assert [s.name for s in sections] == ["01-mechanics.md", "02-algebra.md"]
    assert "$v = d/t$" in sections[0].read_text()


def test_a_question_failing_validation_is_left_out_and_the_rest_written(tmp_path):
    xml = b"""<quiz><question type="numerical"><name><text>Bad unit</text></name>
    <questiontext><text>?</text></questiontext>
    <answer fraction="100"><text>5</text><tolerance>0</tolerance></answer>
    <units><unit><multiplier>1</multiplier><unit_name>blorps</unit_name></unit></units>
    <unitgradingtype>1</unitgradingtype></question>
    <question type="truefalse"><name><text>Fine</text></name><questiontext><text>1=1</text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
    </question></quiz>"""
    report = import_moodle_file(xml, tmp_path / "m")
    bad = report.outcomes[0]
    assert bad.status == "skipped" and "fails validation" in bad.notes[0]
    assert [p.name for p in (tmp_path / "m" / "exercises").iterdir()] == ["fine.toml"]


def test_an_image_of_the_moodle_file_store_becomes_its_alt_text(tmp_path):
    xml = b"""<quiz><question type="truefalse"><name><text>Flag</text></name>
    <questiontext format="html"><text><![CDATA[<p>Arizona <img src="@@PLUGINFILE@@/az.png"
    alt="Arizona flag" width="50" /> is a state.</p>]]></text></questiontext>
    <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
    </question></quiz>"""
    report = import_moodle_file(xml, tmp_path / "m")
    prompt = tomllib.loads((tmp_path / "m" / "exercises" / "flag.toml").read_text())["prompt"]
    assert "[image: Arizona flag]" in prompt and "<img" not in prompt
    assert "embedded image" in report.outcomes[0].notes[0]
