"""Taking an assessment: start inside the window, the deadline with an accommodation, drafts
saved and never graded until the attempt closes, closed once (by the student, a late page
load or the sweep), and refusals that change nothing."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from exams.models import Accommodation, Answer, Attempt, AuditEntry, Question
from exams.paper import paper_draw, question_params
from exams.services import (
    AttemptClosed,
    AttemptRefused,
    attempt_close,
    attempt_start,
    attempts_expired_close,
    drafts_save,
)
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db

#: The right answer to each test question, from its parameters.
KEYS = {
    "rnn-steps": lambda p: str(p["N"]),
    "attention-steps": lambda p: "1",
    "tokens-doubled": lambda p: str(2 * p["N"]),
    "gradient-bound": lambda p: f"{p['sigma']}^{p['steps']}",
    "gradient-after-two": lambda p: f"{p['sigma']}^2",
}


def right_answers(attempt: Attempt) -> dict[tuple[str, str], str]:
    drafts = {}
    for entry in attempt.paper:
        question = Question.objects.get(uuid=entry["question"])
        params = question_params(question, entry["seed"])
        drafts[(entry["question"], question.parts[0]["key"])] = KEYS[question.slug](params)
    return drafts


def test_a_start_inside_the_window_draws_one_question_of_each_pool(quiz_course):
    now = timezone.now()
    started = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment, now=now)
    attempt = started.attempt
    assert not started.resumed and attempt.number == 1
    assert [entry["zone"] for entry in attempt.paper] == [0, 1]
    pools = [set(zone["questions"]) for zone in quiz_course.assessment.zones]
    assert attempt.paper[0]["question"] in pools[0] and attempt.paper[1]["question"] in pools[1]
    assert attempt.deadline_at == now + timedelta(minutes=20)
    assert AuditEntry.objects.filter(attempt=attempt, action="start").count() == 1


def test_the_deadline_is_the_limit_times_the_accommodation_but_never_past_the_close(quiz_course):
    Accommodation.objects.create(course=quiz_course.course, student=quiz_course.student,
                                 time_factor=1.5)
    now = timezone.now()
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment, now=now).attempt
    assert attempt.deadline_at == now + timedelta(minutes=30)
    late = quiz_course.assessment.closes_at - timedelta(minutes=10)
    other = UserFactory(username="late")
    EnrollmentFactory(course=quiz_course.course, user=other)
    attempt = attempt_start(student=other, course=quiz_course.course,
                            assessment=quiz_course.assessment, now=late).attempt
    assert attempt.deadline_at == quiz_course.assessment.closes_at


@pytest.mark.parametrize("offset", ["before", "after"])
def test_a_start_outside_the_window_is_refused_and_creates_nothing(quiz_course, offset):
    assessment = quiz_course.assessment
    when = (assessment.opens_at - timedelta(minutes=1) if offset == "before"
            else assessment.closes_at + timedelta(seconds=1))
    with pytest.raises(AttemptRefused, match="opens on" if offset == "before" else "closed on"):
        attempt_start(student=quiz_course.student, course=quiz_course.course,
                      assessment=assessment, now=when)
    assert Attempt.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_a_second_start_resumes_the_attempt_in_progress_and_after_it_none_is_left(quiz_course):
    args = {"student": quiz_course.student, "course": quiz_course.course,
            "assessment": quiz_course.assessment}
    first = attempt_start(**args).attempt
    second = attempt_start(**args)
    assert second.resumed and second.attempt.pk == first.pk
    attempt_close(attempt_id=first.pk, by=Attempt.ClosedBy.STUDENT)
    with pytest.raises(AttemptRefused, match="You have used your 1 attempt at this assessment"):
        attempt_start(**args)
    assert Attempt.objects.count() == 1


def test_an_extra_attempt_of_the_accommodation_allows_one_more(quiz_course):
    Accommodation.objects.create(course=quiz_course.course, student=quiz_course.student,
                                 extra_attempts=1)
    args = {"student": quiz_course.student, "course": quiz_course.course,
            "assessment": quiz_course.assessment}
    attempt_close(attempt_id=attempt_start(**args).attempt.pk, by=Attempt.ClosedBy.STUDENT)
    second = attempt_start(**args).attempt
    assert second.number == 2 and second.seed != Attempt.objects.get(number=1).seed


def test_the_draw_is_fixed_by_the_seed_and_varies_between_students(quiz_course):
    assessment = quiz_course.assessment
    assert paper_draw(assessment=assessment, seed=42, default_variant=False) == \
        paper_draw(assessment=assessment, seed=42, default_variant=False)
    papers = [paper_draw(assessment=assessment, seed=seed, default_variant=False)
              for seed in range(30)]
    drawn = {paper[0]["question"] for paper in papers}
    assert drawn == set(assessment.zones[0]["questions"])  # every question of the pool drawn
    assert all(entry["seed"] is None for entry in
               paper_draw(assessment=assessment, seed=42, default_variant=True))


def test_drafts_are_not_graded_until_the_attempt_closes_then_graded_once(quiz_course):
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    drafts = right_answers(attempt)
    first = dict(list(drafts.items())[:1])
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=first)
    saved = Answer.objects.get(attempt=attempt)
    assert saved.outcome == "" and saved.score is None
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=drafts)
    closed = attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    assert closed.score == pytest.approx(1.0)
    assert set(Answer.objects.filter(attempt=attempt).values_list("outcome", flat=True)) == \
        {"correct"}
    again = attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    assert again.closed_at == closed.closed_at
    assert AuditEntry.objects.filter(attempt=attempt, action="submit").count() == 1


def test_an_unanswered_question_scores_zero_and_the_score_weighs_points(quiz_course):
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    only_first = dict(list(right_answers(attempt).items())[:1])  # 2 points of 3
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=only_first)
    closed = attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT)
    assert closed.score == pytest.approx(2 / 3)
    assert Answer.objects.get(attempt=attempt, raw="").outcome == "unanswered"


def test_a_save_after_the_deadline_changes_nothing_and_closes_with_the_earlier_drafts(quiz_course):
    now = timezone.now()
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment, now=now).attempt
    drafts = right_answers(attempt)
    drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=drafts, now=now)
    wrong = {where: "7" for where in drafts}
    with pytest.raises(AttemptClosed, match="time for this attempt is up"):
        drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=wrong,
                    now=attempt.deadline_at + timedelta(seconds=1))
    attempt.refresh_from_db()
    assert attempt.closed_by == Attempt.ClosedBy.DEADLINE and attempt.closed_at == attempt.deadline_at
    assert attempt.score == pytest.approx(1.0)
    assert "7" not in set(Answer.objects.filter(attempt=attempt).values_list("raw", flat=True))
    with pytest.raises(AttemptClosed):
        drafts_save(attempt_id=attempt.pk, student=quiz_course.student, drafts=wrong)


def test_a_draft_for_a_question_off_the_paper_or_anothers_attempt_is_refused(quiz_course):
    attempt = attempt_start(student=quiz_course.student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    on_paper = {entry["question"] for entry in attempt.paper}
    off = Question.objects.exclude(uuid__in=on_paper).first()
    assert off is not None
    with pytest.raises(AttemptRefused, match="not on your paper"):
        drafts_save(attempt_id=attempt.pk, student=quiz_course.student,
                    drafts={(str(off.uuid), off.parts[0]["key"]): "1"})
    with pytest.raises(AttemptRefused, match="not your attempt"):
        drafts_save(attempt_id=attempt.pk, student=quiz_course.instructor,
                    drafts=right_answers(attempt))
    assert not Answer.objects.exists()


def test_the_sweep_closes_and_grades_every_expired_attempt_exactly_once(quiz_course):
    start = timezone.now()
    students: list[Any] = [quiz_course.student]
    for n in range(3):
        student = UserFactory(username=f"swept{n}")
        EnrollmentFactory(course=quiz_course.course, user=student)
        students.append(student)
    attempts = [attempt_start(student=s, course=quiz_course.course,
                              assessment=quiz_course.assessment, now=start).attempt
                for s in students]
    drafts_save(attempt_id=attempts[0].pk, student=students[0],
                drafts=right_answers(attempts[0]), now=start)
    assert attempts_expired_close(now=start + timedelta(minutes=19)) == 0
    after = start + timedelta(minutes=21)
    assert attempts_expired_close(now=after) == 4
    assert attempts_expired_close(now=after) == 0
    assert AuditEntry.objects.filter(action="close").count() == 4
    scores = dict(Attempt.objects.values_list("student_id", "score"))
    assert scores[students[0].pk] == pytest.approx(1.0)
    assert [scores[s.pk] for s in students[1:]] == [0.0, 0.0, 0.0]
