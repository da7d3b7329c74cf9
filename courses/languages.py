"""Which language a request's pages are in: the one decision (docs/adding-a-language.md).

Precedence, first that applies:

1. the person's own choice (their Language page; kept in `LanguagePreference` and copied into
   the session at sign-in, so a request reads no row for it);
2. the locale of the LMS launch that opened the session (LTI 1.3's `launch_presentation`
   claim, kept in the session by the launch);
3. the course's default (`Course.language`, set by `language = "de"` in course.toml), on the
   pages of that course;
4. the browser's Accept-Language;
5. settings.LANGUAGE_CODE.

Only the languages of settings.LANGUAGES are chosen: anything else (a "fr-CA" locale with no
French catalogue) falls through to the next rule; a regional code ("de-AT", "de_CH") is read
as its language ("de").
"""

from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils.translation import get_supported_language_variant

from core.content_cache import content_cached
from courses.models import Course, LanguagePreference

#: Session keys: the person's choice, and the locale of the LMS launch.
CHOSEN_KEY = "language_chosen"
LAUNCH_KEY = "language_launch"


def language_supported(code: str | None) -> str | None:
    """The code of settings.LANGUAGES that `code` names ("de", "de-AT", "de_CH" -> "de"); None
    when `code` is empty or names no language the service has."""
    if not code:
        return None
    try:
        return get_supported_language_variant(code.replace("_", "-").lower())
    except LookupError:
        return None


def language_resolve(*, chosen: str | None, launch: str | None, course: str | None,
                     accepted: str | None) -> str:
    """The language of a page from the candidates in order of precedence (the module's
    docstring): the first that names a supported language, else settings.LANGUAGE_CODE."""
    for candidate in (chosen, launch, course, accepted):
        code = language_supported(candidate)
        if code is not None:
            return code
    return settings.LANGUAGE_CODE


def course_language(*, slug: str) -> str | None:
    """The default language of course `slug` ('' or None when it has none; no query when
    cached: a course's row changes only by a staff edit or a sync, which bump the content
    version)."""
    return content_cached(f"course-language:{slug}", lambda: Course.objects.filter(
        slug=slug).values_list("language", flat=True).first())


def language_preference_set(*, user: Any, language: str, session: Any = None) -> str:
    """Keep `language` (a code of settings.LANGUAGES; '' clears the choice) as the person's
    own choice, and in `session` when given. Returns the code kept ('' when cleared).
    Raises ValueError for a language the service does not have."""
    code = language_supported(language) if language else ""
    if code is None:
        raise ValueError(f"no such language: {language!r}")
    if code:
        LanguagePreference.objects.update_or_create(user=user, defaults={"language": code})
    else:
        LanguagePreference.objects.filter(user=user).delete()
    if session is not None:
        if code:
            session[CHOSEN_KEY] = code
        else:
            session.pop(CHOSEN_KEY, None)
    return code


def language_preference(*, user: Any) -> str:
    """The person's own choice ('' when they made none)."""
    return LanguagePreference.objects.filter(user=user).values_list(
        "language", flat=True).first() or ""


def launch_locale_keep(*, session: Any, locale: str | None) -> None:
    """Keep the LMS launch's locale in `session` (rule 2), or forget an earlier launch's when
    this launch names none the service has."""
    code = language_supported(locale)
    if code is None:
        session.pop(LAUNCH_KEY, None)
    else:
        session[LAUNCH_KEY] = code


@receiver(user_logged_in, dispatch_uid="courses.languages.chosen_at_sign_in")
def _chosen_at_sign_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """At sign-in the person's choice is copied into their session (one query, then none)."""
    if request is None or not hasattr(request, "session"):
        return
    chosen = language_preference(user=user)
    if chosen:
        request.session[CHOSEN_KEY] = chosen
    else:
        request.session.pop(CHOSEN_KEY, None)


def course_file_language(data: dict[str, Any]) -> tuple[str | None, str | None]:
    """The `language` key of a course file's data: (its code, None), (None, None) when the
    file has none, or (None, the problem) when it names no language the service has."""
    if "language" not in data:
        return None, None
    value = data["language"]
    if value == "":
        return "", None
    code = language_supported(value) if isinstance(value, str) else None
    if code is None:
        names = ", ".join(code for code, _ in settings.LANGUAGES)
        return None, f"language must be one of {names} (or \"\" for none), not {value!r}"
    return code, None


def course_language_apply(course: Course, language: str | None) -> list[str]:
    """Make `language` the course's default (None: the course file does not say; left as
    it is). Returns the change, in words, for the sync's report ([] when unchanged)."""
    if language is None or course.language == language:
        return []
    Course.objects.filter(pk=course.pk).update(language=language)
    course.language = language
    return [f"course language: {language or 'none'}"]
