"""The numbers a live session asks in, for its projector, its phones and its reveal alike."""

from django.contrib.auth.models import User

from grading.variant_assignment import Variant, default_variant, variant_for
from live.models import LiveSession


def live_variant(*, session: LiveSession, student: User | None) -> Variant:
    """The numbers the session asks with: the class's (default) variant when the room shares
    one run (class variant), else the student's own (`student` None: the default, which the
    projector shows). The reveal grades each prediction in these numbers."""
    exercise = session.part.exercise
    if student is None or session.variant == LiveSession.Variant.CLASS:
        return default_variant(exercise=exercise)
    return variant_for(student=student, course=session.course, exercise=exercise)
