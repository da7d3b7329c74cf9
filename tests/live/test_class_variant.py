"""Live questions in the class's numbers: the projector fills the prompt's placeholders, the
phones show the class's variant when the room shares one run (and each student's own when
each has their own run); the locked answer reads as its option's text; the revealed
feedback is rendered maths, on the page and in the JSON the phones' script shows (issue 37)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from courses.models import CourseModule, Enrollment, Module, Part
from grading.variant_assignment import variant_for
from live.access import LiveStaff
from live.answers import live_answer_submit
from live.reveal import live_reveal
from live.sessions import live_session_open, live_session_run
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def unscaled(course) -> Part:
    """Module 6's prediction "scores without the scale": its prompt says $d = {{ d }}$
    (default 512, a student's own variant may say 1024)."""
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    return Part.objects.select_related("exercise").get(exercise__slug="predict-unscaled-peak",
                                                       key="peak")


@pytest.fixture
def own_1024(course, unscaled):
    """A student of the course whose own variant has d = 1024 (the class's is 512)."""
    for i in range(40):
        user = UserFactory(username=f"v{i}")
        variant = variant_for(student=user, course=course, exercise=unscaled.exercise)
        if variant.params["d"] == 1024:
            EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
            return user
    pytest.fail("no student with d = 1024 among 40")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _width(html: str) -> str:
    """What the prompt's maths says d is ("512", "1,024"), read from its text."""
    text = re.sub(r"<[^>]+>", "", html)
    found = re.search(r"d=([0-9,]+)", text.replace(" ", ""))
    return found.group(1) if found else text


def _open(course, irene, part, variant):
    staff = LiveStaff(course=course, user=irene, role=Enrollment.Role.INSTRUCTOR)
    return staff, live_session_open(staff=staff, part_id=part.pk, variant=variant)


def test_the_projector_shows_the_class_numbers_not_the_placeholder(course, irene, unscaled):
    _, session = _open(course, irene, unscaled, "class")
    page = _client(irene).get(reverse("live:projector", args=[course.slug, session.pk]))
    prompt = page.content.decode().split('class="live-prompt"', 1)[1].split("</div>", 1)[0]
    assert _width(prompt) == "512"
    assert "{{" not in prompt


def test_a_class_variant_session_shows_every_phone_the_class_numbers(course, irene, unscaled,
                                                                     own_1024):
    _, session = _open(course, irene, unscaled, "class")
    page = _client(own_1024).get(reverse("live:phone", args=[session.code])).content.decode()
    prompt = page.split('class="live-prompt"', 1)[1].split("</div>", 1)[0]
    assert _width(prompt) == "512"


def test_an_own_variant_session_shows_each_phone_its_own_numbers(course, irene, unscaled,
                                                                 own_1024):
    _, session = _open(course, irene, unscaled, "own")
    page = _client(own_1024).get(reverse("live:phone", args=[session.code])).content.decode()
    prompt = page.split('class="live-prompt"', 1)[1].split("</div>", 1)[0]
    assert _width(prompt) == "1,024"
    projector = _client(irene).get(reverse("live:projector", args=[course.slug, session.pk]))
    text = projector.content.decode()
    assert _width(text.split('class="live-prompt"', 1)[1].split("</div>", 1)[0]) == "512"
    assert "each phone shows its student's own" in text


def test_the_locked_answer_reads_as_its_option_text_and_the_feedback_as_maths(
        course, irene, unscaled, own_1024):
    staff, session = _open(course, irene, unscaled, "class")
    live_answer_submit(session=session, student=own_1024, raw_answer="uniform")
    phone = _client(own_1024)
    url = reverse("live:phone", args=[session.code])
    locked = phone.get(url).content.decode()
    mine = locked.split('class="live-mine">', 1)[1].split("</p>", 1)[0]
    assert mine == "Nearly uniform: every key gets about 1/n"

    live_session_run(session=session, staff=staff)
    live_reveal(session_id=session.pk)
    revealed = phone.get(url).content.decode()
    feedback = revealed.split('class="feedback">', 1)[1].split("</div>", 1)[0]
    assert "<math" in feedback and "$" not in feedback
    verdict = phone.get(reverse("live:phone-state", args=[session.code])).json()["verdict"]
    assert verdict["answer_text"] == "Nearly uniform: every key gets about 1/n"
    assert "<math" in verdict["feedback_html"] and "$" not in verdict["feedback_html"]
