"""factory-boy factories for users, courses and enrolments (content comes from the files)."""

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
