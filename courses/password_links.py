"""Password links: how a person who has an account but no password (enrolled from a CSV file,
or created by an LMS launch) comes to sign in without the LMS.

An instructor makes a link on the People page and sends it; the person opens it and chooses
a password. The link is Django's password-reset token (django.contrib.auth.tokens): signed
with the SECRET_KEY, bound to the account, expiring after PASSWORD_RESET_TIMEOUT and used up
once the password is set (the token covers the password hash). Nothing is stored.

So that a link can never take over an account, an instructor gets one only for an account
that has no password yet, is no operator's (staff or superuser), and belongs to no course
the instructor does not teach. A forgotten password is reset by e-mail where the service has
an e-mail backend (EMAIL_URL), or by the operator.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from courses.models import Course, Enrollment
from courses.people import PeopleRefused, _require_instructor


@dataclass(frozen=True)
class PasswordLink:
    """The parts of a password link (`uidb64`, `token`: the `password_reset_confirm` URL's)."""

    user: User
    uidb64: str
    token: str
    expires_at: datetime


def password_link_create(*, course: Course, by: User, enrollment_id: int) -> PasswordLink:
    """A password link for the account of member `enrollment_id` of `course`, made by `by`.

    PermissionDenied unless `by` is an instructor of the course; PeopleRefused (the message
    says why) for an unknown member, an account that has a password already or is inactive,
    an operator's account, or one that is also in a course `by` does not teach. Three queries.
    """
    _require_instructor(course, by)
    member = (Enrollment.objects.select_related("user")
              .filter(course=course, pk=enrollment_id).first())
    if member is None:
        raise PeopleRefused("No such member of this course.")
    user = member.user
    if user.has_usable_password():
        raise PeopleRefused(f"{user.username} has a password already and signs in with it. "
                            "A forgotten password is reset from the sign-in page "
                            "(by e-mail) or by the service's operator.")
    if not user.is_active or user.is_staff or user.is_superuser:
        raise PeopleRefused(f"{user.username}'s account is managed by the service's "
                            "operator; ask them.")
    taught = Enrollment.objects.filter(user=by, is_active=True,
                                       role=Enrollment.Role.INSTRUCTOR).values("course_id")
    if Enrollment.objects.filter(user=user).exclude(course_id__in=taught).exists():
        raise PeopleRefused(f"{user.username} is also in a course you do not teach; its "
                            "instructor or the service's operator can send them a link.")
    return PasswordLink(user=user, uidb64=urlsafe_base64_encode(force_bytes(user.pk)),
                        token=default_token_generator.make_token(user),
                        expires_at=timezone.now() + timedelta(
                            seconds=settings.PASSWORD_RESET_TIMEOUT))


def password_reset_users(*, email: str) -> QuerySet[User]:
    """The active accounts a password reset e-mail for `email` goes to (case ignored),
    those without a password yet included: whoever reads that mailbox may set one."""
    return User.objects.filter(email__iexact=email.strip(), is_active=True).exclude(email="")
