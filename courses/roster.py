"""Roster sync from an LMS: one PUT of the full list creates, updates and deactivates enrolments.

Enrolments are matched by their external id within the course. Only enrolments that carry
an external id are managed by the LMS: one created by hand (no external id) is never
deactivated by a sync. A student left out of the list is deactivated, never deleted, so
their work stays; listing them again reactivates them.

A sync reaches no further than its course: it adopts only accounts already enrolled here by
hand (matched by email), never an account of another course; it never renames an account
that is also enrolled elsewhere; and it gives only the roles students and TAs have, since
instructors are made in person.

A sync that would deactivate more than ROSTER_MAX_DEACTIVATION_SHARE of the course's active
LMS-managed enrolments (and more than one of them), or an empty list that would deactivate
anyone, is refused unless the caller confirms it (`allow_mass_deactivation`): an empty or
truncated list from a misbehaving LMS must not empty a class.
"""

import re
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from core.user_cache import user_cache_flush
from courses.models import Course, Enrollment

MAX_ENTRIES = 10_000
#: The roles a roster may give; instructors are added in person, never by a sync.
ROSTER_ROLES = (Enrollment.Role.STUDENT, Enrollment.Role.TA)
#: Default share of the active LMS-managed roster one sync may deactivate unconfirmed.
DEFAULT_MAX_DEACTIVATION_SHARE = 0.2


def max_deactivation_share() -> float:
    """The share (0..1) of the active LMS-managed roster a sync may deactivate unconfirmed
    (setting ROSTER_MAX_DEACTIVATION_SHARE)."""
    share = float(getattr(settings, "ROSTER_MAX_DEACTIVATION_SHARE", DEFAULT_MAX_DEACTIVATION_SHARE))
    return min(1.0, max(0.0, share))


class RosterMassDeactivation(Exception):
    """The sync would deactivate more of the roster than allowed unconfirmed. Nothing changed."""

    def __init__(self, *, deactivating: int, active: int, share: float) -> None:
        self.deactivating, self.active, self.share = deactivating, active, share
        super().__init__(
            f"This roster would deactivate {deactivating} of the {active} active students "
            f"managed by the LMS (more than {share:.0%}). If that is intended, send the same "
            "roster again with allow_mass_deactivation set to true."
        )


class RosterInvalid(Exception):
    """The roster cannot be applied; `errors` maps "<index>.<field>" to messages. Nothing changed."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


@dataclass(frozen=True)
class RosterEntry:
    external_id: str
    name: str
    email: str
    role: str = Enrollment.Role.STUDENT
    group: str = ""


@dataclass
class RosterDiff:
    """External ids by what the sync did to their enrolment (reactivation counts as updated)."""

    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    deactivated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def roster_list(*, course: Course) -> QuerySet[Enrollment]:
    """Every enrolment of the course (active or not), with its user, by name."""
    return (
        Enrollment.objects.filter(course=course).select_related("user")
        .order_by("-is_active", "user__last_name", "user__first_name", "user__username", "id")
    )


def _split_name(name: str) -> tuple[str, str]:
    words = name.split()
    if len(words) < 2:
        return name.strip()[:150], ""
    return " ".join(words[:-1])[:150], words[-1][:150]


def _username_base(external_id: str) -> str:
    cleaned = re.sub(r"[^\w.@+-]", "-", external_id)[:120].strip("-")
    return cleaned or "lms-user"


def _new_usernames(external_ids: list[str]) -> dict[str, str]:
    bases = {ext: _username_base(ext) for ext in external_ids}
    taken = set(
        User.objects.filter(username__in=list(bases.values())).values_list("username", flat=True)
    )
    names: dict[str, str] = {}
    for ext, base in bases.items():
        name, n = base, 1
        while name in taken or (name != base and User.objects.filter(username=name).exists()):
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        names[ext] = name
    return names


def _validate(entries: list[RosterEntry]) -> None:
    errors: dict[str, list[str]] = {}
    if len(entries) > MAX_ENTRIES:
        raise RosterInvalid({"non_field_errors": [f"At most {MAX_ENTRIES} enrolments per request."]})
    counts = Counter(e.external_id for e in entries)
    for index, entry in enumerate(entries):
        if not entry.external_id.strip():
            errors[f"{index}.external_id"] = ["This field may not be blank."]
        elif counts[entry.external_id] > 1:
            errors[f"{index}.external_id"] = [f"{entry.external_id!r} appears more than once."]
        if entry.role not in ROSTER_ROLES:
            errors[f"{index}.role"] = [
                f"Role {entry.role!r} cannot be given by a roster (student or ta); "
                "instructors are added in the service."]
    if errors:
        raise RosterInvalid(errors)


def _find_users(course: Course, missing: list[RosterEntry]) -> dict[str, User]:
    """Accounts for entries new to the LMS roster: the one enrolled in this course by hand (no
    external id, not an instructor) with the entry's email. Nothing outside the course."""
    emails = {e.email.lower(): e.external_id for e in missing if e.email}
    if not emails:
        return {}
    by_hand = (
        Enrollment.objects.filter(course=course, external_id="")
        .exclude(role=Enrollment.Role.INSTRUCTOR).select_related("user")
        .annotate(email_lower=Lower("user__email")).filter(email_lower__in=list(emails))
    )
    matches: dict[str, list[User]] = {}
    for enrollment in by_hand:
        matches.setdefault(enrollment.user.email.lower(), []).append(enrollment.user)
    return {emails[email]: users[0] for email, users in matches.items()
            if len(users) == 1}  # an ambiguous email links nobody


