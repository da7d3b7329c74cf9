"""What the LTI tool holds about a person: the identity each platform sent (name, e-mail,
picture, the platform's id for them) and their memberships of LMS contexts."""

from typing import Any

from django.contrib.auth.models import User
from lti_tool.models import LtiMembership, LtiUser

from core.personal_data import PersonalDataSource, personal_data_register


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


def register() -> None:
    """Register the LTI tool's personal data (called from the app's ready())."""
    personal_data_register(PersonalDataSource("lti identities", lti_identities_export,
                                              lti_identities_erase))
