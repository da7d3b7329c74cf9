"""The close sweep through a real `celery worker --beat` process: an attempt no browser
closes is closed and graded by the server at its deadline, exactly once."""

import os
from datetime import timedelta

import pytest
from django.utils import timezone

from exams.models import Attempt, AuditEntry
from exams.services import attempt_start, drafts_save
from tests.exams.test_attempts import right_answers
from tests.workers import running_worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_beat_sweep_closes_and_grades_an_abandoned_attempt_once(
        quiz_course, broker_url, tmp_path, monkeypatch):
    from config.celery import app

    app.control.purge()
    started = timezone.now() - timedelta(minutes=19, seconds=57)  # 3 s left
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment, now=started).attempt
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student,
                drafts=right_answers(attempt))
    monkeypatch.setitem(os.environ, "EXAM_SWEEP_SECONDS", "1")
    with running_worker(tmp_path, beat=True) as worker:
        closed = wait_for(lambda: Attempt.objects.filter(pk=attempt.pk, closed_at__isnull=False)
                          .first(), timeout=60, interval=0.2)
        assert closed.closed_by == Attempt.ClosedBy.DEADLINE
        assert closed.closed_at == closed.deadline_at
        assert closed.score == pytest.approx(1.0)
        sweeps = worker.log().count("expired_attempts_close_task")
        # Two more sweeps run (received and succeeded lines): none closes it again.
        wait_for(lambda: worker.log().count("expired_attempts_close_task") >= sweeps + 4,
                 timeout=30, interval=0.2)
    assert AuditEntry.objects.filter(attempt=attempt, action="close").count() == 1
