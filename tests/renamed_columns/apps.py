"""Gives three fields of the answer, lab, live and dashboard paths another database column
(`db_column`), as a model edit would, before any code builds a statement: installed first
(config/settings/test.py, GRADER_RENAMED_COLUMNS=1), its `ready` runs before every other
app's. The test database is then created from the models (pytest's `--no-migrations`), so
the tables have the new columns and nothing else knows of them."""

from django.apps import AppConfig, apps

#: (app label, model, field) -> the column it is stored in during the rename test.
RENAMED = {
    ("courses", "Enrollment", "is_active"): "renamed_is_active",
    ("grading", "Submission", "counts_as_attempt"): "renamed_counts_as_attempt",
    ("grading", "PartProgress", "attempts"): "renamed_attempts",
}


class RenamedColumnsConfig(AppConfig):
    name = "tests.renamed_columns"
    label = "renamed_columns"

    def ready(self) -> None:
        for (app_label, model_name, field_name), column in RENAMED.items():
            field = apps.get_model(app_label, model_name)._meta.get_field(field_name)
            field.db_column = column
            field.set_attributes_from_name(field.name)
