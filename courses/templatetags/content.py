"""Template filters for course content and feedback: Markdown with MathML, always sanitised.

Each filter's HTML comes from `courses.rendering`, which passes it through the one sanitiser
(`courses.sanitizer`), so marking it safe here is sound for any text, trusted or not.
"""

from django import template
from django.utils.safestring import SafeString, mark_safe

from courses.rendering import render_inline_markdown, render_markdown

register = template.Library()


def _text(value: object) -> str:
    return "" if value is None else str(value)


@register.filter(name="markdown")
def markdown_filter(text: object) -> SafeString:
    """Render content Markdown (authored in git) with MathML; HTML in it is kept when the
    sanitiser allows it."""
    return mark_safe(render_markdown(_text(text)))  # noqa: S308 (sanitised by render_markdown)


@register.filter(name="feedback")
def feedback_filter(text: object) -> SafeString:
    """Render feedback Markdown with MathML, showing any HTML in it as text (feedback can
    quote what a student typed, a review comment is what a TA typed)."""
    return mark_safe(render_markdown(_text(text), escape_html=True))  # noqa: S308 (sanitised)


@register.filter(name="inline_markdown")
def inline_markdown_filter(text: object) -> SafeString:
    """Render a one-line content string (a title) with its maths, without a paragraph."""
    return mark_safe(render_inline_markdown(_text(text)))  # noqa: S308 (sanitised)


@register.filter(name="inline_feedback")
def inline_feedback_filter(text: object) -> SafeString:
    """A one-line piece of untrusted text (a misconception label, a short comment) with its
    maths, HTML shown as text, without a paragraph."""
    return mark_safe(render_inline_markdown(_text(text), escape_html=True))  # noqa: S308 (sanitised)
