"""API keys: stored as a hash, shown once, scoped to a course and a role, revocable, last use kept."""

import hashlib
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from api.keys import api_key_authenticate, api_key_create, api_key_revoke
from api.models import ApiKey
from events.models import WebhookDelivery
from events.webhooks import webhook_subscribe
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_only_the_sha256_of_the_token_is_stored(course, irene) -> None:
    issued = api_key_create(course=course, name="LMS", role="lms", created_by=irene)
    stored = ApiKey.objects.filter(pk=issued.api_key.pk).values().get()
    assert issued.token.startswith("grk_") and len(issued.token) > 40
    assert stored["token_hash"] == hashlib.sha256(issued.token.encode()).hexdigest()
    assert issued.token not in {str(value) for value in stored.values()}
    assert issued.token.startswith(stored["prefix"])


def test_authentication_finds_the_key_and_records_its_last_use(course, irene) -> None:
    issued = api_key_create(course=course, name="LMS", role="lms", created_by=irene)
    assert issued.api_key.last_used_at is None
    found = api_key_authenticate(token=issued.token)
    assert found == issued.api_key and found.last_used_at is not None
    assert api_key_authenticate(token=issued.token + "x") is None
    assert api_key_authenticate(token="not-a-key") is None


def test_last_use_is_written_at_most_once_a_minute(course, irene, django_assert_num_queries) -> None:
    issued = api_key_create(course=course, name="LMS", role="lms", created_by=irene)
    api_key_authenticate(token=issued.token)
    with django_assert_num_queries(1):  # a read, no write
        api_key_authenticate(token=issued.token)
    ApiKey.objects.filter(pk=issued.api_key.pk).update(last_used_at=timezone.now() - timedelta(minutes=2))
    with django_assert_num_queries(2):
        api_key_authenticate(token=issued.token)


def test_a_revoked_key_no_longer_authenticates(course, irene) -> None:
    issued = api_key_create(course=course, name="LMS", role="lms", created_by=irene)
    api_key_revoke(api_key=issued.api_key)
    first = ApiKey.objects.get().revoked_at
    assert api_key_authenticate(token=issued.token) is None
    api_key_revoke(api_key=issued.api_key)
    assert ApiKey.objects.get().revoked_at == first
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {issued.token}")
    response = client.get(f"/api/v1/courses/{course.slug}/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_an_instructor_issues_a_key_whose_token_is_shown_once(course, irene) -> None:
    client = APIClient()
    client.force_login(irene)
    url = f"/api/v1/courses/{course.slug}/api-keys/"
    created = client.post(url, {"name": "Moodle", "role": "read_only"}, format="json")
    assert created.status_code == 201
    token = created.json()["token"]
    listed = client.get(url).json()["results"]
    assert [k["name"] for k in listed] == ["Moodle"] and "token" not in listed[0]
    assert token not in client.get(url).content.decode()

    with_key = APIClient()
    with_key.credentials(HTTP_X_API_KEY=token)
    assert with_key.get(f"/api/v1/courses/{course.slug}/gradebook/").status_code == 200
    refused = with_key.put(f"/api/v1/courses/{course.slug}/roster/", {"roster": []}, format="json")
    assert refused.status_code == 403

    revoked = client.delete(f"{url}{created.json()['id']}/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert with_key.get(f"/api/v1/courses/{course.slug}/gradebook/").status_code == 401


def test_the_admin_issues_a_key_and_shows_its_token_once(client, course, irene) -> None:
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    response = client.post(reverse("admin:api_apikey_add"),
                           {"course": course.pk, "name": "From admin", "role": "lms"}, follow=True)
    assert response.status_code == 200
    key = ApiKey.objects.get(name="From admin")
    shown = [str(m) for m in response.context["messages"]]
    token = next(word for m in shown for word in m.split() if word.startswith("grk_"))
    assert api_key_authenticate(token=token) == key
    assert key.created_by == root

    client.post(reverse("admin:api_apikey_changelist"),
                {"action": "revoke", "_selected_action": [key.pk]})
    assert api_key_authenticate(token=token) is None


def test_the_admin_lists_failed_deliveries_and_replays_them(settings, client, course) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_HOSTS = True
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    hook = webhook_subscribe(course=course, url="http://127.0.0.1:9/", events=["submission.graded"])
    failed = WebhookDelivery.objects.create(subscription=hook, event="submission.graded", payload={},
                                            status="failed", attempts=10, next_attempt_at=timezone.now())
    page = client.get(reverse("admin:events_webhookdelivery_changelist"), {"status__exact": "failed"})
    assert page.status_code == 200 and str(failed.event_id) in page.content.decode()
    client.post(reverse("admin:events_webhookdelivery_changelist"),
                {"action": "replay", "_selected_action": [failed.pk]})
    failed.refresh_from_db()
    assert (failed.status, failed.attempts) == ("pending", 0)
    for model in ("events_webhooksubscription", "api_idempotencyrecord", "api_apikey"):
        assert client.get(reverse(f"admin:{model}_changelist")).status_code == 200


def test_create_api_key_prints_a_token_that_can_write_at_once(course, irene) -> None:
    from io import StringIO

    from django.core.management import call_command

    out, err = StringIO(), StringIO()
    call_command("create_api_key", "--course", course.slug, "--role", "lms", stdout=out, stderr=err)
    token = out.getvalue().strip()
    assert token.startswith("grk_") and "not be shown again" in err.getvalue()
    key = ApiKey.objects.get()
    assert (key.role, key.created_by, key.course) == ("lms", irene, course)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.put(f"/api/v1/courses/{course.slug}/roster/",
                          {"roster": [{"external_id": "s1"}]}, format="json")
    assert response.status_code == 200


def test_create_api_key_explains_what_is_missing(course, module_05) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No course"):
        call_command("create_api_key", "--course", "nope", "--role", "lms")
    with pytest.raises(CommandError, match="--created-by"):
        call_command("create_api_key", "--course", course.slug, "--role", "lms")
    with pytest.raises(CommandError):
        call_command("create_api_key", "--course", course.slug, "--role", "admin")


def test_the_admins_add_key_form_asks_for_the_role_instead_of_preselecting_read_only(
        client, course) -> None:
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    page = client.get(reverse("admin:api_apikey_add")).content.decode()
    assert '<option value="" selected>Choose what the key may do</option>' in page
    assert "sync the roster" in page
    refused = client.post(reverse("admin:api_apikey_add"), {"course": course.pk, "name": "LMS"})
    assert refused.status_code == 200 and not ApiKey.objects.exists()
    client.post(reverse("admin:api_apikey_add"), {"course": course.pk, "name": "LMS", "role": "lms"})
    assert ApiKey.objects.get().role == "lms"
