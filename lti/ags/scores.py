"""A student's score on an exercise as the LMS gradebook gets it (AGS score fields)."""

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from courses.models import Course, Exercise, Part
from grading.deadlines import deadline_for
from grading.models import PartProgress


class ActivityProgress:
    IN_PROGRESS = "InProgress"
    SUBMITTED = "Submitted"
    COMPLETED = "Completed"


class GradingProgress:
    FULLY_GRADED = "FullyGraded"
    PENDING_MANUAL = "PendingManual"


@dataclass(frozen=True)
class ExerciseScore:
    """scoreGiven / scoreMaximum in points, with AGS activity and grading progress."""

    given: float
    maximum: float
    activity_progress: str
    grading_progress: str


def exercise_score(*, course: Course, student: User | int, exercise: Exercise) -> ExerciseScore:
    """The student's score on the exercise: over its active parts, the best graded score (or
    the latest override) times the part's points, out of the parts' points.

    PendingManual while an answer awaits review (activity Submitted); the activity is
    Completed when every part is solved (a correct answer, or an override to full marks) or
    out of attempts, or the student's deadline (extension included) has passed, InProgress
    otherwise. Reads the kept progress rows: two queries, three more for the deadline.
    """
    student_id = student if isinstance(student, int) else student.pk
    parts = list(Part.objects.active().filter(exercise=exercise).values_list("pk", "points"))
    rows = {
        part_id: (score, attempts, review, solved or correct)
        for part_id, score, attempts, review, solved, correct in PartProgress.objects.filter(
            course=course, student_id=student_id, part__exercise=exercise)
        .values_list("part_id", "best_score", "attempts", "awaiting_review", "solved", "correct")
    }
    given, maximum, pending, finished = 0.0, 0.0, False, True
    for part_id, points in parts:
        score, attempts, review, solved = rows.get(part_id, (None, 0, 0, False))
        given += (score or 0.0) * points
        maximum += points
        pending = pending or bool(review)
        out_of_attempts = bool(exercise.max_attempts) and attempts >= exercise.max_attempts
        finished = finished and (solved or out_of_attempts)
    if not finished:
        due = deadline_for(student=_user(student_id), course=course, exercise=exercise)
        finished = due is not None and timezone.now() > due
    activity = (ActivityProgress.SUBMITTED if pending else
                ActivityProgress.COMPLETED if finished else ActivityProgress.IN_PROGRESS)
    return ExerciseScore(given=round(given, 6), maximum=round(maximum, 6),
                         activity_progress=activity,
                         grading_progress=(GradingProgress.PENDING_MANUAL if pending
                                           else GradingProgress.FULLY_GRADED))


def _user(student_id: int) -> User:
    user = User(pk=student_id)  # deadline_for only filters by it
    return user
