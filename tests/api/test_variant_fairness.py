"""The variants' fairness through the API: staff and keys read it, students do not."""

import pytest

from tests.factories import first_attempt_class

pytestmark = pytest.mark.django_db


def url(course) -> str:
    return f"/api/v1/courses/{course.slug}/variant-fairness/"


def test_the_harder_variant_is_flagged_with_its_counts_and_interval(
        course, numeric_part, key_client, readonly_token):
    first_attempt_class(course, numeric_part, {1: (32, 4, 4), 2: (10, 20, 10)})
    body = key_client(readonly_token).get(url(course)).json()
    assert (body["min_answers"], body["false_discovery_rate"]) == (30, 0.05)
    [part] = [p for p in body["parts"] if p["part_id"] == numeric_part.pk]
    harder, easier = part["variants"]
    assert harder["variant"] == "sigma = 0.95, steps = 30"
    assert (harder["answered"], harder["first_correct"], harder["flagged"]) == (40, 10, True)
    assert harder["rate"] == pytest.approx(0.25) and harder["p_value"] < 0.001
    assert harder["low"] < 0.25 < harder["high"]
    assert (easier["first_correct"], easier["flagged"]) == (32, False)


def test_a_student_may_not_read_it(course, alice, client_for):
    response = client_for(alice).get(url(course))
    assert response.status_code == 403
