"""Core's SQL (core/sql.py), one test per statement, on both databases: an uncompiled
UPDATE or INSERT stores what the ORM stores, many rows' UPDATE what `bulk_update` stores,
raw reads give the query's rows and COPY inserts them."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone

from core.sql import (
    chunked_rows,
    copy_rows,
    raw_rows,
    row_insert,
    row_update,
    row_values_update,
    rows_save,
)
from courses.models import Exercise, Part
from grading.models import PartProgress, Submission, WrongAnswerCount

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


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


def test_rows_save_stores_what_bulk_update_stores(course, alice, bob, module_05):
    part = Part.objects.first()
    rows = [PartProgress.objects.create(course=course, student=s, part=part) for s in (alice, bob)]
    for n, row in enumerate(rows):
        row.attempts, row.wrong_answers, row.solved = n + 2, {"k": n}, bool(n)
    rows_save(PartProgress, rows, ("attempts", "wrong_answers", "solved"))
    stored = {r.student_id: (r.attempts, r.wrong_answers, r.solved)
              for r in PartProgress.objects.all()}
    assert stored == {alice.pk: (2, {"k": 0}, False), bob.pk: (3, {"k": 1}, True)}


def test_raw_and_chunked_rows_are_the_querys_rows(module_05):
    query = Part.objects.order_by("id").values_list("id", "key")
    expected = [tuple(row) for row in query]
    assert [tuple(row) for row in raw_rows(query)] == expected
    chunks = list(chunked_rows(query, 3))
    assert all(len(chunk) <= 3 for chunk in chunks)
    assert [tuple(row) for chunk in chunks for row in chunk] == expected


def test_copy_rows_inserts_the_rows(course, alice, module_05):
    if connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's (CI's PostgreSQL pass runs this)")
    part = Part.objects.first()
    copy_rows(WrongAnswerCount, ("course_id", "part_id", "digest", "misconception", "canonical",
                                 "answers", "students"),
              [(course.pk, part.pk, "d1", "linear", "0.5", 3, 2)])
    row = WrongAnswerCount.objects.get(course=course, part=part)
    assert (row.digest, row.canonical, row.answers, row.students) == ("d1", "0.5", 3, 2)
