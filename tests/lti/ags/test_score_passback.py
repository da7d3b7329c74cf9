"""AGS grade passback against the platform's real HTTP endpoints (tasks run in-process here;
tests/lti/ags/test_worker_faults.py runs them in a real worker)."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from lti_tool.models import LtiLineItem

from courses.models import CourseModule, Module, Part
from grading.deadlines import deadline_set, extension_set
from grading.overrides import grade_override_create
from grading.reviews import review_create
from grading.services import submission_create
from grading.variant_assignment import variant_for
from lti.ags.deliveries import score_deliveries_sweep, score_delivery_attempt
from lti.scores_models import ScoreDelivery
from tests.lti.ags_setup import platform_link
from tests.lti.grading_helpers import EXTEND_ANSWER, correct_bound_answer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def bound(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="apply-1-gradient-bound")


@pytest.fixture
def extend(module_05) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug="extend-bottleneck")


@pytest.fixture
def link(lms_server, course, alice, bob):
    link = platform_link(lms_server, course)
    link.identity(alice)
    link.identity(bob)
    return link


def _deliver_all() -> list[str]:
    return [score_delivery_attempt(delivery_id=pk).outcome
            for pk in ScoreDelivery.objects.order_by("pk").values_list("pk", flat=True)]


def test_a_graded_answer_sends_exactly_one_score_with_the_exercise_total(link, course, alice,
                                                                         bound):
    line_item = link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound,
                      raw_answer=correct_bound_answer(alice, course, bound))

    assert _deliver_all() == ["sent"], ScoreDelivery.objects.values_list("last_error", flat=True)[0]

    [score] = link.platform.scores
    delivery = ScoreDelivery.objects.get()
    assert score.line_item == line_item.url and score.user_id == "sub-alice"
    assert score.body["scoreGiven"] == pytest.approx(bound.points)
    assert score.body["scoreMaximum"] == pytest.approx(bound.points)
    assert score.body["gradingProgress"] == "FullyGraded"
    assert score.body["activityProgress"] == "Completed"
    assert score.timestamp == delivery.decided_at
    assert delivery.state == "sent" and delivery.sent_score_given == pytest.approx(bound.points)
    assert _deliver_all() == ["skipped"]  # a duplicate task sends nothing
    assert len(link.platform.scores) == 1


def test_a_wrong_answer_sends_zero_in_progress(link, course, alice, bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="12345")
    _deliver_all()
    [score] = link.platform.scores
    assert score.body["scoreGiven"] == 0
    assert score.body["activityProgress"] == "InProgress"


def test_the_access_token_is_fetched_once_and_reused_until_it_expires(link, course, alice, bob,
                                                                      bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    submission_create(student=bob, course=course, part=bound, raw_answer="2")
    _deliver_all()
    submission_create(student=alice, course=course, part=bound, raw_answer="3")
    _deliver_all()

    assert len(link.platform.scores) == 3
    assert link.platform.token_requests == 1
    assert link.platform.assertion_errors == []


def test_a_token_the_platform_forgot_is_replaced_after_a_401(link, course, alice, bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    _deliver_all()
    link.platform.tokens.clear()  # the platform revoked every token
    submission_create(student=alice, course=course, part=bound, raw_answer="2")

    assert _deliver_all() == ["retry"]
    ScoreDelivery.objects.update(next_attempt_at=timezone.now())
    assert _deliver_all() == ["sent"]
    assert link.platform.token_requests == 2


def test_a_line_item_is_created_on_demand_once_with_the_exercise_uuid(link, course, alice, bob,
                                                                       bound):
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    submission_create(student=bob, course=course, part=bound, raw_answer="2")
    assert _deliver_all() == ["sent", "sent"]

    [item] = link.platform.line_items.values()
    assert item["resourceId"] == str(bound.exercise.uuid)
    assert item["scoreMaximum"] == pytest.approx(bound.points)
    assert item["label"] == bound.exercise.title
    stored = LtiLineItem.objects.get()
    assert stored.url == item["id"] and stored.context == link.context
    assert {s.line_item for s in link.platform.scores} == {item["id"]}


def test_a_4xx_is_recorded_with_the_platform_message_and_not_retried(link, course, alice, bound):
    link.line_item(bound.exercise)
    link.platform.faults.rejected.append("sub-alice")
    submission_create(student=alice, course=course, part=bound, raw_answer="1")

    assert _deliver_all() == ["failed"]
    delivery = ScoreDelivery.objects.get()
    assert delivery.state == "failed" and delivery.last_status_code == 400
    assert "User sub-alice is not enrolled" in delivery.last_error
    assert score_deliveries_sweep(grace=timedelta(0)) == []  # failed rows wait for a person


def test_5xx_is_retried_with_exponential_backoff_then_sent(link, course, alice, bound):
    link.line_item(bound.exercise)
    link.platform.faults.unavailable = 2
    submission_create(student=alice, course=course, part=bound, raw_answer="1")

    delays = []
    for _ in range(3):
        ScoreDelivery.objects.update(next_attempt_at=timezone.now())
        attempt = score_delivery_attempt(delivery_id=ScoreDelivery.objects.get().pk)
        delays.append(attempt.retry_in)
        if attempt.outcome == "sent":
            break
    assert delays == [0.2, 0.4, None]  # test settings: base 0.2 s, doubling
    delivery = ScoreDelivery.objects.get()
    assert delivery.state == "sent" and delivery.attempts == 0
    assert len(link.platform.scores) == 1


def test_an_answer_awaiting_review_is_pending_manual_then_the_review_sends_the_score(
        link, course, alice, irene, extend):
    link.line_item(extend.exercise)
    answer = submission_create(student=alice, course=course, part=extend, raw_answer=EXTEND_ANSWER)
    _deliver_all()
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=4)
    _deliver_all()

    first, second = link.platform.scores_for("sub-alice")
    assert first.body["gradingProgress"] == "PendingManual"
    assert first.body["activityProgress"] == "Submitted"
    assert second.body["gradingProgress"] == "FullyGraded"
    assert second.body["scoreGiven"] == pytest.approx(4.0)
    assert second.timestamp > first.timestamp


def test_an_override_sends_the_overridden_score(link, course, alice, irene, bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    _deliver_all()
    grade_override_create(course=course, student_id=alice.pk, part_id=bound.pk,
                          points=bound.points / 2, reason="partial credit for the method",
                          by=irene)
    _deliver_all()

    scores = link.platform.scores_for("sub-alice")
    assert [s.body["scoreGiven"] for s in scores] == [0, pytest.approx(bound.points / 2)]
    assert scores[1].timestamp > scores[0].timestamp


def test_an_extension_that_reopens_the_exercise_sends_it_in_progress(link, course, alice, irene,
                                                                     bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    deadline_set(course=course, exercise_id=bound.exercise_id,
                 due_at=timezone.now() - timedelta(days=1), by=irene)
    with transaction.atomic():  # a deadline passing is not an event: recorded by hand here
        from lti.ags.deliveries import score_deliveries_record
        score_deliveries_record(course_id=course.pk, student_id=alice.pk,
                                exercise_id=bound.exercise_id)
    _deliver_all()
    extension_set(course=course, exercise_id=bound.exercise_id, student_id=alice.pk,
                  due_at=timezone.now() + timedelta(days=2), reason="ill", by=irene)
    _deliver_all()

    [closed, reopened] = link.platform.scores_for("sub-alice")
    assert closed.body["activityProgress"] == "Completed"
    assert reopened.body["activityProgress"] == "InProgress"


def test_a_newer_score_decided_while_sending_is_sent_after_it(link, course, alice, bound,
                                                               monkeypatch):
    from lti.ags import deliveries

    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    original = deliveries._send
    answered: list[bool] = []

    def send_while_the_student_answers_again(delivery):
        original(delivery)
        if not answered:
            answered.append(True)
            submission_create(student=alice, course=course, part=bound,
                              raw_answer=correct_bound_answer(alice, course, bound))

    monkeypatch.setattr(deliveries, "_send", send_while_the_student_answers_again)

    assert _deliver_all() == ["requeued"]
    assert _deliver_all() == ["sent"]
    first, second = link.platform.scores_for("sub-alice")
    delivery = ScoreDelivery.objects.get()
    assert first.body["scoreGiven"] == 0 and second.body["scoreGiven"] > 0  # second attempt
    assert second.body["scoreGiven"] == delivery.score_given
    assert second.timestamp == delivery.decided_at > first.timestamp and second.applied
    assert delivery.state == "sent"


def test_the_sweep_requeues_a_delivery_its_dead_worker_left_sending(link, course, alice, bound):
    link.line_item(bound.exercise)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    ScoreDelivery.objects.update(state="sending",
                                 next_attempt_at=timezone.now() - timedelta(seconds=1))
    queued: list[int] = []

    assert score_deliveries_sweep(enqueue=queued.append) == queued == [ScoreDelivery.objects.get().pk]
    assert _deliver_all() == ["sent"]


def test_a_student_without_an_identity_on_the_platform_gets_no_delivery(lms_server, course, alice,
                                                                        bound):
    platform_link(lms_server, course)
    submission_create(student=alice, course=course, part=bound, raw_answer="1")
    assert not ScoreDelivery.objects.exists()


def test_a_course_without_an_lms_costs_two_queries(course, alice, bound,
                                                   django_assert_max_num_queries):
    from lti.ags.deliveries import score_deliveries_record

    with transaction.atomic(), django_assert_max_num_queries(1):
        assert score_deliveries_record(course_id=course.pk, student_id=alice.pk,
                                       exercise_id=bound.exercise_id) == []



def test_a_regrade_that_changes_a_verdict_sends_the_new_score(link, course, alice, module_05):
    from grading.checkers.refs import reference_number
    from grading.models import Submission
    from grading.regrade import submissions_regrade

    part = Part.objects.select_related("exercise").get(exercise__slug="apply-3-context-value")
    Part.objects.filter(pk=part.pk).update(spec={**part.spec, "rtol": 1e-9, "atol": 0.0})
    part.refresh_from_db()
    params = variant_for(student=alice, course=course, exercise=part.exercise).params
    value = reference_number(part.spec["reference"], params).value
    submission_create(student=alice, course=course, part=part, raw_answer=f"{value * 1.005:.6f}")
    _deliver_all()
    Part.objects.filter(pk=part.pk).update(spec={**part.spec, "rtol": 0.01})

    submissions_regrade(submissions=Submission.objects.filter(part=part))
    _deliver_all()

    before, after = link.platform.scores_for("sub-alice")
    assert before.body["scoreGiven"] == 0 and after.body["scoreGiven"] > 0
    assert after.timestamp > before.timestamp


def test_a_prediction_graded_from_its_lab_run_sends_its_score(link, course, alice, module_05,
                                                              django_capture_on_commit_callbacks):
    from labs.predictions import lab_run_execute_and_grade

    part = Part.objects.select_related("exercise").get(exercise__slug="predict-alignment-shape",
                                                       key="shape")
    with django_capture_on_commit_callbacks():
        prediction = submission_create(student=alice, course=course, part=part,
                                       raw_answer="diagonal-with-crossing")
    assert not ScoreDelivery.objects.exists()  # waiting for its lab run: nothing decided yet
    lab_run_execute_and_grade(run_id=prediction.lab_runs.get().pk)

    assert _deliver_all() == ["sent"]
    [score] = link.platform.scores
    assert score.body["scoreGiven"] > 0 and score.body["gradingProgress"] == "FullyGraded"


def test_a_score_in_another_module_of_the_course_goes_to_that_exercise_s_line_item(
        link, course, alice):
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1)
    part = Part.objects.select_related("exercise").get(
        exercise__slug="multi-head-shapes", answer_type="integer")
    line_item = link.line_item(part.exercise)
    submission_create(student=alice, course=course, part=part, raw_answer="12345")

    assert _deliver_all() == ["sent"]
    [score] = link.platform.scores
    assert score.line_item == line_item.url
    assert score.body["scoreMaximum"] == pytest.approx(
        sum(p.points for p in part.exercise.parts.all()))


def test_events_recorded_together_send_each_students_score_once(link, course, alice, bob, bound):
    from events.outbox import events_record_many
    from grading.events import submission_graded_event

    answers = [submission_create(student=s, course=course, part=bound,
                                 raw_answer=correct_bound_answer(s, course, bound))
               for s in (alice, bob)]
    ScoreDelivery.objects.all().delete()
    with transaction.atomic():  # the batch consumer (a reveal's), one LMS lookup for all
        events_record_many([submission_graded_event(s) for s in [*answers, answers[0]]])
    assert sorted(ScoreDelivery.objects.values_list("student_id", flat=True)) == sorted(
        [alice.pk, bob.pk])
