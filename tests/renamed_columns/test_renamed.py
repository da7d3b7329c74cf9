"""Inside the rename test's run: the three fields really are stored in their new columns."""

import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection

from tests.renamed_columns.apps import RENAMED

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(not settings.RENAMED_COLUMNS, reason="run by tests/test_column_rename.py")
def test_the_tables_have_the_renamed_columns_only():
    with connection.cursor() as cursor:
        for (app_label, model_name, field_name), column in RENAMED.items():
            table = apps.get_model(app_label, model_name)._meta.db_table
            names = {c.name for c in connection.introspection.get_table_description(cursor,
                                                                                    table)}
            assert column in names and field_name not in names, (table, names)
