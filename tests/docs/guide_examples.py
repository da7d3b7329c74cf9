"""The TOML examples of the guides, and the smallest content folder that syncs each one.

An example is a fenced block tagged `toml` (or a Markdown block opening with `+++`: a section
file's front matter). It is either a whole content file (a course file, module, section,
figure, lab or exercise) or the part of one that the guide is about (an exercise's parameters
and parts, a figure's kind and data); `content_folder` writes it into a course folder with
only the fields it leaves out (uuid, slug, title, ...) and a module around it.
"""

import re
import shutil
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTENT_ROOT = ROOT / "courses" / "content"
#: Every guide an author reads: the docs site's pages and the READMEs they include.
GUIDES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "grading" / "checkers" / "README.md",
          CONTENT_ROOT / "README.md", ROOT / "README.md"]
_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
FOLDER = "guide-module"


@dataclass(frozen=True)
class Example:
    """One example: where it is (guide and line of its first line) and its text."""

    guide: Path
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.guide.relative_to(ROOT)}:{self.line}"

    @property
    def is_section(self) -> bool:
        return self.text.lstrip().startswith("+++")


def examples_in(guide: Path) -> list[Example]:
    """The TOML examples of one guide, in order."""
    found: list[Example] = []
    lines = guide.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, tag = opening.groups()
        end = next((j for j in range(index + 1, len(lines))
                    if lines[j].strip() == "```"), len(lines))
        body = [row[len(indent):] if row.startswith(indent) else row
                for row in lines[index + 1:end]]
        text = "\n".join(body) + "\n"
        if tag == "toml" or (not tag and text.lstrip().startswith("+++")):
            found.append(Example(guide, index + 2, text))
        index = end + 1
    return found


def every_example() -> list[Example]:
    return [example for guide in GUIDES for example in examples_in(guide)]


def kind_of(example: Example) -> str:
    """Which content file the example is (or is part of)."""
    if example.is_section:
        return "section"
    data = tomllib.loads(example.text)
    if "modules" in data:
        return "course"
    if "zones" in data:
        return "assessment"
    if "simulation" in data or "params" in data:
        return "lab"
    if "parts" in data or "parameters" in data:
        return "exercise"
    if "kind" in data or "data" in data:
        return "figure"
    if "intro" in data or ("number" in data and "section" not in data):
        return "module"
    raise AssertionError(f"{example.where}: cannot tell which content file this example is")


def _new_uuid() -> str:
    return str(uuid.uuid4())


def _with_fields(text: str, fields: dict[str, str]) -> str:
    """`text` with the top-level fields it lacks written first (before any table)."""
    data = tomllib.loads(text)
    head = "".join(f'{name} = "{value}"\n' for name, value in fields.items() if name not in data)
    return head + text


def _section(number: str, order: int = 1) -> str:
    return (f'+++\nuuid = "{_new_uuid()}"\nnumber = "{number}"\nslug = "section-{order}"\n'
            f'title = "Section {number}"\norder = {order}\n+++\nThe section\'s text.\n')


def _module(folder: Path, *, module_toml: str | None = None, sections: tuple[str, ...] = ("1.1",),
            section_file: str | None = None) -> None:
    (folder / "sections").mkdir(parents=True)
    (folder / "module.toml").write_text(module_toml or (
        f'uuid = "{_new_uuid()}"\nslug = "{folder.name}"\nnumber = "1"\n'
        f'title = "A module of the guides\' examples"\n'), encoding="utf-8")
    if section_file is not None:
        (folder / "sections" / "01-example.md").write_text(section_file, encoding="utf-8")
        return
    for order, number in enumerate(dict.fromkeys(sections), start=1):
        (folder / "sections" / f"{order:02d}-section.md").write_text(
            _section(number, order), encoding="utf-8")


