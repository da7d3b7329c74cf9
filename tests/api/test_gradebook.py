"""The gradebook through the API: JSON and CSV, per course and per student, incremental sync."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from grading.models import Submission
from grading.services import submission_create
from tests.factories import progress_sync

pytestmark = pytest.mark.django_db


def url(course, tail: str = "") -> str:
    return f"/api/v1/courses/{course.slug}/gradebook/{tail}"


def test_the_gradebook_has_a_row_per_student_and_a_column_per_part(
    course, alice, bob, numeric_part, key_client, readonly_token
):
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    body = key_client(readonly_token).get(url(course)).json()
    assert body["course"] == course.slug
    assert numeric_part.pk in {c["id"] for c in body["columns"]}
    rows = {r["username"]: r for r in body["rows"]}
    assert set(rows) == {"alice", "bob"}
    assert [c["part_id"] for c in rows["alice"]["cells"]] == [numeric_part.pk]
    assert rows["alice"]["cells"][0]["attempts"] == 1
    assert rows["bob"]["cells"] == []


def test_updated_since_returns_only_students_graded_since(
    course, alice, bob, numeric_part, key_client, readonly_token
):
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    submission_create(student=bob, course=course, part=numeric_part, raw_answer="0.1")
    Submission.objects.filter(student=alice).update(graded_at=timezone.now() - timedelta(hours=2))
    progress_sync(course)
    client = key_client(readonly_token)
    since = (timezone.now() - timedelta(hours=1)).isoformat()
    body = client.get(url(course), {"updated_since": since}).json()
    assert [r["username"] for r in body["rows"]] == ["bob"]
    later = client.get(url(course), {"updated_since": body["next_updated_since"]}).json()
    assert [r["username"] for r in later["rows"]] == ["bob"]  # overlaps a little, never misses
    bad = client.get(url(course), {"updated_since": "last tuesday"})
    assert bad.status_code == 400 and "updated_since" in bad.json()["fields"]


def test_the_csv_export_matches_the_json(course, alice, bob, numeric_part, key_client, readonly_token):
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    client = key_client(readonly_token)
    for response in (client.get(url(course), {"format": "csv"}),
                     client.get(url(course), HTTP_ACCEPT="text/csv")):
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        table = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
        assert table[0][:5] == ["username", "name", "email", "external_id", "group"]
        assert sorted(row[0] for row in table[1:]) == ["alice", "bob"]


def test_a_student_reads_their_own_row_only(course, alice, bob, numeric_part, client_for):
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    client = client_for(alice)
    own = client.get(url(course, f"students/{alice.pk}/")).json()
    assert [r["username"] for r in own["rows"]] == ["alice"]
    csv_own = client.get(url(course, f"students/{alice.pk}/"), {"format": "csv"})
    assert b"alice" in b"".join(csv_own.streaming_content)
    refused = client.get(url(course, f"students/{bob.pk}/"), {"format": "csv"})
    assert refused.status_code == 403


def test_the_gradebook_costs_a_fixed_number_of_queries(
    course, alice, bob, numeric_part, key_client, readonly_token, django_assert_max_num_queries
):
    from tests.factories import EnrollmentFactory

    client = key_client(readonly_token)
    client.get(url(course))  # the key's last use is written once a minute
    with django_assert_max_num_queries(8) as small:
        client.get(url(course))
    for _ in range(15):
        EnrollmentFactory(course=course)
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url(course))


def test_the_gradebook_pages_by_student_id_with_a_cursor(
    course, alice, bob, numeric_part, key_client, readonly_token
):
    submission_create(student=alice, course=course, part=numeric_part, raw_answer="0.1")
    client = key_client(readonly_token)
    first = client.get(url(course), {"limit": 1}).json()
    assert len(first["rows"]) == 1 and first["next_after"] == first["rows"][0]["student_id"]
    second = client.get(url(course), {"limit": 1, "after": first["next_after"]}).json()
    assert len(second["rows"]) == 1 and second["rows"][0]["student_id"] > first["next_after"]
    last = client.get(url(course), {"limit": 1, "after": second["next_after"]}).json()
    assert last["rows"] == [] and last["next_after"] is None
    assert {first["rows"][0]["username"], second["rows"][0]["username"]} == {"alice", "bob"}
    assert client.get(url(course)).json()["next_after"] is None


def test_the_rows_are_rendered_exactly_as_the_row_serializer_renders_them(course, alice, bob):
    """The rows are built without the serializer's field walk; the output must not change:
    scores and none, overrides, several modules with weights, times in the current zone."""
    from api.resources.gradebook import GradebookRowOutput, gradebook_output
    from courses.models import CourseModule, Module, Part
    from grading.gradebook import gradebook
    from grading.models import PartProgress
    from tests.factories import EnrollmentFactory

    EnrollmentFactory(course=course)  # a student with no answer: a row without cells
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1, weight=3.0)
    five = Part.objects.filter(exercise__module__slug="module-05").first()
    six = Part.objects.filter(exercise__module__slug="module-06").first()
    for student, part, answer in ((alice, five, "0.1"), (alice, six, "x"), (bob, five, "2")):
        submission_create(student=student, course=course, part=part, raw_answer=answer)
    PartProgress.objects.filter(student=bob).update(best_score=0.25, overridden=True)
    progress_sync(course)
    book = gradebook(course=course)
    assert sorted(len(row.cells) for row in book.rows) == [0, 1, 2]
    expected = GradebookRowOutput(
        [{"student_id": r.student_id, "username": r.username, "name": r.name, "email": r.email,
          "group": r.group, "external_id": r.external_id, "earned": r.earned(book.columns),
          "modules": {m.slug: r.module_earned(book.columns)[m.module_id] for m in book.modules},
          "course_percent": r.course_percent(book.columns), "last_activity": r.last_activity,
          "cells": [{"part_id": part_id, "best_score": cell.best_score,
                     "attempts": cell.attempts, "pending": cell.pending,
                     "correct": cell.correct, "last_activity": cell.last_activity}
                    for part_id, cell in r.cells.items()],
          "assessments": {}}
         for r in book.rows], many=True).data
    body = gradebook_output(book, timezone.now())
    assert json.dumps(body["rows"]) == json.dumps(expected)
    assert len(body["rows"]) == 3
