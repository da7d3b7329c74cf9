"""A matrix part's form: a grid of cells sized from the key (JavaScript), the text field as
the no-JavaScript answer, and the wrong cells of the latest answer marked."""

import pytest
from django.urls import reverse

from courses.models import Part

pytestmark = pytest.mark.django_db

SPEC = {"type": "matrix", "reference": [[1, 2, 3], [4, 5, 6]], "partial": True, "points": 1}


def test_the_grid_is_sized_from_the_key_and_a_plain_post_grades(client, alice, course):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    Part.objects.filter(pk=part.pk).update(spec=SPEC, answer_type="matrix")
    client.force_login(alice)
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    assert 'data-matrix-cells hidden aria-label="Matrix entries, 2 by 3' in page
    assert page.count('class="matrix-cell"') == 6
    assert f'id="part-{part.pk}-answer" class="answer-input"' in page  # the no-JS field

    response = client.post(reverse("part-answer", args=[course.slug, part.pk]),
                           {"answer": "[1 2 3; 4 0 6]"})
    assert response.status_code == 302
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    assert "Entry (2, 2) (row, column) is not right." in page
    assert page.count("cell-wrong") == 1
    assert 'data-row="2" data-col="2" aria-label="row 2, column 2 (marked wrong)"' in page
