"""What live plugs into the apps below it, installed once by LiveConfig.ready(): the hold
that keeps a prediction answered in a live session from its lab run until the reveal, the
numbers a class-variant room asked its predictions in (their verdicts use them wherever they
are graded), and the phone's answer form kept through a database outage
(core/kept_forms.py)."""

from typing import Any

from core.kept_forms import KeptForm, kept_form_register
from grading.models import Submission
from labs.prediction_holds import prediction_hold_register, prediction_numbers_register
from live.models import LiveAnswer, LiveSession

#: Until the reveal has graded it (a crashed reveal task is retried), the session owns it.
HELD_STATES = (LiveSession.State.OPEN, LiveSession.State.CLOSED, LiveSession.State.RUNNING)


def held_for_reveal(submission: Submission) -> bool:
    """Whether `submission` is a live answer whose session has not run its lab yet."""
    return LiveAnswer.objects.filter(
        submission_id=submission.pk, valid=True,
        session__state__in=HELD_STATES).exists()


def asked_in_class_numbers(submission: Submission) -> dict[str, Any] | None:
    """The class's variant parameters when `submission` was answered in a room that shared
    the class's numbers (`live.variants.live_variant`); else None (the student's own)."""
    answer = (LiveAnswer.objects.select_related("session__part__exercise")
              .filter(submission_id=submission.pk, valid=True,
                      session__variant=LiveSession.Variant.CLASS).first())
    if answer is None:
        return None
    # Imported here, not at the top: this module loads in LiveConfig.ready(), and variants
    # bring sympy, which Django's start-up must not pay for (tests/config/test_start_up.py).
    from live.variants import live_variant

    return live_variant(session=answer.session, student=None).params


def install() -> None:
    """Register the live hold on predictions, the numbers a class room asked them in, and keep
    the phone's answer through an outage."""
    prediction_hold_register(held_for_reveal)
    prediction_numbers_register(asked_in_class_numbers)
    kept_form_register("live:phone", KeptForm(fields=("answer",)))
