"""The gradebook CSV export prints exactly what the gradebook rows say."""

import pytest
from django.contrib.auth import get_user_model

from grading.gradebook import csv_text, gradebook_columns, gradebook_csv_rows, gradebook_iter
from grading.models import GradeOverride
from instructor import exports
from tests.factories import progress_sync
from tests.instructor.conftest import build_class, course_parts

User = get_user_model()


def _expected(course, group: str = "") -> str:
    """The gradebook's own CSV: a GradebookRow per student, formatted by gradebook_csv_rows."""
    columns = gradebook_columns(course=course)
    return "".join(csv_text(gradebook_csv_rows(columns, gradebook_iter(course=course,
                                                                       group=group or None))))


@pytest.mark.django_db
@pytest.mark.parametrize("group", ["", "g1"])
def test_the_gradebook_csv_equals_the_gradebook_rows_in_batches(course, irene, monkeypatch,
                                                                 group):
    users = build_class(course, 7)
    parts = course_parts(course)
    User.objects.filter(pk=users[1].pk).update(first_name="=cmd", last_name="")
    GradeOverride.objects.create(course=course, student=users[0], part=parts[0], score=0.25,
                                 reason="partial credit", created_by=irene)
    GradeOverride.objects.create(course=course, student=users[3], part=parts[1], score=None,
                                 reason="cleared", created_by=irene)
    progress_sync(course)
    monkeypatch.setattr(exports, "CSV_BATCH", 3)  # several batches and a short last one
    text = "".join(exports.gradebook_csv(course=course, group=group))
    assert text == _expected(course, group)
    assert text.count("\r\n") == 1 + (7 if not group else 3)
    if not group:
        assert "'=cmd" in text
