"""Fill the new answer_key column from the submissions already stored, with today's grader
(answer_key); the progress rows are rebuilt by 0010, after the last of their columns exist.
Runs once on upgrade; on an empty database it does nothing.
"""

from typing import Any

from django.db import migrations


def backfill(apps: Any, schema_editor: Any) -> None:
    from grading.checkers import answer_key
    from grading.progress import answer_digest

    submission_model = apps.get_model("grading", "Submission")
    rows = (submission_model.objects.filter(answer_key="", counts_as_attempt=True)
            .exclude(raw_answer="").values_list("pk", "raw_answer", "part__spec"))
    for pk, raw, spec in rows.iterator(chunk_size=1000):
        try:
            key = answer_digest(answer_key(raw, spec))
        except Exception:  # noqa: BLE001 (an answer the grader cannot read repeats nothing)
            continue
        if key:
            submission_model.objects.filter(pk=pk).update(answer_key=key)


class Migration(migrations.Migration):
    dependencies = [("grading", "0005_progress_rows"), ("courses", "0005_course_ends_at")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
