"""The language the course's own text is written in, for templates to mark it (WCAG 3.1.2)."""

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language


def content_language(request: HttpRequest) -> dict[str, str]:
    """`content_language`: the course's language (`Course.language`, which is also its
    content's) on a course's pages, else settings.LANGUAGE_CODE, when the page is in another
    language; "" when the page is in the content's own language. Authored text (sections,
    prompts, titles, the guides) carries it as its `lang` only when it is set: a part of a
    page needs a language of its own only where it differs from the page's."""
    language = str(getattr(request, "content_language", settings.LANGUAGE_CODE))
    page = (get_language() or settings.LANGUAGE_CODE).split("-")[0].lower()
    return {"content_language": "" if language.split("-")[0].lower() == page else language}
