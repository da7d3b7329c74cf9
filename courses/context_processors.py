"""The language the course's own text is written in, for templates to mark it (WCAG 3.1.2)."""

from django.conf import settings
from django.http import HttpRequest


def content_language(request: HttpRequest) -> dict[str, str]:
    """`content_language`: the course's language (`Course.language`, which is also its
    content's) on a course's pages, else settings.LANGUAGE_CODE; authored text (sections,
    prompts, titles, the guides) carries it as its `lang` when the page is in another."""
    return {"content_language": getattr(request, "content_language", settings.LANGUAGE_CODE)}
