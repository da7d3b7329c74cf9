"""A data request for a student who took exams: the export holds their attempts with every
draft and graded answer, their kept assessment scores, the audit entries about them and their
arrangements; the erasure leaves none of their text in any table (answers, feedback, reasons,
names in the audit log) while their attempts' scores and kept scores stay."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from exams.models import AssessmentScore, Attempt
from exams.services import attempt_close, attempt_start, drafts_save
from exams.staff import accommodation_set, attempt_reopen, window_extend
from privacy.erasure import personal_data_erase
from privacy.export import personal_data_export
from tests.exams.test_attempts import right_answers
from tests.privacy.test_erasure import _every_stored_value

pytestmark = pytest.mark.django_db

DRAFT = "0.8181 from the kestrel method"
REASON = "Quillfeather's hospital letter"
EXTENSION = "Quillfeather sat the clash exam"
MARKERS = ("kestrel", "Quillfeather", "quillfeather")


@pytest.fixture
def examined(quiz_course):
    """The quiz's student (named 'quillfeather') with a closed, reopened and closed attempt:
    a draft of their own words, the right answers elsewhere, an accommodation, a window
    extension and a reopen with reasons naming them."""
    student = quiz_course.student
    student.username = "quillfeather"
    student.save(update_fields=["username"])
    course, assessment, teacher = quiz_course.course, quiz_course.assessment, quiz_course.instructor
    accommodation_set(course=course, student=student, time_factor=1.5, extra_attempts=0,
                      by=teacher)
    window_extend(assessment=assessment, course=course, student=student,
                  closes_at=assessment.closes_at + timedelta(days=1), reason=EXTENSION,
                  by=teacher)
    attempt = attempt_start(student=student, course=course, assessment=assessment).attempt
    drafts = right_answers(attempt)
    first = next(iter(drafts))
    drafts_save(attempt_id=attempt.pk, student=student, drafts={**drafts, first: DRAFT})
    attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT, actor=student)
    attempt_reopen(attempt_id=attempt.pk, by=teacher, minutes=10, reason=REASON)
    attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT, actor=student,
                  now=timezone.now())
    return student


def test_the_export_holds_the_attempts_drafts_audit_and_arrangements(examined):
    data = personal_data_export(user=examined)["data"]
    attempt = data["exam attempts"][0]
    assert attempt["assessment"] == "quiz-1" and attempt["closed_by"] == "student"
    assert DRAFT in [answer["answer"] for answer in attempt["answers"]]
    assert all(answer["outcome"] for answer in attempt["answers"])
    actions = [entry["action"] for entry in data["exam audit"]]
    assert actions[:1] == ["extend"] and {"start", "submit", "reopen"} <= set(actions)
    assert any(REASON in entry["detail"] for entry in data["exam audit"])
    arrangements = data["exam arrangements"]
    assert arrangements["accommodations"][0]["time_factor"] == 1.5
    assert arrangements["window_extensions"][0]["reason"] == EXTENSION


def test_the_export_holds_the_kept_assessment_scores(examined):
    attempt = Attempt.objects.get(student=examined)
    scores = personal_data_export(user=examined)["data"]["exam scores"]
    assert [(s["course"], s["assessment"], s["attempts"], s["in_progress"]) for s in scores] == [
        (attempt.course.slug, "quiz-1", 1, False)]
    assert scores[0]["score"] == pytest.approx(attempt.score)
    assert scores[0]["changed_at"]


def test_an_open_attempt_exports_its_drafts_as_saved(quiz_course):
    student = quiz_course.student
    attempt = attempt_start(student=student, course=quiz_course.course,
                            assessment=quiz_course.assessment).attempt
    first = next(iter(right_answers(attempt)))
    drafts_save(attempt_id=attempt.pk, student=student, drafts={first: DRAFT})
    exported = personal_data_export(user=student)["data"]["exam attempts"][0]
    assert exported["closed_at"] is None
    assert [(a["answer"], a["outcome"]) for a in exported["answers"]] == [(DRAFT, "")]


def test_after_erasure_no_exam_text_of_theirs_remains_and_scores_stay(examined):
    def marked(texts: list[str]) -> list[str]:
        return [t for t in texts if any(marker in t for marker in MARKERS)]

    assert marked(_every_stored_value())  # the scan sees them before
    score = Attempt.objects.get(student=examined).score
    personal_data_erase(user=examined, reason="request 2026-140")
    assert marked(_every_stored_value()) == []
    assert marked([json.dumps(personal_data_export(user=examined))]) == []
    attempt = Attempt.objects.get(student=examined)
    assert attempt.score == score and attempt.answers.exclude(outcome="").exists()
    kept = AssessmentScore.objects.get(student=examined)
    assert kept.score == pytest.approx(score) and kept.attempts == 1
