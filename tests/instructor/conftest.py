"""Helpers of the dashboard tests: classes built in bulk (Module 5 comes from the shared
`module_05` fixture, synced once per session)."""

import itertools
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from courses.models import Course, Enrollment, Part
from grading.models import Submission
from tests.factories import progress_sync

User = get_user_model()


def course_parts(course: Course) -> list[Part]:
    return list(Part.objects.active().filter(exercise__module_id=course.module_id)
                .select_related("exercise").order_by("exercise__order", "order"))


def build_class(course: Course, students: int, *, attempts: int = 3, prefix: str = "s") -> list:
    """`students` students in two groups, each with `attempts` answers on every part (the
    last correct for every other student), written with bulk_create."""
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i:04d}", first_name=f"First{i}", last_name=f"Last{i:04d}",
              email=f"{prefix}{i}@example.org") for i in range(students)])
    Enrollment.objects.bulk_create(
        [Enrollment(user=u, course=course, role=Enrollment.Role.STUDENT, group=f"g{i % 2}")
         for i, u in enumerate(users)])
    parts = course_parts(course)
    start = timezone.now() - timedelta(days=10)
    tags = itertools.cycle(["linear-decay", "", "off-by-one"])
    rows = []
    for i, user in enumerate(users):
        for part in parts:
            for attempt in range(attempts):
                last = attempt == attempts - 1
                correct = last and i % 2 == 0
                if part.answer_type == "text" and last and i % 3 == 0:
                    outcome, score = Submission.Outcome.REVIEW, None
                elif correct:
                    outcome, score = Submission.Outcome.CORRECT, 1.0
                else:
                    outcome, score = Submission.Outcome.INCORRECT, 0.0
                rows.append(Submission(
                    student=user, course=course, part=part, raw_answer=f"answer {attempt}",
                    canonical="" if correct else f"wrong {attempt}", outcome=outcome,
                    score=score, counts_as_attempt=True,
                    misconception="" if correct or outcome == "review" else next(tags),
                    variant_seed=1000 + i, graded_at=start,
                ))
    Submission.objects.bulk_create(rows, batch_size=2000)
    Submission.objects.filter(course=course).update(created_at=start)
    progress_sync(course)
    return users
