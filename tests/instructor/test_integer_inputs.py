"""Integers typed into the dashboard are bounded by validation (issue 38 item 3): an invite
link's `max_uses` past what its column holds (3,000,000,000 was a 500 on PostgreSQL) is a
message on the page and no link; the dashboard's numeric query parameters past any column
(pages, page sizes, a variant number, a sync id) are read as their default, never a 500."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from courses.models import CourseInvite

pytestmark = pytest.mark.django_db

TOO_LARGE = 10**20


@pytest.mark.parametrize("typed", ["3000000000", str(TOO_LARGE), "2147483648"])
def test_an_invite_for_more_people_than_the_column_holds_is_refused_with_a_message(
        client, course, irene, typed) -> None:
    client.force_login(irene)

    response = client.post(reverse("dashboard:invite-new", args=[course.slug]),
                           {"role": "student", "max_uses": typed})

    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["At most 2147483647 people."]
    assert not CourseInvite.objects.exists()


@pytest.mark.parametrize(("typed", "stored"), [("2147483647", 2147483647), ("40", 40), ("", None)])
def test_an_invite_within_the_column_is_created(client, course, irene, typed, stored) -> None:
    client.force_login(irene)

    client.post(reverse("dashboard:invite-new", args=[course.slug]),
                {"role": "student", "max_uses": typed})

    assert CourseInvite.objects.get().max_uses == stored


@pytest.mark.parametrize("typed", ["0", "many"])
def test_an_invite_for_no_one_or_for_a_word_is_refused(client, course, irene, typed) -> None:
    client.force_login(irene)

    response = client.post(reverse("dashboard:invite-new", args=[course.slug]),
                           {"role": "student", "max_uses": typed})

    assert len(list(get_messages(response.wsgi_request))) == 1
    assert not CourseInvite.objects.exists()


@pytest.mark.parametrize(("name", "query"), [
    ("dashboard:people", "page"), ("dashboard:matrix", "page"), ("dashboard:matrix", "per_page"),
    ("dashboard:reviews", "page"), ("dashboard:content", "sync"), ("dashboard:labs", "page"),
])
def test_a_numeric_query_parameter_past_any_column_is_not_a_server_error(
        client, course, irene, name, query) -> None:
    client.force_login(irene)

    response = client.get(reverse(name, args=[course.slug]) + f"?{query}={TOO_LARGE}")

    assert response.status_code == 200
