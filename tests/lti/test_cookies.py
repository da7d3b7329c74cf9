"""Inside the LMS's iframe the browser sends only SameSite=None; Secure cookies: LTI
responses over HTTPS set the session and CSRF cookies so; every other page keeps Lax."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from django.test import Client

from tests.factories import TEST_PASSWORD
from tests.lti.platform import INSTRUCTOR, LaunchSpec, Platform, parse_launch_form

ROOT = Path(__file__).resolve().parents[2]


def test_production_cookies_are_samesite_lax_and_secure_by_default():
    environment = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "DATABASE_URL")}
    environment.update(SECRET_KEY="x" * 50, DJANGO_SETTINGS_MODULE="config.settings.production")
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.SESSION_COOKIE_SAMESITE, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SAMESITE, "
            "s.CSRF_COOKIE_SECURE, s.LTI_ALLOW_HTTP_KEYSET)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Lax", "True", "Lax", "True", "False"]


@pytest.mark.django_db(transaction=True)
def test_a_launch_over_https_sets_samesite_none_secure_cookies(lms_server, module_05, settings):
    from django.core.cache import cache
    from lti_tool.models import Key

    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    cache.clear()
    Key.objects.generate()
    platform = Platform(lms_server, "https://testserver")
    platform.register_in_tool()
    browser = Client()
    start = requests.get(platform.launch_url(LaunchSpec("teacher-1", [INSTRUCTOR])),
                         allow_redirects=False, timeout=10)
    login = urlsplit(start.headers["Location"])
    answer = browser.get(f"{login.path}?{login.query}&lti1p3_new_window=1", secure=True)
    assert answer.status_code == 302
    for name in ("lti1p3-session-id",):  # pylti1p3's own cookies over HTTPS
        assert browser.cookies[name]["samesite"] == "None" and browser.cookies[name]["secure"]
    _, fields = parse_launch_form(requests.get(answer["Location"], timeout=10).text)

    launched = browser.post("/lti/launch/", fields, secure=True)

    assert launched.status_code == 302, launched.content[:500]
    for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
        cookie = launched.cookies[name]
        assert cookie["samesite"] == "None" and cookie["secure"], name
    # Pages of the launched session keep None (the iframe); they renew the CSRF cookie so.
    page = browser.get(launched["Location"], secure=True)
    assert page.status_code == 200


@pytest.mark.django_db
def test_a_sign_in_outside_lti_sets_samesite_lax_cookies(settings, alice):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    browser = Client()
    form = browser.get("/accounts/login/", secure=True)
    assert form.cookies[settings.CSRF_COOKIE_NAME]["samesite"] == "Lax"

    signed_in = browser.post("/accounts/login/", {"username": "alice", "password": TEST_PASSWORD},
                             secure=True)

    assert signed_in.status_code == 302, signed_in.content[:300]
    for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
        cookie = signed_in.cookies[name]
        assert cookie["samesite"] == "Lax" and cookie["secure"], name
