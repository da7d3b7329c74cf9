"""Content-driven figures (heatmap, arrows, bars, line) at sync: every problem in a figure's
[data] is reported as `file:line: reason` on the line that holds it, nothing is applied while
one remains, and every example of the authoring guide's Figures section is valid."""

import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings

from courses.content_files import read_module_folder
from courses.content_validation import validate_content
from courses.figure_kinds import FIGURE_KINDS
from courses.models import Figure, Module
from courses.services import ContentInvalid, content_sync

ROOT = Path(settings.BASE_DIR)
MODULE = '''uuid = "0b6d4a43-37a1-4f38-9a52-53a8c3f7e0c1"
slug = "module-figures"
number = "80"
title = "Figures"
'''
SECTION = '''+++
uuid = "43f5d0ff-8e5e-4a89-8d62-4f3ad1c05f1e"
number = "80.1"
slug = "one"
title = "One"
order = 1
+++
Text.
'''
HEAD = '''uuid = "a7f7c1e2-1b3d-4c59-9d0e-2f5b8c6a7d10"
slug = "fig"
section = "80.1"
number = "80.1"
title = "A figure"
kind = "{kind}"
in_words = "What it shows."
'''


def _problems(tmp_path: Path, kind: str, body: str) -> list[str]:
    root = tmp_path / "module-figures"
    (root / "sections").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "module.toml").write_text(MODULE)
    (root / "sections" / "01-one.md").write_text(SECTION)
    (root / "figures" / "fig.toml").write_text(HEAD.format(kind=kind) + body)
    return [str(e) for e in validate_content(read_module_folder(root))]


def _line_of(body: str, needle: str) -> int:
    """The file line (1-based) of the first body line containing `needle` (equal to it, when
    `needle` ends with a newline)."""
    def found(line: str) -> bool:
        return line == needle.strip() if needle.endswith("\n") else needle in line

    return HEAD.count("\n") + next(i for i, line in enumerate(body.splitlines(), 1) if found(line))


HEATMAP_OK = '[data]\nvalues = [[1, 2], [3, 4]]\nrows = ["a", "b"]\ncolumns = ["x", "y"]\n'

CASES = [
    ("heatmap", '[data]\nrows = ["a"]\nvalues = [\n  [1, 2],\n  [3],\n]\n', "values =",
     "'values' row 2 has 1 number, row 1 has 2: every row needs the same length"),
    ("heatmap", '[data]\nvalues = [[1, 2], [3, 4]]\nrows = ["a", "b", "c"]\n', "rows =",
     "'rows' has 3 labels for 2 values"),
    ("heatmap", '[data]\nvalues = [[1, 2], [3, 4]]\ncolumns = ["x"]\n', "columns =",
     "'columns' has 1 label for 2 values"),
    ("heatmap", '[data]\nvalues = [[1, nan], [3, 4]]\n', "values =",
     "'values' row 1 item 2 must be a finite number, not nan"),
    ("heatmap", '[data]\nvalues = [[1, inf]]\n', "values =", "finite number, not inf"),
    ("heatmap", '[data]\nvalues = [[1, "two"]]\n', "values =", "must be a number, not str"),
    ("heatmap", '[data]\nvalues = [[1, true]]\n', "values =", "must be a number, not bool"),
    ("heatmap", "[data]\nvalues = [" + ", ".join(["[1]"] * 51) + "]\n", "values =",
     "has 51 rows; a heat map has at most 50"),
    ("heatmap", "[data]\nvalues = [[" + ", ".join(["1"] * 51) + "]]\n", "values =",
     "'values' row 1 must hold 1 to 50 numbers, not 51"),
    ("heatmap", HEATMAP_OK + 'colour = "red"\n', "colour =", "unknown field 'colour'"),
    ("heatmap", HEATMAP_OK + 'scale = "rainbow"\n', "scale =",
     "'scale' must be one of sequential, diverging"),
    ("heatmap", HEATMAP_OK + "decimals = 9\n", "decimals =",
     "'decimals' must be a whole number from 0 to 6"),
    ("heatmap", HEATMAP_OK + "min = 2\nmax = 1\n", "max =", "'max' (1) must be larger"),
    ("heatmap", '[data]\nrows = ["a"]\n', "[data]", "missing required field 'values'"),
    ("heatmap", '[data]\nvalues = [[1]]\nrows = ["' + "x" * 41 + '"]\n', "rows =",
     "at most 40 characters, not 41"),
    ("bars", '[data]\nvalues = [1, 2, 3]\nlabels = ["a", "b"]\n', "labels =",
     "'labels' has 2 labels for 3 values"),
    ("bars", '[data]\nvalues = [1, -inf]\n', "values =", "finite number, not -inf"),
    ("bars", "[data]\nvalues = [" + ", ".join(["1"] * 51) + "]\n", "values =",
     "must hold 1 to 50 numbers, not 51"),
    ("bars", '[data]\nvalues = [1e13]\n', "values =", "at most 1e+12 in size"),
    ("arrows", '[data]\n[[data.vectors]]\nto = [1, 2]\n[[data.vectors]]\nlabel = "b"\n'
               'to = [1, 2, 3]\n', "to = [1, 2, 3]", "vector 2's 'to' must hold exactly 2 numbers, not 3"),
    ("arrows", '[data]\n[[data.vectors]]\nto = [1, 2]\n[[data.vectors]]\nlabel = "b"\n'
               'from = [0, nan]\nto = [1, 1]\n', "from =", "finite number, not nan"),
    ("arrows", '[data]\n[[data.vectors]]\nto = [1, 2]\nwidth = 3\n', "width =",
     "unknown field 'width'"),
    ("arrows", '[data]\nx_label = "x"\n[[data.vectors]]\nlabel = "a"\n', "[[data.vectors]]",
     "missing required field 'to' in vector 1"),
    ("line", '[data]\nx = [1, 2, 3]\n[[data.series]]\nlabel = "a"\ny = [1, 2, 3]\n'
             '[[data.series]]\nlabel = "b"\ny = [1, 2]\n', "y = [1, 2]\n",
     "series 2 has 2 y values for 3 x values"),
    ("line", '[data]\nx = [1, 2]\nlog_y = true\n[[data.series]]\nlabel = "a"\ny = [1, 0]\n',
     "y = [1, 0]", "a y value of 0 or below, which a logarithmic axis"),
    ("line", '[data]\nx = [2, 1]\n[[data.series]]\nlabel = "a"\ny = [1, 2]\n', "x = [2, 1]",
     "'x' must increase"),
    ("line", '[data]\nx = [1, 2]\nlog_y = "yes"\n[[data.series]]\nlabel = "a"\ny = [1, 2]\n',
     "log_y =", "'log_y' must be true or false"),
    ("line", '[data]\nx = [1, 2]\n' + "".join(f'[[data.series]]\nlabel = "s{i}"\ny = [1, 2]\n'
                                               for i in range(9)), "[[data.series]]",
     "a line plot has 1 to 8 [[data.series]], not 9"),
]


