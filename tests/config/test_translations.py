"""The interface's catalogues (locale/<code>/LC_MESSAGES/django.po): every string the templates
and the code mark for translation is in each, translated, not fuzzy, with the same
placeholders; the .mo the service loads is compiled from it (core/message_catalogs.py,
without GNU gettext) and agrees with msgfmt where msgfmt exists."""

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from core.message_catalogs import catalogs_compile, mo_bytes, po_read

ROOT = Path(settings.BASE_DIR)
#: Folders of the project that hold no interface string (makemessages skips them).
NOT_SCANNED = {".venv", ".venv-test", "var", "tests", "docs", "deploy", ".git", "locale",
               "node_modules", "test-artifacts"}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def _catalogue(code: str) -> Path:
    return ROOT / "locale" / code / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, Path]:
    """The catalogues as Django's makemessages makes them today from a copy of the project
    (the committed one merged with what the templates and code mark now)."""
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext's xgettext is needed (.ci/run installs the gettext package)")
    copy = tmp_path_factory.mktemp("project")
    for entry in ROOT.iterdir():
        if entry.name in NOT_SCANNED - {"locale"} or entry.name.startswith("."):
            continue
        if entry.is_dir():
            shutil.copytree(entry, copy / entry.name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.mo", "content"))
        else:
            shutil.copy2(entry, copy / entry.name)
    ignores = [f"--ignore={name}" for name in sorted(NOT_SCANNED - {"locale"})]
    for code in LANGUAGES:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", code, "--no-obsolete",
             "--add-location=file", *ignores], cwd=copy, check=True, capture_output=True,
            env={"DJANGO_SETTINGS_MODULE": "config.settings.test", "PATH": "/usr/bin:/bin",
                 "HOME": str(copy)})
    return {code: copy / "locale" / code / "LC_MESSAGES" / "django.po" for code in LANGUAGES}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_marked_string_is_translated_in_the_catalogue(extracted, code):
    """A string added to a template (or a gettext call) without its translation fails here,
    naming it."""
    entries = po_read(extracted[code])[1:]
    assert len(entries) > 700
    untranslated = [e.msgid for e in entries if not e.translated]
    assert untranslated == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_committed_catalogue_is_the_extracted_one(extracted, code):
    """No string left in the catalogue that nothing marks any more, none missing from it."""
    committed = {(e.msgctxt, e.msgid) for e in po_read(_catalogue(code))[1:]}
    current = {(e.msgctxt, e.msgid) for e in po_read(extracted[code])[1:]}
    assert sorted(current - committed, key=str) == []
    assert sorted(committed - current, key=str) == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_the_placeholders_of_their_message(code):
    for entry in po_read(_catalogue(code))[1:]:
        wanted = set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        for form in entry.msgstr:
            assert set(PLACEHOLDER.findall(form)) <= wanted, entry.msgid
            assert set(PLACEHOLDER.findall(form)) >= wanted - {"count"} or \
                entry.msgid_plural is not None, entry.msgid


def test_the_compiled_catalogue_is_what_msgfmt_would_load(tmp_path):
    """The pure-Python .mo holds the same messages as GNU msgfmt's (where it is installed)."""
    if shutil.which("msgfmt") is None:
        pytest.skip("no msgfmt here: the Python compiler is the only one")
    for code in LANGUAGES:
        ours = tmp_path / f"{code}-ours.mo"
        ours.write_bytes(mo_bytes(po_read(_catalogue(code))))
        theirs = tmp_path / f"{code}-msgfmt.mo"
        msgfmt = str(shutil.which("msgfmt"))
        subprocess.run([msgfmt, "-o", str(theirs), str(_catalogue(code))], check=True)
        with ours.open("rb") as a, theirs.open("rb") as b:
            mine, gnu = gettext.GNUTranslations(a)._catalog, gettext.GNUTranslations(b)._catalog
        # msgfmt leaves the POT-Creation-Date out of the header; the messages are what count
        assert {k: v for k, v in mine.items() if k} == {k: v for k, v in gnu.items() if k}


def test_catalogues_are_compiled_when_missing_or_older(tmp_path):
    po = tmp_path / "locale" / "xx" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  '#, fuzzy\nmsgid "Maybe"\nmsgstr "Vielleicht"\n\n'
                  'msgid "Yes"\nmsgstr "Ja"\n', encoding="utf-8")
    assert catalogs_compile(tmp_path) == [po.with_suffix(".mo")]
    assert catalogs_compile(tmp_path) == []  # up to date: not written again
    with po.with_suffix(".mo").open("rb") as mo:
        loaded = gettext.GNUTranslations(mo)
    assert loaded.gettext("Yes") == "Ja"
    assert loaded.gettext("Maybe") == "Maybe"  # fuzzy entries are left out, as msgfmt does


def test_german_pages_use_the_catalogue():
    with translation.override("de"):
        assert translation.gettext("Sign in") == "Anmelden"
        assert translation.gettext("Your courses") == "Ihre Kurse"
