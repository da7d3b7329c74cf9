"""Parts are written one way, `[[parts]]` tables holding the spec's fields; the other
spellings authors write (`[parts.name]` tables, a `spec = { ... }` table) are refused with
the file, the line and the spelling to use (issue 37, item 5)."""

from pathlib import Path

import pytest

from courses.content_files import read_module_folder
from courses.content_validation import REGISTERED, validate_content

HEAD = '''uuid = "0b9f6c9e-5d0e-4a55-9c43-6a3f0d1e2a10"
slug = "spelling"
kind = "apply"
section = "1.1"
title = "Spelling"
prompt = "Expand."
'''


def _problems(tmp_path: Path, parts: str) -> list[str]:
    module = tmp_path / "module"
    (module / "sections").mkdir(parents=True)
    (module / "exercises").mkdir()
    (module / "module.toml").write_text(
        'uuid = "7d0c3f4e-2b1a-4f7e-9d6c-1a2b3c4d5e6f"\nslug = "m"\nnumber = "1"\ntitle = "M"\n')
    (module / "sections" / "01-s.md").write_text(
        '+++\nuuid = "1f2e3d4c-5b6a-4789-8abc-def012345678"\nnumber = "1.1"\nslug = "s"\n'
        'title = "S"\norder = 1\n+++\nText.\n')
    (module / "exercises" / "spelling.toml").write_text(HEAD + parts)
    return [str(e) for e in validate_content(read_module_folder(module), REGISTERED)]


def test_the_one_spelling_syncs(tmp_path):
    assert _problems(tmp_path, '[[parts]]\nkey = "expand"\ntype = "symbolic"\n'
                               'variables = ["x"]\nreference = "x^2 + 2x + 1"\n') == []


def test_a_named_parts_table_is_refused_at_its_line_with_the_spelling_to_use(tmp_path):
    problems = _problems(tmp_path, '\n[parts.expand]\ntype = "symbolic"\nvariables = ["x"]\n'
                                   'reference = "x^2 + 2x + 1"\n')
    assert len(problems) == 1, problems
    assert problems[0].startswith("module/exercises/spelling.toml:8: ")
    assert 'write [[parts]] and then key = "expand" instead of [parts.expand]' in problems[0]


def test_a_spec_table_in_a_part_is_refused_at_its_line_with_the_spelling_to_use(tmp_path):
    problems = _problems(tmp_path, '[[parts]]\nkey = "expand"\nspec = { type = "symbolic", '
                                   'variables = ["x"], reference = "x^2 + 2x + 1" }\n')
    assert len(problems) == 1, problems
    assert problems[0].startswith("module/exercises/spelling.toml:9: ")
    assert "move its fields (type = ..., variables = ..., reference = ...) into the [[parts]]" \
        in problems[0]


@pytest.mark.parametrize("reference", ["(x+1)^2", "x^2 + 2x + 1"])
def test_a_required_form_needs_a_key_in_that_form(tmp_path, reference):
    problems = _problems(tmp_path, f'[[parts]]\nkey = "expand"\ntype = "symbolic"\n'
                                   f'variables = ["x"]\nreference = "{reference}"\n'
                                   'form = "expanded"\n')
    assert bool(problems) == (reference == "(x+1)^2"), problems
    if problems:
        assert "'reference' written as '(x + 1)^2' is not in the form it asks for " \
               "(form:expanded): write the key itself in that form" in problems[0]