def _item(example: Example, kind: str, section: str, slug: str) -> str:
    """The example's file: the example with the fields it leaves out written first."""
    head = {"uuid": _new_uuid(), "slug": slug, "section": section, "title": "Example"}
    if kind == "exercise":
        head |= {"kind": "apply", "prompt": "The guide's example."}
    if kind == "figure":
        head |= {"number": section}
    return _with_fields(example.text, head)


def module_from_examples(examples: list[Example], folder: Path) -> dict[str, int]:
    """One module folder made of `examples`: the module file, the section file (copied, with
    its number changed, for every other section the items name), and every figure, lab and
    exercise example; returns how many files of each kind were written."""
    by_kind: dict[str, list[Example]] = {}
    for example in examples:
        by_kind.setdefault(kind_of(example), []).append(example)
    (folder / "sections").mkdir(parents=True)
    (folder / "module.toml").write_text(by_kind["module"][0].text, encoding="utf-8")
    section = by_kind["section"][0].text
    first = str(tomllib.loads(section.split("+++")[1])["number"])
    named = {str(tomllib.loads(e.text).get("section", first))
             for kind in ("figure", "lab", "exercise") for e in by_kind.get(kind, [])}
    numbers = [first, *sorted(named - {first})]
    for order, number in enumerate(numbers, start=1):
        text = section if number == first else _section(number, order + 100)
        (folder / "sections" / f"{order:02d}-section.md").write_text(text, encoding="utf-8")
    written = {"module": 1, "section": len(numbers)}
    for kind in ("figure", "lab", "exercise"):
        (folder / f"{kind}s").mkdir()
        for index, example in enumerate(by_kind.get(kind, []), start=1):
            section_of = str(tomllib.loads(example.text).get("section", first))
            (folder / f"{kind}s" / f"example-{index:02d}.toml").write_text(
                _item(example, kind, section_of, f"{kind}-{index:02d}"), encoding="utf-8")
        written[kind] = len(by_kind.get(kind, []))
    return written


def _assessment(example: Example, folder: Path) -> None:
    """The assessment example, with a one-part question for every slug its zones draw from."""
    (folder / "questions").mkdir(parents=True)
    (folder / "example.toml").write_text(_with_fields(example.text, {
        "uuid": _new_uuid(), "slug": "guide-assessment", "title": "Example"}), encoding="utf-8")
    for zone in tomllib.loads(example.text)["zones"]:
        for slug in zone["questions"]:
            (folder / "questions" / f"{slug}.toml").write_text(
                f'uuid = "{_new_uuid()}"\nslug = "{slug}"\ntitle = "Q"\nprompt = "1 + 1?"\n'
                '[[parts]]\nkey = "sum"\ntype = "integer"\nreference = "2"\n', encoding="utf-8")


def content_folder(example: Example, root: Path) -> Path:
    """A course folder holding `example` with the least around it; returns its path."""
    root.mkdir(parents=True)
    kind = kind_of(example)
    if kind == "course":
        data = tomllib.loads(example.text)
        (root / "course.toml").write_text(example.text, encoding="utf-8")
        for name in data["modules"]:
            if (CONTENT_ROOT / name / "module.toml").is_file():
                shutil.copytree(CONTENT_ROOT / name, root / name)
            else:
                _module(root / name)
        return root
    (root / "course.toml").write_text(f'modules = ["{FOLDER}"]\n', encoding="utf-8")
    module = root / FOLDER
    if kind == "section":
        _module(module, section_file=example.text)
        return root
    if kind == "module":
        _module(module, module_toml=example.text)
        return root
    if kind == "assessment":
        _module(module)
        _assessment(example, module / "assessments")
        return root
    section = str(tomllib.loads(example.text).get("section", "1.1"))
    _module(module, sections=(section,))
    folder = module / f"{kind}s"
    folder.mkdir()
    (folder / "example.toml").write_text(_item(example, kind, section, f"guide-{kind}"),
                                         encoding="utf-8")
    return root