def _enrolled_elsewhere(course: Course, user_ids: list[int]) -> set[int]:
    """Which of `user_ids` belong to another course too (or are site staff): not renamed."""
    elsewhere = set(Enrollment.objects.filter(user_id__in=user_ids).exclude(course=course)
                    .values_list("user_id", flat=True))
    staff = set(User.objects.filter(pk__in=user_ids)
                .filter(Q(is_staff=True) | Q(is_superuser=True)).values_list("pk", flat=True))
    return elsewhere | staff


@transaction.atomic(durable=True)
def roster_sync(*, course: Course, entries: list[RosterEntry],
                allow_mass_deactivation: bool = False) -> RosterDiff:
    """Make the course's LMS-managed enrolments match `entries`; returns what changed.

    Each entry is matched by external id in this course; otherwise it adopts the enrolment
    made here by hand (no external id, not an instructor) of the one user with that email;
    otherwise a user (without a usable password) is created. Name and email are updated,
    except for accounts also enrolled in another course or site staff; role and group are
    updated; managed enrolments absent from `entries` are deactivated. Raises RosterInvalid
    (changing nothing) for duplicate or blank external ids or roles other than student and
    ta. Raises RosterMassDeactivation (changing nothing) when, without
    `allow_mass_deactivation`, more than one and more than `max_deactivation_share()` of the
    active LMS-managed enrolments would be deactivated, or an empty list would deactivate any.
    Concurrent syncs of one course are serialized. The number of queries does not grow with
    the roster.
    """
    _validate(entries)
    Course.objects.select_for_update().filter(pk=course.pk).first()
    diff = RosterDiff()
    enrollments = list(Enrollment.objects.filter(course=course).select_related("user"))
    by_external = {e.external_id: e for e in enrollments if e.external_id}
    if not allow_mass_deactivation:
        _refuse_mass_deactivation(by_external, {e.external_id for e in entries})
    by_user = {e.user_id: e for e in enrollments}
    newcomers = [e for e in entries if e.external_id not in by_external]
    found = _find_users(course, newcomers) if newcomers else {}
    usernames = _new_usernames([e.external_id for e in newcomers]) if newcomers else {}

    # Newcomers: an account (found or new), then an enrolment (adopted or new).
    users: dict[str, User] = {}
    claimed: set[int] = set()
    new_users: list[User] = []
    for entry in newcomers:
        user = found.get(entry.external_id)
        here = by_user.get(user.pk) if user is not None else None
        if user is None or user.pk in claimed or (here is not None and here.external_id):
            first, last = _split_name(entry.name)
            user = User(username=usernames[entry.external_id], first_name=first, last_name=last,
                        email=entry.email)
            user.set_unusable_password()
            new_users.append(user)
        else:
            claimed.add(user.pk)
        users[entry.external_id] = user
    User.objects.bulk_create(new_users)
    new_enrollments = []
    for entry in newcomers:
        user = users[entry.external_id]
        adopted = by_user.get(user.pk)
        if adopted is not None:
            adopted.external_id = entry.external_id
            by_external[entry.external_id] = adopted
        else:
            new_enrollments.append(Enrollment(user=user, course=course, role=entry.role,
                                              group=entry.group, external_id=entry.external_id))
            diff.created.append(entry.external_id)
    Enrollment.objects.bulk_create(new_enrollments)
    created = set(diff.created)

    changed_users: list[User] = []
    changed_enrollments: list[Enrollment] = []
    shared = _enrolled_elsewhere(course, [e.user_id for e in by_external.values()])
    for entry in entries:
        if entry.external_id in created:
            first, last = _split_name(entry.name)
            _update_user(users[entry.external_id], first, last, entry.email, changed_users)
            continue
        enrollment = by_external[entry.external_id]
        first, last = _split_name(entry.name)
        changed = (enrollment.user_id not in shared
                   and _update_user(enrollment.user, first, last, entry.email, changed_users))
        changed = changed or entry.external_id in users  # adopted: its external id is new
        for name, value in (("role", entry.role), ("group", entry.group), ("is_active", True)):
            if getattr(enrollment, name) != value:
                setattr(enrollment, name, value)
                changed = True
        if changed:
            changed_enrollments.append(enrollment)
            diff.updated.append(entry.external_id)
        else:
            diff.unchanged.append(entry.external_id)

    listed = {e.external_id for e in entries}
    for external_id, enrollment in by_external.items():
        if external_id not in listed and enrollment.is_active:
            enrollment.is_active = False
            changed_enrollments.append(enrollment)
            diff.deactivated.append(external_id)
    if changed_users:
        User.objects.bulk_update(changed_users, ["first_name", "last_name", "email"])
        user_cache_flush(user.pk for user in changed_users)  # bulk_update sends no signal
    if changed_enrollments:
        Enrollment.objects.bulk_update(changed_enrollments,
                                       ["role", "group", "is_active", "external_id"])
    return diff


def _refuse_mass_deactivation(managed: dict[str, Enrollment], listed: set[str]) -> None:
    active = [ext for ext, enrollment in managed.items() if enrollment.is_active]
    deactivating = sum(1 for ext in active if ext not in listed)
    share = max_deactivation_share()
    # One student leaving is ordinary even in a small class; an empty list never is.
    if deactivating > max(1.0, share * len(active)) or (deactivating and not listed):
        raise RosterMassDeactivation(deactivating=deactivating, active=len(active), share=share)


def _update_user(user: User, first: str, last: str, email: str, changed: list[User]) -> bool:
    if (user.first_name, user.last_name, user.email) == (first, last, email):
        return False
    user.first_name, user.last_name, user.email = first, last, email
    changed.append(user)
    return True
