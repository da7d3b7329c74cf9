"""The load test's baseline view exists only under the load settings' URLs."""

import pytest
from django.db import connection
from django.test import override_settings

from config.load_baseline import BASELINE_TABLE, baseline_table_create


@pytest.mark.django_db
def test_the_baseline_view_is_not_found_with_the_normal_urls(client):
    assert client.post("/load/baseline/", {"note": "x"}).status_code == 404
    assert client.get("/load/baseline/").status_code == 404


@pytest.mark.django_db
@override_settings(ROOT_URLCONF="config.load_urls")
def test_under_the_load_urls_the_baseline_view_inserts_one_row(client):
    if connection.vendor != "postgresql":
        pytest.skip("the baseline table is PostgreSQL's (the load test runs there)")
    baseline_table_create()

    response = client.post("/load/baseline/", {"note": "x"})

    assert response.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT note FROM {BASELINE_TABLE}")  # noqa: S608
        assert cursor.fetchall() == [("x",)]
    assert client.get("/health/live/").status_code == 200  # the service's routes still answer
