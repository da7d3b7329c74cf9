"""Markdown with LaTeX maths rendered to HTML + MathML on the server (no network, no CDN)."""

import html
import re
from functools import lru_cache
from xml.etree import ElementTree

import markdown
from latex2mathml.converter import convert as latex_to_mathml

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.DOTALL)
_PLACEHOLDER = "\x00MATH{}\x00"


#: MathML that latex2mathml writes and browsers draw; nothing that links, scripts or styles.
_MATHML_TAGS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup",
    "mfrac", "msqrt", "mroot", "mstyle", "mtable", "mtr", "mtd", "mlabeledtr", "munder",
    "mover", "munderover", "mpadded", "mphantom", "menclose", "merror", "mmultiscripts",
    "mprescripts", "none", "semantics", "annotation",
})
_MATHML_ATTRIBUTES = frozenset({
    "xmlns", "display", "displaystyle", "scriptlevel", "mathvariant", "stretchy", "fence",
    "separator", "form", "lspace", "rspace", "accent", "accentunder", "largeop",
    "movablelimits", "symmetric", "minsize", "maxsize", "linethickness", "width", "height",
    "depth", "voffset", "linebreak", "notation", "columnalign", "rowalign", "columnspacing",
    "rowspacing", "columnlines", "rowlines", "frame", "encoding", "open", "close",
})


def _safe_mathml(rendered: str) -> bool:
    """Is `rendered` well-formed MathML made only of allowed elements and attributes?

    latex2mathml copies `\\text{...}` into <mtext> unescaped, and <mtext> lets a browser read
    HTML inside it, so its output is checked, never trusted.
    """
    try:
        root = ElementTree.fromstring(rendered)  # noqa: S314 - our own converter's output, no DTD
    except ElementTree.ParseError:
        return False
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag.rpartition("}")[2] not in _MATHML_TAGS:
            return False
        if any(name.rpartition("}")[2] not in _MATHML_ATTRIBUTES for name in element.attrib):
            return False
    return True


def _mathml(latex: str, *, display: bool) -> str:
    source = f'<code class="math-source">{html.escape(latex)}</code>'
    try:
        rendered = latex_to_mathml(latex.strip(), display="block" if display else "inline")
    except Exception:  # a formula latex2mathml cannot read is shown as its source, never a 500
        return source
    if not _safe_mathml(rendered):
        return source
    return f'<div class="math-display">{rendered}</div>' if display else rendered


def latex_to_html(latex: str, *, display: bool = False) -> str:
    """MathML for one LaTeX formula (its escaped source in <code> if it cannot be read)."""
    return _mathml(latex, display=display)


@lru_cache(maxsize=1024)
def render_markdown(text: str, *, escape_html: bool = False) -> str:
    """HTML for Markdown `text` whose `$...$` and `$$...$$` maths becomes MathML.

    With `escape_html`, HTML in the text (outside maths) is shown as text, never as markup:
    for text that may contain what a student typed, such as feedback quoting an answer.
    Pure and deterministic, so results are cached per process: the module's prose is the
    same for every request, and a variant's prompt for every visit of that student.
    """
    pieces: list[str] = []

    def stash(rendered: str) -> str:
        pieces.append(rendered)
        return _PLACEHOLDER.format(len(pieces) - 1)

    text = _DISPLAY.sub(lambda m: "\n\n" + stash(_mathml(m.group(1), display=True)) + "\n\n", text)
    text = _INLINE.sub(lambda m: stash(_mathml(m.group(1), display=False)), text)
    if escape_html:
        text = html.escape(text, quote=False)
    rendered = markdown.markdown(text, extensions=["extra", "sane_lists"], output_format="html")
    for index, piece in enumerate(pieces):
        placeholder = _PLACEHOLDER.format(index)
        rendered = rendered.replace(f"<p>{placeholder}</p>", piece).replace(placeholder, piece)
    return rendered
