"""What a student may see of a closed attempt: correctness and scores, and the key, each by
the assessment's release rule. While an attempt is open nothing is graded, so nothing of
either is ever shown then (no correctness, no running total)."""

from dataclasses import dataclass
from datetime import datetime

from exams.models import Assessment, Attempt, Release


@dataclass(frozen=True)
class Visible:
    correctness: bool  # each part's outcome, score and feedback, and the paper's score
    key: bool  # each part's answer key


def review_visibility(*, attempt: Attempt, now: datetime, release: Release | None,
                      last_close: datetime | None = None) -> Visible:
    """What the student may see of `attempt` at `now` (`release`: the course's release of
    the assessment, if any; `last_close`: the latest close of the window for anyone in the
    course, extensions included: "after the close" waits for it, so that no key reaches a
    student who is still taking it)."""
    if attempt.closed_at is None:
        return Visible(correctness=False, key=False)
    assessment = attempt.assessment
    window_closed = now >= max(assessment.closes_at, last_close or assessment.closes_at)
    correctness = feedback_released(assessment=assessment, now=now, release=release,
                                    last_close=last_close)
    key = {
        Assessment.Key.AFTER_CLOSE: window_closed,
        Assessment.Key.ON_RELEASE: release is not None and release.key,
        Assessment.Key.NEVER: False,
    }.get(Assessment.Key(assessment.key), False)
    return Visible(correctness=correctness, key=key)


def feedback_released(*, assessment: Assessment, now: datetime, release: Release | None,
                      last_close: datetime | None = None) -> bool:
    """Whether the assessment's rule shows a closed attempt's correctness and score at `now`
    (as `review_visibility`): the gradebook's "released" and the LMS's passback follow it."""
    window_closed = now >= max(assessment.closes_at, last_close or assessment.closes_at)
    return {
        Assessment.Feedback.AFTER_SUBMIT: True,
        Assessment.Feedback.AFTER_CLOSE: window_closed,
        Assessment.Feedback.ON_RELEASE: release is not None and release.feedback,
    }.get(Assessment.Feedback(assessment.feedback), False)
