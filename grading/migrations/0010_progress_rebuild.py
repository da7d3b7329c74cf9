"""Rebuild every course's progress rows from the submissions already stored, filling the
columns added up to 0009 (wrong answers, variant keys) and the wrong-answer counts.

Uses today's rebuild code, as `manage.py progress_rebuild` would: keep this the last
migration that touches the progress tables' columns, or move it after the newer one.
On an empty database it does nothing.
"""

from typing import Any

from django.db import migrations


def rebuild(apps: Any, schema_editor: Any) -> None:
    from courses.models import Course
    from grading.progress_rebuild import progress_rebuild

    for course_id in apps.get_model("courses", "Course").objects.values_list("pk", flat=True):
        progress_rebuild(course=Course(pk=course_id))  # only its key is used


class Migration(migrations.Migration):
    dependencies = [("grading", "0009_progress_wrong_answers_variants")]

    operations = [migrations.RunPython(rebuild, migrations.RunPython.noop)]
