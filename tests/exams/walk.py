"""An open quiz attempt on module 5 for the accessibility walk (tests/browser): one pool
question and an assessment made directly as rows, so the walk needs no extra content."""

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from courses.models import Course
from exams.models import Assessment, Attempt, Question
from exams.services import attempt_start


def exam_attempt_for_walk(*, course: Course, student: User) -> Attempt:
    """A quiz of one question on the course's module, and `student`'s open attempt at it."""
    module = course.module
    assert module is not None
    question = Question.objects.create(
        module=module, slug="walk-steps", title="Sequential steps",
        prompt="How many sequential steps does an RNN need for {{ N }} tokens?",
        parameters={"N": {"default": 1000, "choices": [500, 1000]}},
        parts=[{"key": "steps", "type": "integer", "reference": "N",
                "prompt": "Sequential steps:"}])
    now = timezone.now()
    assessment = Assessment.objects.create(
        module=module, slug="walk-quiz", kind="quiz", title="Walk quiz",
        opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1),
        time_limit_minutes=20, zones=[{"title": "Steps", "draw": 1,
                                       "questions": [str(question.uuid)]}])
    return attempt_start(student=student, course=course, assessment=assessment).attempt
