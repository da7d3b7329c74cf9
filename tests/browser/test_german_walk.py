"""Issue 43, the second language: the accessibility walk's pages of every role, shown in German
(the browser asks for it: Accept-Language de), have the page language "de", no WCAG 2.2 A/AA
violation that axe-core finds, and no untranslated interface string.

An untranslated string is a piece of text (a text node, or an aria-label, title, placeholder
or alt) that the same page shows unchanged in English, unless it is not the interface's: text
inside an element marked with another language (`lang="en"` on the course's own text, WCAG
3.1.2) or `translate="no"` (names, codes, answers as typed), a translation that is spelled the
same in both languages (a msgstr of the catalogue: "Name", "Code", "Live"), or no words at all
(numbers, dates, punctuation).
"""

import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page

from core.message_catalogs import po_read
from tests.browser.axe import axe_in_every_page, wcag_violations
from tests.browser.test_accessibility_walk import (
    ANONYMOUS,
    INSTRUCTOR_PAGES,
    STUDENT,
    TA,
    Visit,
    World,
    _world,
)
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.services

#: The text of a page a person reads, outside the parts that are not the interface's.
_TEXTS = """() => {
  const out = [];
  const foreign = (e) => {
    const marked = e.closest("[lang]");
    return e.closest("[translate=no], script, style, noscript, template, code, kbd, samp, pre")
           || (marked && !marked.getAttribute("lang").startsWith(document.documentElement.lang));
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    if (text && !foreign(n.parentElement)) out.push(text);
  }
  for (const e of document.querySelectorAll("[aria-label], [title], [placeholder], img[alt]")) {
    if (foreign(e)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = (e.getAttribute(name) || "").replace(/\\s+/g, " ").trim();
      if (value) out.push(value);
    }
  }
  return out;
}"""

#: Words: two letters in a row (numbers, dates' digits and punctuation alone are not strings).
_WORDS = re.compile(r"[^\W\d_]{2}")


def _catalogue_same_spelling() -> set[str]:
    """Translations spelled as their English: legitimately the same on both pages."""
    entries = po_read(Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po")
    same = set()
    for entry in entries:
        for form in entry.msgstr:
            same.add(re.sub(r"\s+", " ", form).strip())
    return same


def _context(browser: Browser, locale: str) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True,
                                  locale=locale, extra_http_headers={"Accept-Language": locale})
    axe_in_every_page(context)
    return context


def _sign_in(page: Page, live_server, username: str) -> None:
    """The sign-in form by its fields' ids (its labels are in the page's language)."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", TEST_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/")


def _show(page: Page, visit: Visit, url: str) -> None:
    if visit.arrive is None:
        page.goto(url)
    else:
        visit.arrive(page, url)


def _texts(page: Page) -> list[str]:
    return list(page.evaluate(_TEXTS))


ROLES: dict[str, tuple[str | None, list[Visit]]] = {
    "anonymous": (None, ANONYMOUS),
    "student": ("alice", STUDENT),
    "TA": ("tara", TA),
    "instructor": ("irene", INSTRUCTOR_PAGES),
}


#: Pages whose own interface text is translated but which still show English the check finds:
#: the staff pages (charts drawn in Python, the author's rubric and misconception texts not yet
#: marked with their language, role codes) and the exams pages (translated after the exams
#: work of issue 40 settles). Their language and axe are checked; their strings are not yet.
#: A page listed here that shows no untranslated string fails the test: take it off the list.
UNFINISHED = {
    "dashboard:overview", "dashboard:matrix", "dashboard:statistics", "dashboard:part",
    "dashboard:preview", "dashboard:misconceptions", "dashboard:labs", "dashboard:student",
    "dashboard:reviews", "dashboard:deadlines", "dashboard:content", "dashboard:people",
    "lti-sync:health", "live:sessions", "live:projector", "live:report", "exams:list",
    "exams:assessment", "exams:attempt",
}


def _data(world: World) -> set[str]:
    """What the world itself put on the pages: names, titles, codes (the same in any
    language)."""
    values = {world.course.title, world.course.slug}
    for user in User.objects.all():
        values |= {user.username, user.get_full_name(), user.email}
    return {v for v in values if v}


def test_every_page_of_the_walk_in_german_is_translated_and_has_no_wcag_violation(
        browser: Browser, live_server, course, alice, tara, irene, settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    world = _world(course, alice, tara, irene)
    same = _catalogue_same_spelling() | _data(world)
    problems: list[str] = []
    finished: dict[str, bool] = {}
    for role, (username, visits) in ROLES.items():
        german, english = _context(browser, "de-DE"), _context(browser, "en-US")
        try:
            de_page, en_page = german.new_page(), english.new_page()
            if username is not None:
                _sign_in(de_page, live_server, username)
                _sign_in(en_page, live_server, username)
            for visit in visits:
                url = f"{live_server.url}{visit.url(world)}"
                _show(de_page, visit, url)
                _show(en_page, visit, url)
                label = f"{role} {visit.route} {urlparse(de_page.url).path}"
                if de_page.evaluate("document.documentElement.lang") != "de":
                    problems.append(f"{label}: the page's language is not de")
                problems += [f"{label}: {v}" for v in wcag_violations(de_page)]
                english_texts = set(_texts(en_page))
                untranslated = sorted({
                    text for text in _texts(de_page)
                    if text in english_texts and text not in same and _WORDS.search(text)})
                if visit.route in UNFINISHED:
                    finished.setdefault(visit.route, True)
                    finished[visit.route] &= not untranslated
                else:
                    problems += [f"{label}: untranslated {text!r}" for text in untranslated]
        finally:
            german.close()
            english.close()
    problems += [f"{route}: no untranslated string left, take it off UNFINISHED"
                 for route, done in finished.items() if done]
    assert not problems, "\n".join(problems)
