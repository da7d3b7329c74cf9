"""The module filter (?module=<slug>) of the dashboard pages of a course of two modules."""

import csv
import io

import pytest
from django.urls import reverse

from courses.models import CourseModule, Module

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_modules(course):
    CourseModule.objects.create(course=course, module=Module.objects.get(slug="module-06"),
                                order=1, weight=2.0)
    return course


def _get(client, course, name, query=""):
    response = client.get(reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug})
                          + query)
    assert response.status_code == 200
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


@pytest.mark.parametrize("page", ["overview", "matrix", "statistics"])
def test_every_module_is_offered_and_all_modules_is_the_default(client, two_modules, irene,
                                                                alice, page):
    client.force_login(irene)
    html = _get(client, two_modules, page)
    assert 'aria-label="Module"' in html
    assert "module=module-06" in html
    assert 'aria-current="true">All modules' in html


def test_a_course_of_one_module_shows_no_module_filter(client, course, irene):
    client.force_login(irene)
    assert 'aria-label="Module"' not in _get(client, course, "matrix")


def test_the_matrix_groups_its_columns_by_module_and_filters_to_one(client, two_modules, irene,
                                                                   alice):
    client.force_login(irene)
    six = Module.objects.get(slug="module-06")
    five = Module.objects.get(slug="module-05")
    everything = _get(client, two_modules, "matrix")
    assert f"Module 5: {five.title}" in everything and f"Module 6: {six.title}" in everything
    assert "Course %" in everything and "Module 5 \u00d71, Module 6 \u00d72" in everything
    only_six = _get(client, two_modules, "matrix", "?module=module-06")
    first_six = six.exercises.order_by("order").first().title
    first_five = five.exercises.order_by("order").first().title
    assert first_six in only_six and first_five not in only_six
    assert "module=module-06" in only_six  # sort links and the CSV link keep the choice


def test_statistics_of_one_module(client, two_modules, irene, alice):
    client.force_login(irene)
    html = _get(client, two_modules, "statistics", "?module=module-05")
    six_title = Module.objects.get(slug="module-06").exercises.first().title
    assert six_title not in html


def test_an_unknown_module_shows_every_module(client, two_modules, irene, alice):
    client.force_login(irene)
    html = _get(client, two_modules, "matrix", "?module=nope")
    assert 'aria-current="true">All modules' in html


def test_the_gradebook_csv_of_one_module(client, two_modules, irene, alice):
    client.force_login(irene)
    text = _get(client, two_modules, "gradebook-csv", "?module=module-06")
    header = next(csv.reader(io.StringIO(text)))
    assert header[-4:] == ["module-06 points", "course_percent", "total", "out_of"]
    assert not any(h.startswith("module-05") for h in header)


def test_the_overview_of_one_module_and_the_means_per_module(client, two_modules, irene, alice):
    client.force_login(irene)
    html = _get(client, two_modules, "overview")
    assert "Per module" in html and "weighted course total" in html
    assert "Class overview: Module 6" in _get(client, two_modules, "overview", "?module=module-06")


def test_the_student_page_shows_points_per_module_and_the_course_total(client, two_modules,
                                                                       irene, alice):
    client.force_login(irene)
    page = client.get(reverse("dashboard:student", kwargs={
        "course_slug": two_modules.slug, "student_id": alice.pk})).content.decode()
    assert "course total 0.0%" in page and "Module 6: 0 of" in page


def test_the_module_links_are_items_of_a_list_not_run_together(client, two_modules, irene):
    client.force_login(irene)
    html = _get(client, two_modules, "matrix")
    nav = html[html.index('<nav class="module-filter"'):]
    nav = nav[:nav.index("</nav>")]
    assert "</a><a" not in nav
    assert nav.count("<li>") == 3  # all modules, Module 5, Module 6
