"""The author preview shows the spread of a part's key over all the variants."""

import pytest
from django.urls import reverse

from courses.models import Exercise

pytestmark = pytest.mark.django_db


def test_the_preview_shows_the_key_from_its_least_to_its_greatest_variant(client, course, irene):
    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    client.force_login(irene)
    page = client.get(reverse("dashboard:preview", args=[course.slug, exercise.pk])).content.decode()
    spread = page.split('<dd class="key-spread">')[1].split("</dd>")[0]
    # sigma in 0.8..0.95, steps in 20..60: 0.8^60 = 1.532e-06 to 0.95^20 = 0.3585; variant 0
    # repeats one of the 36 combinations.
    assert "Key over 37 variants" in page
    assert spread.startswith("1.532e-06 to 0.3585 (median 0.007631; ")
    assert "36 distinct" in spread and "largest/smallest magnitude 2.34e+05" in spread
