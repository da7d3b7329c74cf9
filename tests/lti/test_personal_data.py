"""What a platform told the tool about a person is in their data export and goes with an
erasure: no table keeps their name, e-mail or the platform's id for them."""

import pytest
from django.db import connection
from lti_tool.models import LtiUser

from privacy.erasure import personal_data_erase
from privacy.export import personal_data_export
from tests.lti.platform import INSTRUCTOR, LEARNER, LaunchSpec

pytestmark = pytest.mark.django_db(transaction=True)

MARKERS = ("Quintessa", "Vaporwell", "quintessa.v@uni.example", "sub-QV-4471")


def _tables_holding_markers() -> list[str]:
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')  # noqa: S608 (table names from the schema)
            found += [f"{table}: {v}" for row in cursor.fetchall() for v in row
                      if v is not None and any(m in str(v) for m in MARKERS)]
    return found


def test_lti_identity_is_exported_then_erased(platform):
    platform.launch_over_http(LaunchSpec("teacher-1", [INSTRUCTOR]))
    platform.launch_over_http(LaunchSpec("sub-QV-4471", [LEARNER], name="Quintessa Vaporwell",
                                         email="quintessa.v@uni.example"))
    user = LtiUser.objects.get(sub="sub-QV-4471").auth_user

    export = personal_data_export(user=user)
    [identity] = export["data"]["lti identities"]
    assert (identity["platform_user_id"], identity["email"]) == ("sub-QV-4471",
                                                                 "quintessa.v@uni.example")
    assert identity["memberships"][0]["learner"] is True
    assert _tables_holding_markers() != []

    personal_data_erase(user=user)

    assert _tables_holding_markers() == []
