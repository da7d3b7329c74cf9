"""Every TOML example of every guide syncs as written (issue 37, item 5).

Each example is put in the smallest course folder around it (`tests/docs/guide_examples.py`)
and synced by the instructors' own path: an archive of the folder uploaded to a course.
"""

import io
import tarfile
from pathlib import Path
from typing import cast

import pytest
from django.contrib.auth.models import User

from courses.course_sync import course_sync_archive
from courses.models import Course, Enrollment, Exercise, Module, Part
from tests.docs.guide_examples import (
    ROOT,
    Example,
    content_folder,
    every_example,
    kind_of,
    module_from_examples,
)
from tests.factories import UserFactory

EXAMPLES = every_example()


def _archive(folder: Path) -> io.BytesIO:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        tf.add(folder, "course")
    buffer.seek(0)
    return buffer


def sync_folder(folder: Path) -> list[str]:
    """Sync `folder` into a new course as its instructor would; the problems (none: applied)."""
    user = cast(User, UserFactory(username="author"))
    holder = Module.objects.create(uuid="00000000-0000-4000-8000-000000000001",
                                   slug="placeholder", number="0", title="Placeholder")
    course = Course.objects.create(slug="guide-course", title="Guide course", module=holder)
    Enrollment.objects.create(course=course, user=user, role=Enrollment.Role.INSTRUCTOR)
    record = course_sync_archive(course=course, user=user, upload=_archive(folder),
                                 name="course.tar.gz")
    return [] if record.ok else record.problems


def test_the_guides_have_examples_of_every_content_file():
    kinds = {kind_of(example) for example in EXAMPLES}
    assert kinds == {"course", "module", "section", "figure", "lab", "exercise",
                     "assessment"}


@pytest.mark.django_db
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.where)
def test_every_guide_example_syncs_as_written(example: Example, tmp_path: Path):
    problems = sync_folder(content_folder(example, tmp_path / "course"))
    assert not problems, f"{example.where}:\n{example.text}\n" + "\n".join(problems)


@pytest.mark.django_db
def test_a_new_module_written_from_the_guides_examples_syncs_at_the_first_try(tmp_path: Path):
    """The module the guides teach (docs/adding-a-module.md points to the content format, the
    authoring guide and the answer types): its module, section, figure, lab and exercise
    files are the guides' own examples, every answer type's example an exercise of it."""
    guides = {ROOT / "courses/content/README.md", ROOT / "docs/authoring.md",
              ROOT / "grading/checkers/README.md"}
    course = tmp_path / "course"
    module = course / "module-07"
    written = module_from_examples(
        [e for e in EXAMPLES if e.guide in guides and kind_of(e) != "course"], module)
    (course / "course.toml").write_text('title = "A new course"\nmodules = ["module-07"]\n')

    assert sync_folder(course) == []

    assert written["exercise"] >= 12 and written["figure"] >= 5 and written["lab"] == 1
    assert Exercise.objects.filter(module__number="5").count() == written["exercise"]
    answer_types = set(Part.objects.values_list("answer_type", flat=True))
    assert answer_types >= {"numeric", "symbolic", "vector", "matrix", "quantity", "set",
                            "list", "equation", "string"}
