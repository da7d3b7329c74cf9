"""`manage.py import_questions` prints the report and writes the module folder."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

FIXTURES = Path(__file__).parent / "fixtures"


def test_the_command_prints_each_question_and_the_count(tmp_path):
    out = StringIO()
    call_command("import_questions", str(FIXTURES / "bank.xml"), "--module",
                 str(tmp_path / "module-07"), stdout=out)
    text = out.getvalue()
    assert "not imported: line 97, question 14 (gapselect) 'Gaps'" in text
    assert "10 of 12 question(s) imported (4 with changes), 2 not imported" in text
    assert (tmp_path / "module-07" / "exercises" / "area.toml").exists()


def test_a_refused_file_is_an_error_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b'<!DOCTYPE q [<!ENTITY a "b">]><quiz/>')
    with pytest.raises(CommandError, match="Nothing imported: the file declares a DTD"):
        call_command("import_questions", str(bad), "--module", str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()
