"""What live plugs into the apps below it, installed once by LiveConfig.ready(): the hold
that keeps a prediction answered in a live session from its lab run until the reveal, and
the phone's answer form kept through a database outage (core/kept_forms.py)."""

from core.kept_forms import KeptForm, kept_form_register
from grading.models import Submission
from labs.prediction_holds import prediction_hold_register
from live.models import LiveAnswer, LiveSession

#: Until the reveal has graded it (a crashed reveal task is retried), the session owns it.
HELD_STATES = (LiveSession.State.OPEN, LiveSession.State.CLOSED, LiveSession.State.RUNNING)


def held_for_reveal(submission: Submission) -> bool:
    """Whether `submission` is a live answer whose session has not run its lab yet."""
    return LiveAnswer.objects.filter(
        submission_id=submission.pk, valid=True,
        session__state__in=HELD_STATES).exists()


def install() -> None:
    """Register the live hold on predictions and keep the phone's answer through an outage."""
    prediction_hold_register(held_for_reveal)
    kept_form_register("live:phone", KeptForm(fields=("answer",)))
