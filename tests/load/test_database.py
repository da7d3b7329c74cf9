"""The load test's database helpers (tests/load/database.py): a database whose name says
"load", and the statistics refresh that stands in for a server's missing autovacuum."""

import psycopg
import pytest
from django.db import connection

from tests.load.database import database_ensure, statistics_refresh
from tests.workers import test_database_url


@pytest.mark.parametrize("url", ["postgres://127.0.0.1:5432/grader", "sqlite:///var/load.sqlite3"])
def test_a_database_not_named_for_the_load_test_or_not_postgresql_is_refused(url):
    with pytest.raises(ValueError, match="contains 'load'"):
        database_ensure(url)


@pytest.mark.django_db(transaction=True)
def test_the_statistics_are_refreshed_exactly_where_autovacuum_is_off():
    if connection.vendor != "postgresql":
        pytest.skip("the statistics refresh is PostgreSQL's (DATABASE_URL=postgres://...)")
    url = test_database_url()
    with psycopg.connect(url) as db:
        autovacuum, = db.execute("SHOW autovacuum").fetchone()
    refreshed = statistics_refresh(url)
    assert refreshed == (autovacuum == "off")
    if refreshed:
        with psycopg.connect(url) as db:
            analysed, = db.execute("SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables "
                                   "WHERE relname = 'grading_submission'").fetchone()
        assert analysed
