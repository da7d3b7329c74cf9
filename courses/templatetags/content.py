"""Template filters for course content."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from courses.rendering import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """Render trusted content Markdown (authored in git, never student input) with MathML."""
    return mark_safe(render_markdown(text))  # noqa: S308 (content files are trusted authoring)


@register.filter(name="feedback")
def feedback_filter(text: str) -> SafeString:
    """Render feedback Markdown with MathML, showing any HTML in it as text (feedback can
    quote what a student typed)."""
    return mark_safe(render_markdown(text, escape_html=True))  # noqa: S308 (HTML escaped first)


@register.filter(name="inline_markdown")
def inline_markdown_filter(text: str) -> SafeString:
    """Render a one-line content string (a title) with its maths, without a paragraph."""
    rendered = render_markdown(text).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>"):
        rendered = rendered[3:-4]
    return mark_safe(rendered)  # noqa: S308 (content files are trusted authoring)
