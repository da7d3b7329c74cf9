"""Demo data for trying the service locally: never used in production."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction

from courses.models import Course, CourseModule, Enrollment, Module
from courses.services import course_create, enrollment_set
from grading.models import DefaultVariant

DEMO_PASSWORD = "demo-pass-5"  # noqa: S105 (printed for the demo; not a real secret)
DEMO_MODULE_SLUG = "module-05"
#: The demo course's name: it runs Module 5 (recurrent networks to attention) and every other
#: synced module after it (Module 6, self-attention).
DEMO_COURSE_TITLE = "Sequence models and attention (demo)"


#: The demo student who gets the module's own numbers (0.85 and 40 steps, ...) in every exercise.
MODULE_NUMBERS_STUDENT = "student1"


@dataclass
class DemoResult:
    course: Course
    accounts: list[tuple[str, str]] = field(default_factory=list)
    #: usernames of the students who have the module's own numbers (the default variant)
    module_numbers: list[str] = field(default_factory=list)


def demo_seed(*, course_slug: str, students: int, only_if_empty: bool = False) -> DemoResult | None:
    """Create a course running Module 5 and the other synced modules (DEMO_COURSE_TITLE)
    with `instructor`, `ta` and `student1..N`; student1
    gets the default variant (the module's own numbers), the others seeded ones.

    Idempotent: existing users keep their passwords and enrolments are updated in place.
    Returns None (doing nothing) when `only_if_empty` and a course exists already.
    Requires the module to have been synced (`sync_content`).
    """
    with transaction.atomic(durable=True):
        if only_if_empty and Course.objects.exists():
            return None
        module = Module.objects.active().filter(slug=DEMO_MODULE_SLUG).first()
        if module is None:
            raise LookupError("Module 5 is not loaded: run `manage.py sync_content` first.")
        course = course_create(slug=course_slug, title=DEMO_COURSE_TITLE, module=module)
        # Every other synced module runs in the demo course too, after Module 5, by number.
        others = sorted(Module.objects.active().exclude(pk=module.pk),
                        key=lambda m: (len(m.number), m.number))
        for order, other in enumerate(others, start=1):
            CourseModule.objects.get_or_create(course=course, module=other,
                                               defaults={"order": order})
        result = DemoResult(course=course)
        wanted = [("instructor", Enrollment.Role.INSTRUCTOR, ""), ("ta", Enrollment.Role.TA, "")]
        wanted += [
            (f"student{i}", Enrollment.Role.STUDENT, "A" if i % 2 else "B")
            for i in range(1, students + 1)
        ]
        user_model = get_user_model()
        for username, role, group in wanted:
            user, created = user_model.objects.get_or_create(
                username=username,
                defaults={"first_name": username.capitalize(), "email": f"{username}@example.org"},
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.is_staff = user.is_superuser = role == Enrollment.Role.INSTRUCTOR
                user.save()
            enrollment_set(course=course, user=user, role=role, group=group)
            result.accounts.append((username, str(role.label)))
            if username == MODULE_NUMBERS_STUDENT:
                DefaultVariant.objects.get_or_create(course=course, student=user)
                result.module_numbers.append(username)
        return result
