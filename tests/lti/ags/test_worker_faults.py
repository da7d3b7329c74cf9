"""Grade passback through a real broker and `celery worker`: the platform failing (503, then
timeouts) while students keep answering, and a worker killed with SIGKILL mid-deliveries.

Every student's final score must arrive exactly once in its latest value, and the platform
must never receive a score older than one it already got.
"""

import time
from datetime import datetime
from typing import cast

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from courses.models import Enrollment, Part
from grading.services import submission_create
from lti.scores_models import ScoreDelivery
from tests.factories import EnrollmentFactory, UserFactory
from tests.lti.ags_setup import PlatformLink, platform_link
from tests.lti.grading_helpers import correct_bound_answer
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.services


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.fixture
def link(lms_server, course):
    cache.clear()
    return platform_link(lms_server, course)


def _students(link: PlatformLink, course, count: int) -> list:
    students = []
    for n in range(count):
        user = cast(User, UserFactory(username=f"student{n:02d}"))
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
        link.identity(user)
        students.append(user)
    return students


def _all_final_scores_arrived(link: PlatformLink) -> bool:
    deliveries = list(ScoreDelivery.objects.select_related("student"))
    if not deliveries or any(d.state != "sent" for d in deliveries):
        return False
    for d in deliveries:
        held = link.platform.results.get((d.line_item.url if d.line_item else "",
                                          link.sub(d.student)))
        if held is None or datetime.fromisoformat(held["timestamp"]) != d.decided_at:
            return False
    return True


def _assert_exactly_once_in_order(link: PlatformLink, students, *, duplicates_allowed: bool) -> None:
    for student in students:
        delivery = ScoreDelivery.objects.get(student=student)
        received = link.platform.scores_for(link.sub(student))
        stamps = [r.timestamp for r in received]
        assert stamps == sorted(stamps), f"{student}: an older score arrived after a newer one"
        finals = [r for r in received if r.timestamp == delivery.decided_at]
        assert finals, f"{student}: the final score never arrived"
        assert finals[0].body["scoreGiven"] == pytest.approx(delivery.score_given)
        if duplicates_allowed:  # a kill after the platform answered, before we recorded it:
            # the same score (same timestamp, same body) again, which the platform ignores
            assert all(r.body == finals[0].body for r in finals)
            assert sum(r.applied for r in finals) == 1
        else:
            assert len(finals) == 1, f"{student}: the final score arrived {len(finals)} times"
            assert len(set(stamps)) == len(stamps), f"{student}: a score arrived twice"
    assert link.platform.older_rejected == 0


def test_scores_survive_an_outage_of_503s_then_timeouts_and_arrive_once_in_order(
        celery_worker, link, course, bound):
    link.line_item(bound.exercise)
    students = _students(link, course, 6)
    link.platform.faults.unavailable = 12
    link.platform.faults.timeouts = 4

    for round_number in range(3):  # students keep answering through the outage
        for student in students:
            answer = (correct_bound_answer(student, course, bound) if round_number == 2
                      else str(round_number + 7))
            submission_create(student=student, course=course, part=bound, raw_answer=answer)
        time.sleep(0.5)

    wait_for(lambda: _all_final_scores_arrived(link), timeout=120, interval=0.2)

    assert link.platform.faults.unavailable == 0 and link.platform.faults.timeouts == 0
    _assert_exactly_once_in_order(link, students, duplicates_allowed=False)
    for student in students:  # the latest value: the right answer on the third attempt
        delivery = ScoreDelivery.objects.get(student=student)
        assert delivery.score_given > 0 and delivery.activity_progress == "Completed"
    assert link.platform.token_requests == 1


def test_a_worker_killed_mid_deliveries_loses_none(celery_worker, link, course, bound, tmp_path):
    link.line_item(bound.exercise)
    students = _students(link, course, 10)
    link.platform.faults.delay_seconds = 0.4  # slow enough to kill the worker mid-way

    for student in students:
        submission_create(student=student, course=course, part=bound, raw_answer="5")
    wait_for(lambda: len(link.platform.scores) >= 2, timeout=60, interval=0.05)
    celery_worker.kill()
    sent_before = len(link.platform.scores)
    assert sent_before < len(students)
    for student in students[:4]:  # more answers while no worker runs
        submission_create(student=student, course=course, part=bound,
                          raw_answer=correct_bound_answer(student, course, bound))

    restarted = start_worker(tmp_path, beat=True)
    try:
        wait_for(lambda: _all_final_scores_arrived(link), timeout=120, interval=0.2)
    finally:
        restarted.stop()

    _assert_exactly_once_in_order(link, students, duplicates_allowed=True)
