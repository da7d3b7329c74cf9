"""Corrupted or out-of-range content is refused as `file:line: reason`, never a traceback,
and a lab may narrow its simulation's limits but never widen them."""

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from courses.models import Exercise, Lab
from courses.services import ContentInvalid, content_sync

pytestmark = pytest.mark.django_db

SOURCE = Path(settings.CONTENT_ROOT) / "module-05"
LOCATED = re.compile(r"^.+\.(toml|md):\d+: .+")


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "module-05"
    shutil.copytree(SOURCE, root)
    return root


def _refused(root: Path) -> list[str]:
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=root)
    messages = [str(error) for error in caught.value.errors]
    assert messages and all(LOCATED.match(m) for m in messages), messages
    return messages


def _set(path: Path, key: str, value: str) -> None:
    text, count = re.subn(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", path.read_text(), count=1)
    assert count == 1, key
    path.write_text(text)


EXERCISE = "exercises/apply-1-gradient-bound.toml"


@pytest.mark.parametrize("relative", [EXERCISE, "labs/rnn.toml", "figures/alignment-grid.toml",
                                      "module.toml", "sections/02-recurrent-networks.md"])
def test_an_empty_file_is_reported_not_a_crash(content, relative) -> None:
    (content / relative).write_text("")
    assert any(relative.split("/")[-1] in m for m in _refused(content))
    assert not Exercise.objects.exists()


@pytest.mark.parametrize(("key", "value", "words"), [
    ("max_attempts", "-5", "between 0 and"),
    ("max_attempts", "99999999999999999999999", "between 0 and"),
    ("order", "-1", "between 0 and"),
    ("order", "99999999999999999999999", "between 0 and"),
    ("order", "1.5", "must be int"),
    ("penalty", "-0.1", "between 0 and 1"),
    ("penalty", "2", "between 0 and 1"),
    ("penalty", "nan", "finite"),
    ("penalty", "inf", "finite"),
    ("points", "-1", "between 0 and"),
    ("points", "1e400", "finite"),
])
def test_numbers_out_of_range_are_reported_with_their_line(content, key, value, words) -> None:
    _set(content / EXERCISE, key, value)
    messages = _refused(content)
    assert any(words in m and f"'{key}'" in m for m in messages), messages


@pytest.mark.parametrize(("relative", "key"), [
    ("module.toml", "number"),
    ("module.toml", "slug"),
    (EXERCISE, "title"),
    ("labs/rnn.toml", "simulation"),
])
def test_a_string_longer_than_its_column_is_reported_with_its_line(content, relative, key) -> None:
    """A value the database cannot hold is refused by sync at its line (PostgreSQL raised
    DataError in the middle of the sync: a module number of eleven characters)."""
    _set(content / relative, key, '"' + "x" * 400 + '"')
    messages = _refused(content)
    assert any(f"'{key}' must be at most" in m and relative.split("/")[-1] in m
               for m in messages), messages


@pytest.mark.parametrize(("relative", "where"), [
    ("sections/02-recurrent-networks.md", "body"),
    (EXERCISE, "prompt"),
    ("labs/rnn.toml", "title"),
])
@pytest.mark.parametrize("code", [0x00, 0x07, 0x1b, 0x85])
def test_control_characters_are_refused(content, relative, where, code) -> None:
    path = content / relative
    text = path.read_text()
    if where == "body":  # Markdown takes the character itself
        text = text + f"\nA line with a {chr(code)} inside.\n"
    else:  # TOML refuses the raw character itself; its escape reaches the value
        text = re.sub(rf'(?m)^({where}\s*=\s*")', rf"\g<1>bad\\u{code:04x}", text, count=1)
    path.write_text(text)
    messages = _refused(content)
    assert any("control character" in m for m in messages), messages


def test_a_raw_control_character_in_toml_is_reported_with_its_line(content) -> None:
    path = content / EXERCISE
    path.write_text(path.read_text().replace("A gradient passes", "A gradient\x00 passes", 1))
    assert any(":7: invalid TOML" in m for m in _refused(content))


@pytest.mark.parametrize(("override", "words"), [
    ("[params.units]\nmax = 100000", "outside the simulation's own limits"),
    ("[params.units]\ndefault = 100000", "default lies outside"),
    ("[params.units]\nmin = 1", "outside the simulation's own limits"),
    ("[params.units]\nmin = 40\nmax = 20", "min (40) is above max (20)"),
    ("[params.units]\ndefault = 7.5", "whole number"),
    ("[params.units]\nlabel = 5", "must be text"),
    ("[params.units]\nmin = 64", "give a default"),
    ("[params.units]\ndefault = -3", "default lies outside"),
    ("[params.sentence]\ndefault = \"a sentence of my own\"", "default must be one of"),
    ("[params.sentence]\nmax = 3", "a choice has no range"),
])
def test_a_lab_may_not_widen_its_simulations_limits(content, override, words) -> None:
    path = content / "labs/rnn.toml"
    path.write_text(path.read_text() + "\n" + override + "\n")
    messages = _refused(content)
    assert any(words in m for m in messages), messages


def test_a_lab_may_narrow_its_simulations_limits(content) -> None:
    path = content / "labs/rnn.toml"
    path.write_text(path.read_text() + "\n[params.units]\nmin = 4\nmax = 64\ndefault = 16\n")
    content_sync(root=content)
    schema = Lab.objects.get(slug="rnn").param_schema
    assert (schema["units"]["min"], schema["units"]["max"], schema["units"]["default"]) == (4, 64, 16)
