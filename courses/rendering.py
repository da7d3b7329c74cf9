"""Markdown with LaTeX maths rendered to HTML + MathML on the server (no network, no CDN)."""

import html
import re
from functools import lru_cache

import markdown
from latex2mathml.converter import convert as latex_to_mathml

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.DOTALL)
_PLACEHOLDER = "\x00MATH{}\x00"


def _mathml(latex: str, *, display: bool) -> str:
    try:
        rendered = latex_to_mathml(latex.strip(), display="block" if display else "inline")
    except Exception:  # a formula latex2mathml cannot read is shown as its source, never a 500
        return f'<code class="math-source">{html.escape(latex)}</code>'
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
