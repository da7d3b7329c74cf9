"""Hand-written statements' helpers: instances cut from a joined row are the ORM's, and an
uncompiled UPDATE stores what `save(update_fields=...)` stores (both databases)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone

from core.sql_rows import ModelColumns, instances, row_insert, row_update, row_values_update
from courses.models import Exercise, Part
from grading.models import PartProgress, Submission

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_joined_row_is_cut_into_the_orms_instances_and_the_rest(module_05):
    part = Part.objects.select_related("exercise").filter(exercise__parameters__isnull=False) \
        .exclude(exercise__parameters={}).first()
    assert part is not None
    layout = (ModelColumns(Part, "p"), ModelColumns(Exercise, "x"))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {layout[0].select}, {layout[1].select}, 42 "  # noqa: S608
                       f"FROM {Part._meta.db_table} p JOIN {Exercise._meta.db_table} x "
                       f"ON x.id = p.exercise_id WHERE p.id = %s", [part.pk])
        (read_part, read_exercise), rest = instances(cursor.fetchone(), layout)
    assert _fields(read_part) == _fields(part) and _fields(read_exercise) == _fields(part.exercise)
    assert read_exercise.parameters == part.exercise.parameters  # JSON, decoded
    assert rest == [42]
    assert not read_part._state.adding and read_part._state.db == "default"


def test_a_null_key_from_a_left_join_gives_none(module_05):
    layout = (ModelColumns(Part, "p"),)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {layout[0].select} FROM {Exercise._meta.db_table} x "  # noqa: S608
                       f"LEFT JOIN {Part._meta.db_table} p ON p.id = -1 LIMIT 1")
        (nothing,), rest = instances(cursor.fetchone(), layout)
    assert nothing is None and rest == []


def test_row_update_stores_what_save_with_update_fields_stores(course, alice, module_05):
    part = Part.objects.first()
    row = PartProgress.objects.create(course=course, student=alice, part=part)
    twin = PartProgress.objects.create(course=course, student=alice,
                                       part=Part.objects.exclude(pk=part.pk).first())
    when = timezone.now() - timedelta(hours=2)
    for target in (row, twin):
        target.attempts, target.solved, target.best_score = 3, True, 0.75
        target.solved_at, target.wrong_answers = when, {"abc": 2, "d": 1}
        target.last_wrong_key, target.variant_seed = "0.5", None
    fields = ["attempts", "solved", "best_score", "solved_at", "wrong_answers",
              "last_wrong_key", "variant_seed"]
    assert row_update(row, fields) == 1
    twin.save(update_fields=fields)
    stored, saved = (PartProgress.objects.get(pk=r.pk) for r in (row, twin))
    assert {k: v for k, v in _fields(stored).items() if k not in ("id", "part_id")} == \
        {k: v for k, v in _fields(saved).items() if k not in ("id", "part_id")}
    assert stored.wrong_answers == {"abc": 2, "d": 1} and stored.solved_at == when


def test_row_values_update_counts_no_row_for_a_missing_key_and_refuses_expressions(
        course, alice, module_05):
    assert row_values_update(PartProgress, 10**9, {"attempts": 1}) == 0
    with pytest.raises(ValueError, match="attempts"):
        row_values_update(PartProgress, 1, {"attempts": F("attempts") + 1})
    with pytest.raises(ValueError, match="updated_at"):  # auto_now: save() would set it
        row_values_update(Exercise, Exercise.objects.first().pk, {"updated_at": timezone.now()})


def test_row_insert_stores_what_create_stores(course, alice, module_05):
    part = Part.objects.first()
    before = timezone.now()
    mine = Submission(student=alice, course=course, part=part, raw_answer="0.85^40 ✓",
                      variant_seed=7, outcome=Submission.Outcome.PENDING)
    row_insert(mine)
    theirs = Submission.objects.create(student=alice, course=course, part=part,
                                       raw_answer="0.85^40 ✓", variant_seed=7,
                                       outcome=Submission.Outcome.PENDING)
    assert mine.pk is not None and mine.pk != theirs.pk and not mine._state.adding
    stored, created = (Submission.objects.get(pk=s.pk) for s in (mine, theirs))
    skip = ("id", "created_at", "uuid")
    assert {k: v for k, v in _fields(stored).items() if k not in skip} == \
        {k: v for k, v in _fields(created).items() if k not in skip}
    assert stored.created_at == mine.created_at and stored.created_at >= before
    stored.outcome = Submission.Outcome.CORRECT
    stored.save()  # an instance row_insert stored saves as an UPDATE
    assert Submission.objects.count() == 2


def test_row_insert_refuses_an_instance_with_a_key(course, alice, module_05):
    existing = PartProgress.objects.create(course=course, student=alice, part=Part.objects.first())
    with pytest.raises(ValueError, match="new row"):
        row_insert(existing)


def test_a_deferred_field_is_left_out_of_the_select_and_loaded_on_use():
    from labs.models import LabRun

    columns = ModelColumns(LabRun, "r", deferred=("result",))
    assert "result" not in columns.names and columns.width == len(columns.names)
    assert '"result"' not in columns.select
    for wrong in (("no_such_field",), ("id",)):
        with pytest.raises(ValueError, match="cannot defer"):
            _ = ModelColumns(LabRun, "r", deferred=wrong).fields
