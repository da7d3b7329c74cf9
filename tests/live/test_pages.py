"""The live pages: staff only where they should be, the no-JavaScript student flow, the CSV,
and opening the projector and phone pages in bounded queries whatever the number of answers."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from core.not_found import NotFound
from live.answers import live_answer_submit
from live.reveal import live_reveal
from live.selectors import live_phone_view
from live.sessions import live_session_run
from tests.live.conftest import enrol_students

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_student_answers_without_javascript_and_reloads_to_see_the_verdict(course, session, staff):
    (student,) = enrol_students(course, 1)
    phone = client_for(student)
    url = reverse("live:phone", args=[session.code.lower()])  # codes are read case-blind
    page = phone.get(url)
    assert page.status_code == 200 and b"Lock in my prediction" in page.content
    bad = phone.post(url, {"answer": "emperor"}, follow=True)
    assert b"Lock in my prediction" in bad.content  # unreadable: the form again, with its message
    assert b"Not understood" in bad.content
    locked = phone.post(url, {"answer": "queen"}, follow=True)
    assert b"locked" in locked.content and b"Lock in my prediction" not in locked.content
    live_session_run(session=session, staff=staff)
    live_reveal(session_id=session.pk)
    after = phone.get(url)
    assert b"The lab measured" in after.content and b"Correct" in after.content
    state = phone.get(reverse("live:phone-state", args=[session.code])).json()
    assert state["state"] == "revealed" and state["verdict"]["outcome"] == "correct"


def test_the_join_form_goes_to_the_code_typed(course, session):
    (student,) = enrol_students(course, 1)
    response = client_for(student).get(
        reverse("live:join"), {"code": f" {session.code[:3]}-{session.code[3:]} "}
    )
    assert response.status_code == 302 and response["Location"].endswith(f"/live/{session.code}/")


def test_the_module_page_shows_the_open_question_to_its_students(course, session):
    (student,) = enrol_students(course, 1)
    page = client_for(student).get(reverse("course-module", args=[course.slug]))
    assert b"Live now" in page.content and session.code.encode() in page.content


def test_staff_pages_are_for_staff_and_the_projector_says_it_needs_javascript(course, session, irene):
    (student,) = enrol_students(course, 1)
    projector = reverse("live:projector", args=[course.slug, session.pk])
    assert client_for(student).get(projector).status_code == 403
    assert (
        client_for(student).get(reverse("live:room-state", args=[course.slug, session.pk])).status_code == 403
    )
    page = client_for(irene).get(projector)
    assert page.status_code == 200
    assert b"no-js-only" in page.content and b"needs JavaScript" in page.content
    assert b"<svg" in page.content and session.code.encode() in page.content  # the QR code and code
    assert b"<script>" not in page.content  # scripts are static files only (CSP)


def test_a_student_of_another_course_cannot_open_the_phone_page(session, oscar):
    page = client_for(oscar).get(reverse("live:phone", args=[session.code]))
    assert page.status_code == 404 and b"This live question is for another course." in page.content
    assert live_phone_view(user=oscar, code=session.code) is NotFound.COURSE
    assert live_phone_view(user=AnonymousUser(), code=session.code) is NotFound.COURSE


def test_an_unknown_code_says_to_check_the_projector(session, oscar):
    unknown = "ZZZZZZ" if session.code != "ZZZZZZ" else "YYYYYY"
    page = client_for(oscar).get(reverse("live:phone", args=[unknown]))
    assert page.status_code == 404 and b"Check the code on the projector." in page.content
    assert live_phone_view(user=oscar, code=unknown) is NotFound.ITEM


def test_staff_open_control_and_run_through_the_pages(course, irene, analogy):
    staff = client_for(irene)
    opened = staff.post(reverse("live:open", args=[course.slug]), {"part": analogy.pk, "variant": "class"})
    assert opened.status_code == 302
    session_url = opened["Location"]
    session_id = int(session_url.rstrip("/").split("/")[-1])
    staff.post(reverse("live:control", args=[course.slug, session_id]), {"action": "close"})
    state = staff.get(reverse("live:room-state", args=[course.slug, session_id])).json()
    assert state["state"] == "closed"
    staff.post(reverse("live:run", args=[course.slug, session_id]))
    state = staff.get(reverse("live:room-state", args=[course.slug, session_id])).json()
    assert state["state"] == "running"
    listing = staff.get(reverse("live:sessions", args=[course.slug]))
    assert listing.status_code == 200 and b"Running the lab" in listing.content


def test_the_csv_has_every_answer_and_its_verdict(course, session, staff, irene):
    students = enrol_students(course, 2)
    live_answer_submit(session=session, student=students[0], raw_answer="queen")
    live_answer_submit(session=session, student=students[1], raw_answer="=far")
    live_answer_submit(session=session, student=students[1], raw_answer="far")
    live_session_run(session=session, staff=staff)
    live_reveal(session_id=session.pk)
    response = client_for(irene).get(reverse("live:csv", args=[course.slug, session.pk]))
    body = b"".join(response.streaming_content).decode()
    lines = body.strip().splitlines()
    assert len(lines) == 4  # header, two locked answers, one unreadable
    assert "'=far" in body  # no formula reaches a spreadsheet
    assert ",correct," in body and ",incorrect," in body
    report = client_for(irene).get(reverse("live:report", args=[course.slug, session.pk]))
    assert b"Near queen" in report.content and b"2 of 2 students" in report.content


@pytest.mark.parametrize("answers", [3, 30])
def test_projector_and_phone_pages_open_in_bounded_queries(
    course, session, irene, answers, django_assert_max_num_queries
):
    students = enrol_students(course, answers)
    for i, student in enumerate(students):
        live_answer_submit(session=session, student=student, raw_answer=["queen", "woman", "far"][i % 3])
    staff, phone = client_for(irene), client_for(students[0])
    with django_assert_max_num_queries(8):
        assert staff.get(reverse("live:projector", args=[course.slug, session.pk])).status_code == 200
    with django_assert_max_num_queries(10):
        assert staff.get(reverse("live:room-state", args=[course.slug, session.pk])).status_code == 200
    with django_assert_max_num_queries(12):
        assert phone.get(reverse("live:phone", args=[session.code])).status_code == 200
    with django_assert_max_num_queries(10):
        assert phone.get(reverse("live:phone-state", args=[session.code])).status_code == 200
