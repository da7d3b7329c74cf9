"""Moodle cloze (multianswer) questions: each gap a part, with its credits and feedback."""

import tomllib

from courses.content_files import read_module_folder
from courses.content_validation import REGISTERED, validate_content
from interchange.module_writer import import_moodle_file

CLOZE = b"""<quiz><question type="multianswer"><name><text>Cloze</text></name>
<questiontext format="html"><text><![CDATA[<p>2+2 = {2:NUMERICAL:=4:0.1#Right~%50%4.5:0#Close}.
France: {1:SHORTANSWER:=Paris#Yes~*#No}. {1:MULTICHOICE:=even#Good~odd#Not odd}
{1:MULTIRESPONSE:~%50%2~%50%3~%-50%4} {1:SHORTANSWER_C:=a\\}b}</p>]]></text></questiontext>
<defaultgrade>6</defaultgrade></question></quiz>"""


def test_each_gap_becomes_a_part_that_validates_in_every_variant(tmp_path):
    report = import_moodle_file(CLOZE, tmp_path / "m")
    assert report.summary() == "1 of 1 question(s) imported (0 with changes), 0 not imported"
    assert validate_content(read_module_folder(tmp_path / "m"), REGISTERED) == []
    data = tomllib.loads((tmp_path / "m" / "exercises" / "cloze.toml").read_text())
    gap1, gap2, gap3, gap4, gap5 = data["parts"]
    assert "<strong>[1]</strong>" in data["prompt"] and "{2:" not in data["prompt"]
    assert (gap1["type"], gap1["reference"], gap1["atol"], gap1["points"]) == ("numeric", "4", 0.1, 2.0)
    assert gap1["alternatives"][0] == {"answer": "4.5", "credit": 0.5, "feedback": "Close", "atol": 0}
    assert gap2["reference"] == ["Paris"] and gap2["feedback_incorrect"] == "No"
    assert gap3["correct"] == ["a"] and gap3["misconceptions"][0]["feedback"] == "Not odd"
    assert gap4["multiple"] and gap4["correct"] == ["a", "b"]
    assert gap5["reference"] == ["a}b"] and gap5["case_sensitive"] is True


def test_an_unknown_gap_type_leaves_the_question_out_with_the_gap(tmp_path):
    xml = CLOZE.replace(b"SHORTANSWER_C", b"REGEXP")
    report = import_moodle_file(xml, tmp_path / "m")
    assert report.outcomes[0].notes == ("gap 5 has the type REGEXP, not read here",)


def test_moodle_exports_name_the_type_cloze(tmp_path):
    report = import_moodle_file(CLOZE.replace(b'"multianswer"', b'"cloze"'), tmp_path / "m")
    assert report.outcomes[0].status == "imported" and report.outcomes[0].qtype == "cloze"
