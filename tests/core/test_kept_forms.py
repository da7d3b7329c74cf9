"""The refusal of a kept answer form (core/kept_forms.py), built from the request alone: the
registered routes are found, the typed answer comes back escaped in a form that posts to the
same address with a CSRF token from the cookie, and the page's script gets JSON instead.
(The database outages that lead here are tested on PostgreSQL in tests/ops.)"""

import json

from django.middleware.csrf import _get_new_csrf_string
from django.test import RequestFactory

from core.kept_forms import kept_form_for, kept_form_refusal
from tests.kept_forms import kept_form

ANSWER = "/courses/rnn-autumn/parts/7/answer/"


def test_the_answer_routes_are_kept_and_other_posts_are_not() -> None:
    factory = RequestFactory()
    form, kwargs = kept_form_for(factory.post(ANSWER, {"answer": "1"})) or (None, {})
    assert form is not None and form.fields == ("answer",)
    assert form.back is not None and form.back(kwargs) == "/courses/rnn-autumn/"
    assert kept_form_for(factory.post("/live/ABCD/", {"answer": "queen"})) is not None
    assert kept_form_for(factory.get(ANSWER)) is None
    assert kept_form_for(factory.post("/accounts/login/", {"password": "x"})) is None


def test_the_refusal_page_holds_the_typed_answer_escaped_with_a_token_from_the_cookie() -> None:
    request = RequestFactory().post(ANSWER, {"answer": "</textarea><script>x</script>"})
    request.COOKIES["csrftoken"] = _get_new_csrf_string()
    form, kwargs = kept_form_for(request) or (None, {})
    assert form is not None
    response = kept_form_refusal(request, form, kwargs, retry_after=7)
    page = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"] == "7"
    assert "NOT saved" in page and "<script>x" not in page
    kept = kept_form(page)
    assert kept.action == ANSWER and kept.fields["answer"] == "</textarea><script>x</script>"
    assert len(kept.fields["csrfmiddlewaretoken"]) == 64
    assert 'href="/courses/rnn-autumn/"' in page


def test_the_page_script_is_told_in_json_that_the_answer_was_not_saved() -> None:
    request = RequestFactory().post(ANSWER, {"answer": "0.5"}, HTTP_X_ANSWER_FRAGMENT="1")
    form, kwargs = kept_form_for(request) or (None, {})
    assert form is not None
    response = kept_form_refusal(request, form, kwargs, retry_after=10)
    assert response.status_code == 503 and response["Retry-After"] == "10"
    body = json.loads(response.content)
    assert body["saved"] is False and body["code"] == "database_unavailable"
