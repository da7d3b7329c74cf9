"""Migration 0008: every existing course keeps its module as its first CourseModule."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("courses", "0007_figure_kind_state_chain")]
AFTER = [("courses", "0008_course_modules")]


@pytest.mark.django_db(transaction=True)
def test_existing_course_keeps_its_module_as_its_first_course_module():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    module = old.get_model("courses", "Module").objects.create(slug="m-old", number="1",
                                                               title="Old")
    course = old.get_model("courses", "Course").objects.create(slug="c-old", title="Old run",
                                                               module=module)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    links = list(new.get_model("courses", "CourseModule").objects.filter(course_id=course.pk)
                 .values_list("module_id", "order", "weight", "due_at", "release_at"))
    assert links == [(module.pk, 0, 1.0, None, None)]
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
