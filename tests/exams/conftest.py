"""A copy of module 5 with the quiz of tests/exams/content beside it (two pools)."""

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from courses.models import Course, Enrollment, Module
from courses.services import content_sync
from exams.models import Assessment
from tests.factories import UserFactory

QUIZ_CONTENT = Path(__file__).resolve().parent / "content"


def module_with_quiz(target: Path) -> Path:
    """Copy module 5 and the test quiz's assessments/ folder into `target`/module-05."""
    folder = target / "module-05"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-05", folder)
    shutil.copytree(QUIZ_CONTENT / "assessments", folder / "assessments")
    return folder


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return module_with_quiz(tmp_path)


MODULE_TOML = '''uuid = "5b8f6c2e-2f0c-4d7e-9a51-0d1c9e0b1aff"
slug = "exam-module"
number = "9"
title = "A module with a quiz"
'''
SECTION = '''+++
uuid = "5b8f6c2e-2f0c-4d7e-9a51-0d1c9e0b1afe"
number = "9.1"
slug = "reading"
title = "Reading"
order = 1
+++
The section's text.
'''


def small_module_with_quiz(target: Path) -> Path:
    """A module of one section and no exercise, with the test quiz: quick to sync."""
    folder = target / "exam-module"
    (folder / "sections").mkdir(parents=True)
    (folder / "module.toml").write_text(MODULE_TOML, encoding="utf-8")
    (folder / "sections" / "01-reading.md").write_text(SECTION, encoding="utf-8")
    shutil.copytree(QUIZ_CONTENT / "assessments", folder / "assessments")
    return folder


@dataclass
class QuizCourse:
    course: Course
    assessment: Assessment
    student: User
    instructor: User


@pytest.fixture
def quiz_course(tmp_path: Path) -> QuizCourse:
    """The quiz synced into a course with one student and one instructor."""
    content_sync(root=small_module_with_quiz(tmp_path))
    module = Module.objects.get(slug="exam-module")
    course = Course.objects.create(slug="quiz-course", title="Quiz course", module=module)
    student = cast(User, UserFactory(username="student"))
    instructor = cast(User, UserFactory(username="teacher"))
    Enrollment.objects.create(course=course, user=student, role=Enrollment.Role.STUDENT)
    Enrollment.objects.create(course=course, user=instructor, role=Enrollment.Role.INSTRUCTOR)
    return QuizCourse(course, Assessment.objects.get(slug="quiz-1"), student, instructor)
