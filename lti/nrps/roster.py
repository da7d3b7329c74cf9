"""The course roster from the platform: NRPS members through the REST API's roster diff.

Members are matched to enrolments by their LTI `sub` (the enrolment's external id), with the
same safety rules as the roster PUT (courses/roster.py): no account of another course taken
over, no instructor made by a sync (platform instructors and administrators are left out of
the list; they are added in person), and the mass-deactivation guard. Each listed member's
LtiUser is linked to their account, so their launches and scores find it.
"""

import logging
from dataclasses import asdict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from lti_tool.models import LtiContext, LtiUser

from courses.models import Course, Enrollment
from courses.roster import RosterDiff, RosterEntry, roster_sync
from lti.ags.deliveries import score_deliveries_queue_for_student
from lti.nrps.memberships import Member, memberships_read
from lti.roles import course_role
from lti.scores_models import RosterSyncState

logger = logging.getLogger(__name__)

def roster_entry(member: Member) -> RosterEntry | None:
    """The roster entry of an active learner or TA, their role read as a launch reads it
    (`lti.roles.course_role`); None for instructors (added in person, never by a sync) and
    inactive members."""
    role = course_role(member.roles)
    if not member.active or role == Enrollment.Role.INSTRUCTOR:
        return None
    return RosterEntry(external_id=member.user_id, name=member.name, email=member.email,
                       role=role)


def roster_from_platform(*, context: LtiContext, course: Course,
                         allow_mass_deactivation: bool = False) -> RosterDiff:
    """Read the context's members and apply them to the course's roster; returns the diff.

    Raises PlatformError (the read failed), RosterInvalid or RosterMassDeactivation (nothing
    changed); every outcome is kept in the context's RosterSyncState.
    """
    try:
        members = memberships_read(context=context)
        entries = [e for e in (roster_entry(m) for m in members) if e is not None]
        _adopt_launched_accounts(context=context, course=course, entries=entries)
        diff = roster_sync(course=course, entries=entries,
                           allow_mass_deactivation=allow_mass_deactivation)
        linked = _link_lti_users(context=context, course=course, members=members)
        for user in linked:  # work done before they had an identity: its scores go now
            score_deliveries_queue_for_student(course=course, student=user)
    except Exception as exc:
        RosterSyncState.objects.update_or_create(context=context, defaults={
            "synced_at": timezone.now(), "error": str(exc)[:1000], "summary": {}})
        logger.warning("roster sync of context %s failed: %s", context.pk, exc)
        raise
    RosterSyncState.objects.update_or_create(context=context, defaults={
        "synced_at": timezone.now(), "error": "",
        "summary": {k: len(v) for k, v in asdict(diff).items()}})
    return diff


@transaction.atomic(durable=True)
def _adopt_launched_accounts(*, context: LtiContext, course: Course,
                             entries: list[RosterEntry]) -> None:
    """An account a member launched with, enrolled here without an external id, is theirs:
    it takes the member's sub as external id (only students and TAs of this course)."""
    subs = {e.external_id for e in entries}
    launched = dict(LtiUser.objects.filter(
        registration_id=context.deployment.registration_id, sub__in=subs,
        auth_user__isnull=False).values_list("auth_user_id", "sub"))
    taken = set(Enrollment.objects.filter(course=course, external_id__in=subs)
                .values_list("external_id", flat=True))
    for enrollment in Enrollment.objects.filter(course=course, user_id__in=launched,
                                                external_id="").exclude(
            role=Enrollment.Role.INSTRUCTOR):
        sub = launched[enrollment.user_id]
        if sub not in taken:
            enrollment.external_id = sub
            enrollment.save(update_fields=["external_id"])
            taken.add(sub)


@transaction.atomic(durable=True)
def _link_lti_users(*, context: LtiContext, course: Course, members: list[Member]) -> list[User]:
    """Each member's LtiUser (created when missing) points at the account enrolled under
    their sub; one already linked to another account is left alone. Returns the accounts
    linked now."""
    accounts = dict(Enrollment.objects.filter(
        course=course, external_id__in=[m.user_id for m in members])
        .values_list("external_id", "user_id"))
    registration_id = context.deployment.registration_id
    linked: list[int] = []
    for member in members:
        user_id = accounts.get(member.user_id)
        lti_user, _ = LtiUser.objects.get_or_create(
            registration_id=registration_id, sub=member.user_id,
            defaults={"name": member.name[:500], "email": member.email,
                      "given_name": member.given_name[:500],
                      "family_name": member.family_name[:500]})
        if user_id is not None and lti_user.auth_user_id is None:
            lti_user.auth_user_id = user_id
            lti_user.save(update_fields=["auth_user"])
            linked.append(user_id)
    return list(User.objects.filter(pk__in=linked))
