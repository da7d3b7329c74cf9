"""What lti holds about a person: the scores sent (or to be sent) to their LMS gradebook, and
their identities on LMS platforms (from launches and roster reads)."""

from typing import Any

from django.contrib.auth.models import User
from lti_tool.models import LtiUser

from core.personal_data import PersonalDataSource, personal_data_register
from lti.scores_models import ScoreDelivery


def score_deliveries_export(user: User) -> list[dict[str, Any]]:
    """Each exercise score kept for the LMS: value, when decided, delivery state."""
    rows = (ScoreDelivery.objects.filter(student=user).select_related("course", "exercise")
            .order_by("pk"))
    return [{"course": d.course.slug, "exercise": d.exercise.slug, "score": d.score_given,
             "out_of": d.score_maximum, "decided_at": d.decided_at.isoformat(),
             "state": d.state, "sent_at": d.sent_at.isoformat() if d.sent_at else None}
            for d in rows]


def score_deliveries_erase(user: User, pseudonym: str) -> int:
    """The delivery records go (the LMS keeps its own gradebook; ours is in grading)."""
    deleted, _ = ScoreDelivery.objects.filter(student=user).delete()
    return deleted


def lms_identities_export(user: User) -> list[dict[str, Any]]:
    """The person's identities on LMS platforms: platform, subject id, name and email given."""
    return [{"platform": u.registration.issuer, "sub": u.sub, "name": u.name,
             "given_name": u.given_name, "family_name": u.family_name, "email": u.email}
            for u in LtiUser.objects.filter(auth_user=user).select_related("registration")
            .order_by("pk")]


def lms_identities_erase(user: User, pseudonym: str) -> int:
    """Names, email and picture the platform gave go; the subject id stays (an opaque id of
    the platform's, which keeps the person's grades going to the right gradebook row)."""
    return LtiUser.objects.filter(auth_user=user).update(
        name="", given_name="", family_name="", email="", picture_url="")


def register() -> None:
    """Register lti's personal data (called from lti's hooks)."""
    personal_data_register(PersonalDataSource("LMS score deliveries", score_deliveries_export,
                                              score_deliveries_erase))
    personal_data_register(PersonalDataSource("LMS identities", lms_identities_export,
                                              lms_identities_erase))
