"""A course running two modules end to end (issue 23 item 1): Module 5 and the marking
fixture module (tests/fixtures/marking, synced like any content) as the course's second
CourseModule. A student answers a part in each; the gradebook, its CSV, the dashboard's
progress matrix and the REST API gradebook cover both modules, in the course's module
order; a part of a module the course does not run is refused."""

import csv
import io
from pathlib import Path

import pytest
from django.urls import reverse

from api.keys import api_key_create
from api.models import ApiKey
from courses.models import CourseModule, Module, Part
from courses.services import content_sync
from grading.gradebook import gradebook, gradebook_csv_lines
from grading.models import Submission
from tests.factories import progress_sync

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def two_modules(course):
    """`course` runs Module 5, then module-91; module-90 is synced but not run."""
    content_sync(root=FIXTURES / "marking")
    content_sync(root=FIXTURES / "answer_types")
    second = Module.objects.get(slug="module-91-marking")
    CourseModule.objects.create(course=course, module=second, order=1)
    return course


def _answer(client, course, part, answer):
    return client.post(reverse("part-answer", args=[course.slug, part.pk]), {"answer": answer})


@pytest.fixture
def answered(client, two_modules, alice):
    """alice answers the bound of apply-1 (Module 5) and the rename part (module-91)."""
    course = two_modules
    first = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    second = Part.objects.get(exercise__slug="demo-relations", key="rename")
    client.force_login(alice)
    assert _answer(client, course, first, "1").status_code == 302
    assert _answer(client, course, second, "t^2 + 1").status_code == 302
    progress_sync(course)
    return first, second


def test_a_student_answers_in_each_module_of_the_course(two_modules, alice, answered):
    first, second = answered
    outcomes = dict(Submission.objects.filter(student=alice, course=two_modules)
                    .values_list("part_id", "outcome"))
    assert outcomes == {first.pk: "incorrect", second.pk: "correct"}


def test_a_part_of_a_module_the_course_does_not_run_is_refused(client, two_modules, alice):
    other = Part.objects.filter(exercise__module__slug="module-90-answer-types").first() \
        or Part.objects.exclude(exercise__module__course_links__course=two_modules).first()
    assert other is not None
    client.force_login(alice)
    assert _answer(client, two_modules, other, "1").status_code == 404
    assert not Submission.objects.filter(part=other).exists()


def test_the_gradebook_covers_both_modules_in_module_order(two_modules, alice, answered):
    first, second = answered
    book = gradebook(course=two_modules)
    ids = [c.id for c in book.columns]
    assert {first.pk, second.pk} <= set(ids)
    module_of = dict(Part.objects.values_list("pk", "exercise__module__slug"))
    slugs = [module_of[pk] for pk in ids]
    # Every column of Module 5 comes before every column of the second module.
    assert slugs == sorted(slugs, key=lambda s: s != "module-05")
    assert "module-90-answer-types" not in slugs
    row = next(r for r in book.rows if r.username == "alice")
    assert row.cells[second.pk].correct
    assert row.cells[first.pk].attempts == 1

    header, *lines = list(gradebook_csv_lines(book))
    labels = {c.id: c.key_label for c in book.columns}
    assert labels[first.pk] in header and labels[second.pk] in header
    alice_line = next(line for line in lines if line[0] == "alice")
    assert alice_line[header.index(labels[second.pk])] == "1"


def test_the_dashboard_matrix_and_csv_export_cover_both_modules(
    client, two_modules, irene, alice, answered
):
    client.force_login(irene)
    matrix = client.get(reverse("dashboard:matrix", args=[two_modules.slug]))
    assert matrix.status_code == 200
    labels = {c.id: c for c in gradebook(course=two_modules).columns}
    first, second = answered
    page = matrix.content.decode()
    assert labels[first.pk].exercise_title in page
    assert labels[second.pk].exercise_title in page
    export = client.get(reverse("dashboard:gradebook-csv", args=[two_modules.slug]))
    text = b"".join(export.streaming_content).decode() if export.streaming \
        else export.content.decode()
    header = next(csv.reader(io.StringIO(text)))
    assert labels[first.pk].key_label in header and labels[second.pk].key_label in header


def test_the_api_gradebook_covers_both_modules(client, two_modules, irene, alice, answered):
    first, second = answered
    token = api_key_create(course=two_modules, name="Reports", role=ApiKey.Role.READ_ONLY,
                           created_by=irene).token
    body = client.get(f"/api/v1/courses/{two_modules.slug}/gradebook/",
                      HTTP_AUTHORIZATION=f"Bearer {token}").json()
    column_ids = [c["id"] for c in body["columns"]]
    assert column_ids.index(first.pk) < column_ids.index(second.pk)
    cells = {c["part_id"]: c for r in body["rows"] if r["username"] == "alice"
             for c in r["cells"]}
    assert set(cells) == {first.pk, second.pk}
