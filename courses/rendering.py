"""Markdown with LaTeX maths rendered to HTML + MathML on the server (no network, no CDN).

Every HTML string this module returns has passed `courses.sanitizer.sanitize_html` (one
allowlist for prose and MathML), whoever wrote the text: an author in git, a student, a TA.
"""

import html
import re
from functools import lru_cache
from xml.etree import ElementTree

import markdown
from latex2mathml.converter import convert as latex_to_mathml

from courses.sanitizer import MATHML_ATTRIBUTES, MATHML_TAGS, sanitize_html

#: `$$...$$` and `$...$` (a `\$` is a dollar sign): the maths in a text.
DISPLAY_MATHS = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
INLINE_MATHS = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.DOTALL)
_PLACEHOLDER = "\x00MATH{}\x00"
#: latex2mathml writes a one-letter `\mathrm{s}` as `<mi>&#x00073;</mi>` (the letter as a
#: character reference, without `mathvariant`), which a browser draws in italics like a
#: variable; every other upright letter it marks `mathvariant="normal"`. A plain letter is
#: written as itself (`<mi>x</mi>`), so an ASCII letter written as a reference is upright.
_UPRIGHT_LETTER = re.compile(r"<mi>(&#x0*(?:4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]);)</mi>")
_MARKDOWN_EXTENSIONS = ["extra", "sane_lists"]
#: Table alignment as `align`, not `style` (the sanitiser allows no style attribute).
_MARKDOWN_CONFIGS = {"extra": {"tables": {"use_align_attribute": True}}}


def _plain_mathml(rendered: str) -> bool:
    """Is `rendered` well-formed MathML made only of the sanitiser's MathML elements and
    attributes, with no markup inside them?

    latex2mathml copies `\\text{...}` into <mtext> unescaped, and <mtext> lets a browser read
    HTML inside it: such a formula is shown as its source rather than as half-sanitised maths.
    """
    try:
        root = ElementTree.fromstring(rendered)  # noqa: S314 - our own converter's output, no DTD
    except ElementTree.ParseError:
        return False
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag.rpartition("}")[2] not in MATHML_TAGS:
            return False
        if any(name.rpartition("}")[2] not in MATHML_ATTRIBUTES for name in element.attrib):
            return False
    return True


def _mathml(latex: str, *, display: bool) -> str:
    """One formula as MathML whose <math> carries its TeX source as `alttext` (its text
    alternative, WCAG 1.1.1: what a reader without MathML support reads), or as its escaped
    source in <code> where it cannot be read."""
    source = f'<code class="math-source">{html.escape(latex)}</code>'
    try:
        rendered = latex_to_mathml(latex.strip(), display="block" if display else "inline")
    except Exception:  # a formula latex2mathml cannot read is shown as its source, never a 500
        return source
    alttext = html.escape(" ".join(latex.split()), quote=True)
    rendered = rendered.replace("<math ", f'<math alttext="{alttext}" ', 1)
    rendered = _UPRIGHT_LETTER.sub(r'<mi mathvariant="normal">\1</mi>', rendered)
    if not _plain_mathml(rendered):
        return source
    return f'<div class="math-display">{rendered}</div>' if display else rendered


@lru_cache(maxsize=2048)
def latex_to_html(latex: str, *, display: bool = False) -> str:
    """Sanitised MathML for one LaTeX formula (its escaped source in <code> if it cannot be
    read). Pure and deterministic, so results are cached per process: a class types the
    same few readings of an answer into the live preview again and again."""
    return sanitize_html(_mathml(latex, display=display))


@lru_cache(maxsize=1024)
def render_markdown(text: str, *, escape_html: bool = False) -> str:
    """Sanitised HTML for Markdown `text` whose `$...$` and `$$...$$` maths becomes MathML.

    With `escape_html`, HTML in the text (outside maths) is shown as text, never as markup:
    for text that may contain what a student typed, such as feedback quoting an answer.
    Either way the result passes the sanitiser, so Markdown's own syntax (links, images,
    attribute lists such as `{onerror=...}`) cannot produce executable markup either.
    Pure and deterministic, so results are cached per process: the module's prose is the
    same for every request, and a variant's prompt for every visit of that student.
    """
    pieces: list[str] = []

    def stash(rendered: str) -> str:
        pieces.append(rendered)
        return _PLACEHOLDER.format(len(pieces) - 1)

    text = text.replace("\x00", "\ufffd")  # NUL would clash with the maths placeholders
    text = DISPLAY_MATHS.sub(lambda m: "\n\n" + stash(_mathml(m.group(1), display=True)) + "\n\n", text)
    text = INLINE_MATHS.sub(lambda m: stash(_mathml(m.group(1), display=False)), text)
    if escape_html:
        text = html.escape(text, quote=False)
    rendered = markdown.markdown(text, extensions=_MARKDOWN_EXTENSIONS,
                                 extension_configs=_MARKDOWN_CONFIGS, output_format="html")
    for index, piece in enumerate(pieces):
        placeholder = _PLACEHOLDER.format(index)
        rendered = rendered.replace(f"<p>{placeholder}</p>", piece).replace(placeholder, piece)
    return sanitize_html(rendered)


def render_inline_markdown(text: str, *, escape_html: bool = False) -> str:
    """`render_markdown` for a one-line string (a title, a label): no enclosing paragraph."""
    rendered = render_markdown(text, escape_html=escape_html).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return rendered