@pytest.mark.parametrize(("kind", "body", "where", "reason"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_problem_in_a_figures_data_is_reported_on_its_line(tmp_path, kind, body, where, reason):
    problems = _problems(tmp_path, kind, body)
    line = _line_of(body, where)
    assert any(p.startswith(f"module-figures/figures/fig.toml:{line}: figure data: ")
               and reason in p for p in problems), (line, problems)


def test_an_unknown_kind_names_every_registered_kind(tmp_path):
    problems = _problems(tmp_path, "pie", "[data]\nvalues = [1]\n")
    assert problems == [f"module-figures/figures/fig.toml:6: unknown figure kind 'pie' "
                        f"(use one of {', '.join(sorted(FIGURE_KINDS))})"]
    assert {"heatmap", "arrows", "bars", "line", "word-vectors"} <= set(FIGURE_KINDS)


def _guide_examples() -> list[str]:
    guide = (ROOT / "docs" / "authoring.md").read_text()
    figures = guide.split("## Figures", 1)[1].split("\n## ", 1)[0]
    return [block for block in re.findall(r"```toml\n(.*?)```", figures, re.DOTALL)
            if block.startswith('kind = "')]


def test_the_authoring_guide_has_a_valid_example_of_every_generic_kind(tmp_path):
    examples = _guide_examples()
    kinds = [re.match(r'kind = "([a-z-]+)"', e).group(1) for e in examples]
    assert kinds == ["heatmap", "arrows", "bars", "line"]
    for index, example in enumerate(examples):
        body = example.split("\n", 1)[1]
        assert _problems(tmp_path / str(index), kinds[index], body) == [], kinds[index]


@pytest.mark.django_db
def test_a_sync_with_a_broken_figure_applies_nothing(tmp_path):
    root = tmp_path / "content"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-06", root / "module-06")
    figure = root / "module-06" / "figures" / "worked-scores.toml"
    figure.write_text(figure.read_text().replace("    [0.0, 1.0, 1.0],\n", "    [0.0, 1.0],\n"))
    line = figure.read_text().splitlines().index("values = [") + 1
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=root)
    assert [str(e) for e in caught.value.errors] == [
        f"module-06/figures/worked-scores.toml:{line}: figure data: 'values' row 2 has 2 "
        f"numbers, row 1 has 3: every row needs the same length"]
    assert not Module.objects.filter(slug="module-06").exists()
    assert not Figure.objects.exists()
