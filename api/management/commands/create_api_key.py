"""`manage.py create_api_key --course SLUG --role lms`: issue an API key and print its token once."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from api.keys import api_key_create
from api.models import ApiKey
from courses.models import Course, Enrollment


class Command(BaseCommand):
    help = (
        "Issue an API key for one course and print its token (shown once, never stored). "
        "Role 'lms' reads and writes (submit answers, sync the roster, run labs); "
        "'read_only' only reads (gradebook, submissions)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--course", required=True, help="the course's slug")
        parser.add_argument("--role", required=True, choices=ApiKey.Role.values)
        parser.add_argument("--name", default="", help="what the key is for (default: the role)")
        parser.add_argument("--created-by", default="",
                            help="username recorded as the issuer (default: the course's first "
                                 "instructor, else a superuser)")

    def handle(self, *args: Any, course: str, role: str, name: str, created_by: str,
               **options: Any) -> None:
        found = Course.objects.filter(slug=course).first()
        if found is None:
            raise CommandError(f"No course with slug {course!r}.")
        issuer = self._issuer(found, created_by)
        issued = api_key_create(course=found, name=name or str(ApiKey.Role(role).label), role=role,
                                created_by=issuer)
        self.stderr.write(f"Issued {issued.api_key} for {found.slug}, role {role}. Copy the token "
                          "now: it is not stored and will not be shown again.")
        self.stdout.write(issued.token)

    def _issuer(self, course: Course, username: str) -> User:
        if username:
            user = User.objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"No user {username!r}.")
            return user
        instructor = (Enrollment.objects.filter(course=course, role=Enrollment.Role.INSTRUCTOR,
                                                is_active=True)
                      .select_related("user").order_by("id").first())
        if instructor is not None:
            return instructor.user
        superuser = User.objects.filter(is_superuser=True).order_by("id").first()
        if superuser is None:
            raise CommandError("The course has no instructor and there is no superuser: "
                               "say who issues the key with --created-by USERNAME.")
        return superuser
