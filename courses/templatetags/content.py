"""Template filters for course content and feedback: Markdown with MathML, always sanitised.

Each filter's HTML comes from `courses.rendering`, which passes it through the one sanitiser
(`courses.sanitizer`), so marking it safe here is sound for any text, trusted or not.
"""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from courses.feedback_translation import feedback_pieces
from courses.rendering import render_inline_markdown, render_markdown

register = template.Library()


def _text(value: object) -> str:
    return "" if value is None else str(value)


@register.filter(name="markdown")
def markdown_filter(text: object) -> SafeString:
    """Render content Markdown (authored in git) with MathML; HTML in it is kept when the
    sanitiser allows it."""
    return mark_safe(render_markdown(_text(text)))  # noqa: S308 (sanitised by render_markdown)


#: Around stored sentences while the Markdown is rendered (private-use characters: never
#: typed, kept by the sanitiser), then the element that marks their language.
_STORED_START, _STORED_END = "\ue000", "\ue001"


@register.filter(name="feedback")
def feedback_filter(text: object, stored_language: str = "") -> SafeString:
    """Render feedback Markdown with MathML, showing any HTML in it as text (feedback can
    quote what a student typed, a review comment is what a TA typed). The checkers' messages
    in it are shown in the page's language (courses/feedback_translation.py); with
    `stored_language` (the course's content language) and a page in another language, the
    sentences shown as stored (an author's feedback) are marked with it (WCAG 3.1.2)."""
    pieces = feedback_pieces(_text(text))
    mark = bool(stored_language) and not (get_language() or "en").startswith(stored_language)
    shown = " ".join(piece if interface or not mark or "\n\n" in piece
                     else f"{_STORED_START}{piece}{_STORED_END}"
                     for piece, interface in pieces)
    html = render_markdown(shown.replace(_STORED_START, "").replace(_STORED_END, "")
                           if not mark else shown, escape_html=True)
    html = html.replace(_STORED_START, f'<span lang="{escape(stored_language)}">') \
        .replace(_STORED_END, "</span>")
    return mark_safe(html)  # noqa: S308 (sanitised; the spans are ours)


@register.filter(name="inline_markdown")
def inline_markdown_filter(text: object) -> SafeString:
    """Render a one-line content string (a title) with its maths, without a paragraph."""
    return mark_safe(render_inline_markdown(_text(text)))  # noqa: S308 (sanitised)


@register.filter(name="inline_feedback")
def inline_feedback_filter(text: object) -> SafeString:
    """A one-line piece of untrusted text (a misconception label, a short comment) with its
    maths, HTML shown as text, without a paragraph."""
    return mark_safe(render_inline_markdown(_text(text), escape_html=True))  # noqa: S308 (sanitised)
