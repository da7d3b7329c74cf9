"""The page's language: the person's choice > the LMS launch's locale > the course's default >
Accept-Language > English (courses/languages.py), and the Language page that sets the first."""

import pytest
from django.test import Client
from django.utils import translation

from courses.languages import (
    CHOSEN_KEY,
    LAUNCH_KEY,
    course_file_language,
    course_language_apply,
    language_resolve,
    language_supported,
    launch_locale_keep,
)
from courses.models import Course, LanguagePreference


@pytest.mark.parametrize(("candidates", "chosen"), [
    ({"chosen": "de", "launch": "en", "course": "en", "accepted": "en"}, "de"),
    ({"chosen": None, "launch": "de-DE", "course": "en", "accepted": "en"}, "de"),
    ({"chosen": None, "launch": None, "course": "de", "accepted": "en"}, "de"),
    ({"chosen": None, "launch": None, "course": None, "accepted": "de"}, "de"),
    ({"chosen": None, "launch": None, "course": None, "accepted": None}, "en"),
    ({"chosen": "fr", "launch": "fr-CA", "course": "de", "accepted": "en"}, "de"),
    ({"chosen": "", "launch": "", "course": "", "accepted": "de"}, "de"),
])
def test_the_first_rule_naming_a_language_the_service_has_wins(candidates, chosen):
    assert language_resolve(**candidates) == chosen


@pytest.mark.parametrize(("code", "supported"), [
    ("de", "de"), ("de-DE", "de"), ("de_AT", "de"), ("DE-ch", "de"), ("en-US", "en"),
    ("fr", None), ("", None), (None, None),
])
def test_regional_codes_are_read_as_their_language(code, supported):
    assert language_supported(code) == supported


def test_the_launch_locale_is_kept_and_forgotten_by_the_next_launch():
    session: dict = {}
    launch_locale_keep(session=session, locale="de-DE")
    assert session[LAUNCH_KEY] == "de"
    launch_locale_keep(session=session, locale="fr-FR")
    assert LAUNCH_KEY not in session


def _page_language(client: Client, url: str, accept: str = "") -> str:
    response = client.get(url, headers={"Accept-Language": accept} if accept else None)
    assert response.status_code == 200
    return response.headers["Content-Language"]


def test_a_course_default_sets_its_pages_and_the_browser_the_others(client, alice, course):
    client.force_login(alice)
    Course.objects.filter(pk=course.pk).update(language="de")
    assert _page_language(client, f"/courses/{course.slug}/") == "de"
    assert _page_language(client, "/") == "en"
    assert _page_language(client, "/", "de-DE,de;q=0.9") == "de"
    page = client.get(f"/courses/{course.slug}/").content.decode()
    assert '<html lang="de">' in page and "Zum Inhalt springen" in page


def test_the_persons_choice_beats_the_launch_and_the_course(client, alice, course):
    Course.objects.filter(pk=course.pk).update(language="de")
    client.force_login(alice)
    session = client.session
    session[LAUNCH_KEY] = "de"
    session.save()
    response = client.post("/accounts/language/", {"language": "en", "next": "/"})
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert LanguagePreference.objects.get(user=alice).language == "en"
    assert client.session[CHOSEN_KEY] == "en"
    assert _page_language(client, f"/courses/{course.slug}/") == "en"


def test_the_choice_follows_the_person_to_a_new_sign_in(client, alice):
    LanguagePreference.objects.create(user=alice, language="de")
    other = Client()
    other.force_login(alice)
    assert _page_language(other, "/") == "de"


def test_clearing_the_choice_hands_the_decision_back(client, alice):
    client.force_login(alice)
    client.post("/accounts/language/", {"language": "de"})
    client.post("/accounts/language/", {"language": ""})
    assert not LanguagePreference.objects.filter(user=alice).exists()
    assert _page_language(client, "/") == "en"


def test_an_unknown_language_is_refused_and_an_outside_next_ignored(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/language/", {"language": "xx"})
    assert response.headers["Location"] == "/accounts/language/"
    assert not LanguagePreference.objects.filter(user=alice).exists()
    response = client.post("/accounts/language/", {"language": "de",
                                                    "next": "https://elsewhere.example/"})
    assert response.headers["Location"] == "/accounts/language/"


def test_the_language_page_lists_the_languages_in_their_own_names(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/language/").content.decode()
    assert 'lang="de">Deutsch</label>' in page


@pytest.mark.parametrize(("data", "result"), [
    ({}, (None, None)),
    ({"language": "de"}, ("de", None)),
    ({"language": "de-AT"}, ("de", None)),
    ({"language": ""}, ("", None)),
])
def test_the_course_files_language_key(data, result):
    assert course_file_language(data) == result


def test_a_course_file_naming_no_language_of_the_service_is_a_problem():
    code, problem = course_file_language({"language": "klingon"})
    assert code is None and problem is not None and "language must be one of en, de" in problem


def test_the_course_files_language_becomes_the_courses_default(course):
    assert course_language_apply(course, "de") == ["course language: de"]
    assert Course.objects.get(pk=course.pk).language == "de"
    assert course_language_apply(course, "de") == []
    assert course_language_apply(course, None) == []


def test_dates_and_numbers_follow_the_page_language():
    from datetime import date

    from django.utils.formats import date_format, number_format
    with translation.override("de"):
        assert date_format(date(2026, 12, 8)) == "8. Dezember 2026"
        assert number_format(0.85, 2) == "0,85"
