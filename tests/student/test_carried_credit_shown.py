"""Carried credit on the student's page (issue 37, item 3): after the student corrects part
(a), part (b) keeps the credit it earned from the old (a) and the page says so, beside the
verdict and in the answers list; a refused carried credit says why."""

import re

import pytest
from django.urls import reverse

from grading.services import submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def _part_text(client, course, part) -> str:
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    start = page.index(f'id="part-{part.pk}"')
    box = page[start:page.index("</details>", start)]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", box))


def test_the_page_keeps_and_explains_carried_credit_after_a_correction(client, alice, course,
                                                                       carried_chain):
    first, later = carried_chain
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n + 1))
    submission_create(student=alice, course=course, part=later, raw_answer=str(2 * (n + 1)))
    submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    client.force_login(alice)
    box = _part_text(client, course, later)
    assert "Partly correct · score 0.5" in box
    assert f"Kept from your answer to (rnn_steps) when you answered this part ({n + 1}): " \
        "you have changed it since" in box
    # the answers list says it too
    assert f"Partly correct, score 0.5 (Kept from your answer to (rnn_steps) when you " \
        f"answered this part ({n + 1}))" in box


def test_the_page_says_why_carried_credit_was_refused(client, alice, course, carried_chain):
    first, later = carried_chain
    first.spec = {**first.spec, "reference": "N + 1", "misconceptions": []}
    first.save(update_fields=["spec"])
    n = variant_for(student=alice, course=course, exercise=first.exercise).params["N"]
    submission_create(student=alice, course=course, part=first, raw_answer=str(n))
    submission_create(student=alice, course=course, part=later, raw_answer=str(2 * n))
    client.force_login(alice)
    box = _part_text(client, course, later)
    assert f"your answer to (rnn_steps) is {n}, a value the question gives (N)" in box
    assert "(no carried credit: the earlier answer is zero or a value the question gives)" in box
