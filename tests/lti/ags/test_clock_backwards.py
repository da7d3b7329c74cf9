"""LMS score timestamps stay strictly increasing when the server's clock goes backwards
(an NTP step, a VM restored): the platform drops a score whose timestamp is not later than
the one it has, so each new score must still be stamped later than the last."""

import itertools
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

import lti.ags.deliveries
from courses.models import Part
from lti.ags.deliveries import score_deliveries_record
from lti.scores_models import ScoreDelivery
from tests.lti.ags_setup import platform_link

pytestmark = pytest.mark.django_db


def test_each_new_score_is_stamped_later_though_the_clock_went_back(
        lms_server, course, alice, module_05, monkeypatch):
    cache.clear()
    bound = Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")
    link = platform_link(lms_server, course)
    link.identity(alice)
    link.line_item(bound.exercise)
    start = timezone.now()
    # Each reading of the clock is a minute earlier than the one before.
    readings = iter(start - timedelta(minutes=i) for i in range(1000))

    class BackwardsClock:
        @staticmethod
        def now():
            return next(readings)

    monkeypatch.setattr(lti.ags.deliveries, "timezone", BackwardsClock)
    stamps = []
    for _ in range(4):
        with transaction.atomic():
            score_deliveries_record(course_id=course.pk, student_id=alice.pk,
                                    exercise_id=bound.exercise_id)
        stamps.append(ScoreDelivery.objects.get().decided_at)
    assert all(later > earlier for earlier, later in itertools.pairwise(stamps))
