"""The data-protection actions in the admin, for staff with the permission only."""

import json
from typing import cast

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from privacy.models import ErasureRecord
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _staff(*permissions: str) -> User:
    user = cast(User, UserFactory(username="dpo", is_staff=True))
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_user", "change_user",
                                                                       *permissions]))
    return User.objects.get(pk=user.pk)


def _act(client, action: str, user: User, **extra: str):
    return client.post(reverse("admin:auth_user_changelist"),
                       {"action": action, "_selected_action": [user.pk], **extra})


def test_staff_with_the_permission_export_one_person_as_json(client, alice) -> None:
    client.force_login(_staff("export_personal_data"))
    response = _act(client, "export_personal_data", alice)
    assert response["Content-Disposition"] == f'attachment; filename="user-{alice.pk}.json"'
    assert json.loads(response.content)["data"]["account"]["username"] == "alice"


def test_erasing_asks_for_confirmation_then_erases_and_audits(client, alice) -> None:
    officer = _staff("erase_personal_data")
    client.force_login(officer)
    page = _act(client, "erase_personal_data", alice)
    assert page.status_code == 200 and b"cannot be" in page.content
    assert not ErasureRecord.objects.exists()
    _act(client, "erase_personal_data", alice, confirm="yes", reason="ticket 42")
    record = ErasureRecord.objects.get()
    assert (record.user_id, record.requested_by, record.reason) == (alice.pk, officer, "ticket 42")
    assert User.objects.get(pk=alice.pk).username == record.pseudonym


def test_staff_without_the_permission_can_do_neither(client, alice) -> None:
    client.force_login(_staff())
    assert _act(client, "export_personal_data", alice).status_code == 403
    assert _act(client, "erase_personal_data", alice, confirm="yes").status_code == 403
    assert not ErasureRecord.objects.exists()
