"""Integrity settings of an assessment's file: allowed networks (CIDR) and Safe Exam Browser
Config Keys, checked at sync (file:line) and on every request of an attempt (start, paper,
save, submit). A refused request says why and changes nothing; X-Forwarded-For counts only
when the deployment says how many proxies append to it (SIGN_IN_PROXY_COUNT)."""

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from courses.services import ContentInvalid, content_sync
from exams.integrity import SEB_HEADER, address_allowed, seb_config_key_hash
from exams.models import Answer, Assessment, Attempt
from tests.exams.conftest import small_module_with_quiz
from tests.exams.test_bad_input import exam_tables
from tests.exams.test_pages import _fields

pytestmark = pytest.mark.django_db

ROOM = "192.0.2.0/24"
INSIDE, OUTSIDE = "192.0.2.17", "203.0.113.9"
KEY = "a" * 40 + "0123456789abcdef01234567"


def _client(user, **meta: str) -> Client:
    client = Client()
    client.defaults.update(meta)
    client.force_login(user)
    return client


def _guard(quiz, *, networks: list[str] | None = None, keys: list[str] | None = None) -> None:
    Assessment.objects.filter(pk=quiz.assessment.pk).update(networks=networks or [],
                                                            seb_config_keys=keys or [])


def _start_url(quiz) -> str:
    return reverse("exams:start", args=[quiz.course.slug, quiz.assessment.slug])


def test_networks_and_seb_keys_are_synced_and_bad_ones_are_file_line_errors(tmp_path: Path):
    folder = small_module_with_quiz(tmp_path)
    quiz = folder / "assessments" / "quiz-1.toml"
    text = quiz.read_text(encoding="utf-8")
    good = text.replace('key = "on_release"\n', 'key = "on_release"\n'
                        f'networks = ["{ROOM}", "2001:db8::/48"]\n'
                        f'seb_config_keys = ["{KEY.upper()}"]\n')
    quiz.write_text(good, encoding="utf-8")
    content_sync(root=folder)
    synced = Assessment.objects.get(slug="quiz-1")
    assert synced.networks == [ROOM, "2001:db8::/48"] and synced.seb_config_keys == [KEY]
    quiz.write_text(text.replace('key = "on_release"\n', 'key = "on_release"\n'
                                 'networks = ["192.0.2.1/24", "lab"]\n'
                                 'seb_config_keys = ["not-a-key"]\n'), encoding="utf-8")
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=folder)
    problems = [str(e) for e in caught.value.errors]
    assert any(":15: networks: '192.0.2.1/24' is not a network range" in p and "host bits" in p
               for p in problems), problems
    assert any(":15: networks: 'lab' is not a network range" in p for p in problems)
    assert any(":16: seb_config_keys: 'not-a-key' is not a Safe Exam Browser Config Key" in p
               for p in problems)
    assert Assessment.objects.get(slug="quiz-1").networks == [ROOM, "2001:db8::/48"]


def test_address_ranges_hold_ipv4_and_ipv6_and_nonsense_is_outside():
    assert address_allowed(INSIDE, [ROOM]) and not address_allowed(OUTSIDE, [ROOM])
    assert address_allowed("2001:db8::5", ["10.0.0.0/8", "2001:db8::/48"])
    assert not address_allowed("", [ROOM]) and not address_allowed("192.0.2.x", [ROOM])


def test_a_start_from_outside_the_networks_is_refused_and_changes_nothing(quiz_course):
    _guard(quiz_course, networks=[ROOM])
    before = exam_tables()
    page = _client(quiz_course.student, REMOTE_ADDR=OUTSIDE).post(_start_url(quiz_course),
                                                                  follow=True)
    assert "can only be taken from the network of the exam room" in page.content.decode()
    assert OUTSIDE in page.content.decode()
    assert exam_tables() == before
    inside = _client(quiz_course.student, REMOTE_ADDR=INSIDE).post(_start_url(quiz_course))
    assert inside.status_code == 302 and Attempt.objects.count() == 1


def test_a_forwarded_address_counts_only_behind_the_configured_proxies(quiz_course, settings):
    _guard(quiz_course, networks=[ROOM])
    spoofed = _client(quiz_course.student, REMOTE_ADDR=OUTSIDE,
                      HTTP_X_FORWARDED_FOR=INSIDE).post(_start_url(quiz_course), follow=True)
    assert "network of the exam room" in spoofed.content.decode()
    assert not Attempt.objects.exists()
    settings.AXES_IPWARE_PROXY_COUNT = 1
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
    proxied = _client(quiz_course.student, REMOTE_ADDR="10.0.0.1",
                      HTTP_X_FORWARDED_FOR=f"{INSIDE}, 10.0.0.2").post(_start_url(quiz_course))
    assert proxied.status_code == 302 and Attempt.objects.count() == 1


def test_saving_or_opening_the_paper_from_outside_changes_no_draft(quiz_course):
    _guard(quiz_course, networks=[ROOM])
    room = _client(quiz_course.student, REMOTE_ADDR=INSIDE)
    room.post(_start_url(quiz_course))
    attempt = Attempt.objects.get()
    save = reverse("exams:save", args=[quiz_course.course.slug, attempt.pk])
    fields = _fields(attempt)
    assert room.post(save, fields, HTTP_X_EXAM_SAVE="1").status_code == 200
    saved = sorted(Answer.objects.values_list("raw", flat=True))
    before = exam_tables()
    home = _client(quiz_course.student, REMOTE_ADDR=OUTSIDE)
    answer = home.post(save, {name: "7" for name in fields}, HTTP_X_EXAM_SAVE="1")
    assert answer.status_code == 403 and "network of the exam room" in answer.json()["message"]
    paper = home.get(reverse("exams:attempt", args=[quiz_course.course.slug, attempt.pk]))
    assert paper.status_code == 403 and "network of the exam room" in paper.content.decode()
    submit = reverse("exams:submit", args=[quiz_course.course.slug, attempt.pk])
    assert "network of the exam room" in home.post(submit, follow=True).content.decode()
    assert exam_tables() == before
    assert sorted(Answer.objects.values_list("raw", flat=True)) == saved


def test_safe_exam_browser_is_needed_with_the_exams_config_key(quiz_course):
    _guard(quiz_course, keys=[KEY])
    url = _start_url(quiz_course)
    before = exam_tables()
    for header in ({}, {SEB_HEADER: seb_config_key_hash("http://testserver" + url, "b" * 64)},
                   {SEB_HEADER: seb_config_key_hash("http://testserver/elsewhere/", KEY)}):
        page = _client(quiz_course.student).post(url, follow=True, headers=header)
        assert "must be taken in Safe Exam Browser" in page.content.decode()
    assert exam_tables() == before
    seb = _client(quiz_course.student)
    started = seb.post(url, headers={SEB_HEADER: seb_config_key_hash("http://testserver" + url,
                                                                      KEY)})
    assert started.status_code == 302 and Attempt.objects.count() == 1
    paper = started["Location"]
    assert seb.get(paper, headers={
        SEB_HEADER: seb_config_key_hash("http://testserver" + paper, KEY)}).status_code == 200
    assert seb.get(paper).status_code == 403  # the same session, without SEB's header
