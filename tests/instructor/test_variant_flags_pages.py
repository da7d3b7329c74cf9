"""The statistics page lists the variants flagged harder; a part's page shows every variant's
first-attempt success, interval, p-value and flag."""

import pytest

from courses.models import Part
from tests.factories import first_attempt_class

pytestmark = pytest.mark.django_db


@pytest.fixture
def flagged_class(course):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    first_attempt_class(course, part, {1: (32, 4, 4), 2: (10, 20, 10)})
    return part


def test_the_statistics_page_lists_the_flagged_variant(client, course, irene, flagged_class):
    client.force_login(irene)
    body = client.get(f"/courses/{course.slug}/dashboard/statistics/").content.decode()
    flags = body.split('<ul class="variant-flags">')[1].split("</ul>")[0]
    assert "sigma = 0.95, steps = 30" in flags
    assert "0.25 right at the first attempt" in flags
    assert "sigma = 0.85" not in flags


def test_the_part_page_shows_every_variant_with_its_interval_and_flag(
        client, course, irene, flagged_class):
    client.force_login(irene)
    body = client.get(f"/courses/{course.slug}/dashboard/statistics/parts/{flagged_class.pk}/"
                      ).content.decode()
    table = body.split('<table class="variant-fairness">')[1].split("</table>")[0]
    rows = table.split("<tr")[2:]
    assert 'class="flagged"' in rows[0] and "sigma = 0.95, steps = 30" in rows[0]
    assert "0.14 to 0.40" in rows[0] and "<strong>harder</strong>" in rows[0]
    assert "sigma = 0.85, steps = 40" in rows[1] and "harder" not in rows[1]
