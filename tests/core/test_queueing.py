"""Queueing after commit: a broker outage never fails the request that stored the work."""

import pytest
from django.db import transaction

from core.queueing import task_send, task_send_on_commit


def test_sending_to_a_dead_broker_reports_false_and_raises_nothing(dead_broker, caplog) -> None:
    assert task_send("labs.tasks.lab_run_task", 1) is False
    assert "could not queue labs.tasks.lab_run_task" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_commit_with_a_dead_broker_still_commits_and_returns(dead_broker, course) -> None:
    from courses.models import Course

    with transaction.atomic():
        Course.objects.filter(pk=course.pk).update(title="renamed")
        task_send_on_commit("labs.tasks.lab_run_task", 1)
    assert Course.objects.get(pk=course.pk).title == "renamed"
