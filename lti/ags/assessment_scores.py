"""A student's assessment score as the LMS gradebook gets it: the released score (what the
release rule lets the student see, exams/scores.py), as a percentage of the paper."""

from typing import Any

from courses.models import Course
from exams.models import Assessment, AssessmentScore
from exams.scores import SCORE_MAXIMUM as ASSESSMENT_MAXIMUM
from lti.ags.scores import ActivityProgress, GradingProgress


def assessment_score_fields(*, course: Course, assessment: Assessment,
                            student_id: int) -> dict[str, Any]:
    """The ScoreDelivery fields of the student's released score on the assessment: scoreGiven
    = 100 x the released fraction (0 if none is released), out of 100; InProgress while
    another attempt is open, Completed otherwise; FullyGraded (closed attempts are graded at
    once). One query."""
    row = (AssessmentScore.objects.filter(assessment=assessment, course=course,
                                          student_id=student_id)
           .values_list("released_score", "in_progress").first())
    released, in_progress = row if row is not None else (None, False)
    return {"score_given": round(ASSESSMENT_MAXIMUM * (released or 0.0), 6),
            "score_maximum": ASSESSMENT_MAXIMUM,
            "activity_progress": (ActivityProgress.IN_PROGRESS if in_progress
                                  else ActivityProgress.COMPLETED),
            "grading_progress": GradingProgress.FULLY_GRADED}
