"""What courses holds about a person: the account and its enrolments."""

from typing import Any

from django.contrib.auth.models import User

from core.personal_data import PersonalDataSource, personal_data_register
from courses.models import Enrollment, LanguagePreference


def account_export(user: User) -> dict[str, Any]:
    """The account: names, e-mail, status and dates."""
    return {
        "id": user.pk, "username": user.username, "first_name": user.first_name,
        "last_name": user.last_name, "email": user.email, "is_active": user.is_active,
        "is_staff": user.is_staff, "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
    }


def account_erase(user: User, pseudonym: str) -> int:
    """The account keeps its id (its scores stay in the statistics) under the pseudonym, with
    no name, e-mail or usable password, and can no longer sign in."""
    user.username = pseudonym
    user.first_name = user.last_name = user.email = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    return 1


def enrolments_export(user: User) -> list[dict[str, Any]]:
    """Every enrolment: course, role, group, the LMS's id for the person, since when."""
    return [
        {"course": e.course.slug, "course_title": e.course.title, "role": e.role,
         "group": e.group, "external_id": e.external_id, "is_active": e.is_active,
         "created_at": e.created_at.isoformat()}
        for e in Enrollment.objects.filter(user=user).select_related("course").order_by("id")
    ]


def enrolments_erase(user: User, pseudonym: str) -> int:
    """Enrolments stay (role and group keep the statistics whole); the LMS's id goes."""
    return Enrollment.objects.filter(user=user).exclude(external_id="").update(external_id="")


def language_export(user: User) -> str:
    """The interface language the person chose ('' for none)."""
    return LanguagePreference.objects.filter(user=user).values_list(
        "language", flat=True).first() or ""


def language_erase(user: User, pseudonym: str) -> int:
    """The choice is removed (it is a preference, not a record)."""
    return LanguagePreference.objects.filter(user=user).delete()[0]


def register() -> None:
    """Register courses' personal data (called by CoursesConfig.ready())."""
    personal_data_register(PersonalDataSource("account", account_export, account_erase, order=1000))
    personal_data_register(PersonalDataSource("enrolments", enrolments_export, enrolments_erase))
    personal_data_register(PersonalDataSource("language", language_export, language_erase))
