"""The module page's shared content (sections' text, the module's introduction) is rendered
once for all students and rendered again when a sync changes it."""

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.urls import reverse

import student.templatetags.shared_content as shared
from courses.models import Section

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch) -> Iterator[list[str]]:
    """The texts actually rendered (the real renderer runs; each call is noted)."""
    seen: list[str] = []
    real = shared.render_markdown

    def noting(text: str, **kwargs):
        seen.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(shared, "render_markdown", noting)
    cache.clear()
    yield seen
    cache.clear()


def test_a_second_student_s_page_renders_no_shared_text_again(client, alice, bob, course,
                                                              renders):
    url = reverse("course-module", args=[course.slug])
    sections = Section.objects.active().filter(module_id=course.module_id).count()
    client.force_login(alice)
    first = client.get(url).content.decode()
    assert len(renders) == sections + 1  # each section's text and the introduction
    client.force_login(bob)
    second = client.get(url).content.decode()
    assert len(renders) == sections + 1
    body = Section.objects.active().filter(module_id=course.module_id).first()
    assert body is not None
    assert shared.render_markdown(body.body) in first and shared.render_markdown(body.body) in second


def test_a_synced_change_is_shown_at_once(client, alice, course, renders):
    url = reverse("course-module", args=[course.slug])
    client.force_login(alice)
    client.get(url)
    section = Section.objects.active().filter(module_id=course.module_id).order_by("order").first()
    assert section is not None
    section.body = "A new first paragraph about **attention**."
    section.save()  # as the sync does: updated_at moves with the change
    page = client.get(url).content.decode()
    assert "A new first paragraph about <strong>attention</strong>." in page
