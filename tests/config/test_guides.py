"""The guides served from docs/: a guide by name, and a 404 with its text for any other name
(config/guides.py's reader returns None; the view words the 404)."""

import pytest
from django.urls import reverse

from config.guides import guide_pages, guide_render

pytestmark = pytest.mark.django_db


def test_a_guide_is_served_and_an_unknown_name_is_404(client):
    name = next(iter(guide_pages()))
    assert client.get(reverse("guide", args=[name])).status_code == 200
    missing = client.get(reverse("guide", args=["no-such-guide"]))
    assert missing.status_code == 404 and b"No such guide." in missing.content
    assert guide_render("no-such-guide") is None
