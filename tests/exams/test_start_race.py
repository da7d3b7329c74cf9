"""One attempt at a time, under a race: two browsers of one student press Start at the same
moment, each on its own database connection (a thread each), both past the "is one open?"
check before either writes. PostgreSQL's partial unique index (`attempt_one_open`) lets one
insert through; the other finds that attempt and resumes it. Never two attempts."""

import threading
from typing import Any

import pytest
from django.db import connection, connections

from exams import services
from exams.models import Attempt, AuditEntry
from exams.services import Started, attempt_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_starts_at_once_on_two_connections_make_one_attempt(quiz_course, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the race of two connections is checked on PostgreSQL (DATABASE_URL)")
    both_checked = threading.Barrier(2, timeout=30)
    draw = services.paper_draw

    def draw_when_both_checked(**kwargs: Any) -> Any:
        both_checked.wait()  # both requests have found no open attempt: now both insert
        return draw(**kwargs)

    monkeypatch.setattr(services, "paper_draw", draw_when_both_checked)
    results: list[Started] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            results.append(attempt_start(student=quiz_course.student, course=quiz_course.course,
                                         assessment=quiz_course.assessment))
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert sorted(r.resumed for r in results) == [False, True]
    assert results[0].attempt.pk == results[1].attempt.pk
    assert Attempt.objects.count() == 1
    assert AuditEntry.objects.filter(action="start").count() == 1
