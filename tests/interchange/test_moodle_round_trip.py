"""Modules 5 and 6: their numeric and choice parts survive a Moodle XML round trip."""

import math
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from courses.content_files import read_module_folder
from grading.variant_space import variants_all
from grading.variants import reference_value
from interchange.module_writer import import_moodle_file
from interchange.moodle_export import export_module


def _parts(folder: Path):
    for source in read_module_folder(folder).exercises:
        parts = source.data["parts"]
        for part in parts:
            name = source.data["title"] + (f" / {part['key']}" if len(parts) > 1 else "")
            yield source.data, part, name


@pytest.mark.parametrize("module", ["module-05", "module-06"])
def test_numeric_and_choice_parts_survive_a_moodle_round_trip(tmp_path, module):
    folder = Path(settings.CONTENT_ROOT) / module
    xml, skipped = export_module(folder)
    report = import_moodle_file(xml, tmp_path / module)
    assert report.count("skipped") == 0 and not report.refused
    back = {s.data["title"]: s.data for s in read_module_folder(tmp_path / module).exercises}
    carried = 0
    for exercise, part, name in _parts(folder):
        if part["type"] == "choice":
            again = back[name]["parts"][0]
            assert [o["key"] for o in again["options"]] == [chr(97 + i) for i in range(len(part["options"]))]
            assert [o["text"] for o in again["options"]] == [o["text"] for o in part["options"]]
            keys = {o["key"]: chr(97 + i) for i, o in enumerate(part["options"])}
            assert again["correct"] == [keys[k] for k in part["correct"]]
            carried += 1
        elif part["type"] in ("numeric", "integer") and name in back:
            again = back[name]["parts"][0]
            for key in ("rtol", "atol"):
                assert again.get(key) == part.get(key)
            for variant in variants_all(exercise.get("parameters"), exercise.get("derived")):
                want = float(reference_value(part["reference"], variant.params))
                got = float(reference_value(again["reference"], variant.params))
                assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300), (name, variant)
            carried += 1
        else:
            assert any(f"part '{part['key']}'" in line for line in skipped), name
    assert carried == {"module-05": 6, "module-06": 2}[module]


def test_the_export_command_writes_the_file_and_lists_what_it_left_out(tmp_path):
    err = StringIO()
    out = tmp_path / "m5.xml"
    call_command("export_questions", str(Path(settings.CONTENT_ROOT) / "module-05"),
                 "-o", str(out), stderr=err)
    assert b'<question type="calculated">' in out.read_bytes()
    assert "not exported: module-05/exercises/extend-bottleneck.toml: part 'explanation'" in err.getvalue()
    assert not list((Path(settings.CONTENT_ROOT) / "module-05").glob("*.xml"))


def test_selected_exercises_only_are_exported(tmp_path):
    out = tmp_path / "one.xml"
    call_command("export_questions", str(Path(settings.CONTENT_ROOT) / "module-05"),
                 "--exercise", "apply-1-gradient-bound", "-o", str(out), stderr=StringIO())
    xml = out.read_text()
    assert xml.count("<question type=") == 2  # the category and Apply 1
    assert "pow({sigma}, {steps})" in xml
    with pytest.raises(CommandError, match="no exercise 'nope'"):
        call_command("export_questions", str(Path(settings.CONTENT_ROOT) / "module-05"),
                     "--exercise", "nope", stderr=StringIO())
