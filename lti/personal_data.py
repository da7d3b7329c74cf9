"""What lti holds about a person: the identity each platform sent (name, e-mail, picture, the
platform's id for them), their memberships of LMS contexts, and the scores sent (or to be sent)
to their LMS gradebook."""

from typing import Any

from django.contrib.auth.models import User
from lti_tool.models import LtiMembership, LtiUser

from core.personal_data import PersonalDataSource, personal_data_register
from lti.scores_models import ScoreDelivery


def lti_identities_export(user: User) -> list[dict[str, Any]]:
    """Each platform identity linked to the account, with its context memberships."""
    identities = (LtiUser.objects.filter(auth_user=user).select_related("registration")
                  .order_by("id"))
    memberships = (LtiMembership.objects.filter(user__auth_user=user)
                   .select_related("context").order_by("id"))
    by_user: dict[int, list[dict[str, Any]]] = {}
    for m in memberships:
        by_user.setdefault(m.user_id, []).append({
            "context": m.context.title or m.context.id_on_platform,
            "instructor": m.is_instructor, "learner": m.is_learner,
            "administrator": m.is_administrator, "content_developer": m.is_content_developer,
            "mentor": m.is_mentor, "active": m.is_active})
    return [{"platform": i.registration.issuer, "platform_user_id": i.sub,
             "name": i.name, "given_name": i.given_name, "family_name": i.family_name,
             "email": i.email, "picture_url": i.picture_url,
             "first_seen": i.datetime_created.isoformat(),
             "memberships": by_user.get(i.pk, [])} for i in identities]


def lti_identities_erase(user: User, pseudonym: str) -> int:
    """Names, e-mail, picture and the platform's ids for the person go (the id becomes the
    pseudonym, as the enrolment's external id goes): a later launch of theirs is a new
    account. Memberships stay, holding nothing but the link and the roles."""
    changed = 0
    for identity in LtiUser.objects.filter(auth_user=user):
        identity.sub = f"erased-{pseudonym}-{identity.pk}"[:255]
        identity.name = identity.given_name = identity.family_name = ""
        identity.email = identity.picture_url = identity.lti1p1_id_on_platform = ""
        identity.save()
        changed += 1
    return changed


def score_deliveries_export(user: User) -> list[dict[str, Any]]:
    """Each exercise and assessment score kept for the LMS: value, when decided, delivery state."""
    rows = (ScoreDelivery.objects.filter(student=user).select_related("course", "exercise", "assessment")
            .order_by("pk"))
    return [{"course": d.course.slug, "exercise": d.item_slug, "score": d.score_given,
             "out_of": d.score_maximum, "decided_at": d.decided_at.isoformat(),
             "state": d.state, "sent_at": d.sent_at.isoformat() if d.sent_at else None}
            for d in rows]


def score_deliveries_erase(user: User, pseudonym: str) -> int:
    """The delivery records go (the LMS keeps its own gradebook; ours is in grading)."""
    deleted, _ = ScoreDelivery.objects.filter(student=user).delete()
    return deleted


def register() -> None:
    """Register lti's personal data (called from lti's hooks at ready())."""
    personal_data_register(PersonalDataSource("lti identities", lti_identities_export,
                                              lti_identities_erase))
    personal_data_register(PersonalDataSource("LMS score deliveries", score_deliveries_export,
                                              score_deliveries_erase))
