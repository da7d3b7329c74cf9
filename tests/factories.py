"""factory-boy factories for users, courses and enrolments (content comes from the files)."""

from typing import Any

import factory
from django.contrib.auth import get_user_model

from courses.models import Course, Enrollment

TEST_PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    first_name = factory.LazyAttribute(lambda u: u.username.capitalize())
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password(TEST_PASSWORD)


class CourseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Course

    slug = factory.Sequence(lambda n: f"course-{n}")
    title = factory.Sequence(lambda n: f"Course {n}")


class EnrollmentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Enrollment

    user = factory.SubFactory(UserFactory)
    role = Enrollment.Role.STUDENT


def predictions_made(*, student: Any, course: Course, lab_slug: str) -> None:
    """Store the student's committed predictions for every part the lab grades (as if made
    and graded long ago), so that the lab's "predict first" rule lets them run it."""
    from courses.models import Part
    from grading.models import Submission

    for part in Part.objects.filter(exercise__module_id__in=course.module_ids(),
                                    spec__lab=lab_slug):
        Submission.objects.create(student=student, course=course, part=part, raw_answer="-",
                                  outcome=Submission.Outcome.INCORRECT, score=0.0,
                                  counts_as_attempt=True)


def progress_sync(course) -> None:
    """Rebuild the course's kept progress rows after a test wrote submissions or overrides
    directly (bulk_create, update), bypassing the services that keep them."""
    from grading.progress_rebuild import progress_rebuild

    progress_rebuild(course=course)


def first_attempt_class(course, part, plan: dict, prefix: str = "s") -> list:
    """Enrol students answering `part` and keep their progress: `plan` maps a variant seed
    to (students right at once, right at the second attempt, never right). The users, in
    the plan's order."""
    from courses.models import Enrollment
    from grading.models import Submission

    right, wrong = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT
    answers, users = [], []
    for seed, (first, second, never) in plan.items():
        for i in range(first + second + never):
            user: Any = UserFactory(username=f"{prefix}{seed}-{i}")
            users.append(user)
            EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
            outcomes = [right] if i < first else [wrong, right] if i < first + second else [wrong]
            answers += [Submission(student=user, course=course, part=part, raw_answer="x",
                                   outcome=o, score=1.0 if o == right else 0.0,
                                   counts_as_attempt=True, variant_seed=seed)
                        for o in outcomes]
    Submission.objects.bulk_create(answers)
    progress_sync(course)
    return users
