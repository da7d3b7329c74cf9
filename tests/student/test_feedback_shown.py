"""Feedback that does not stop short (issue 25, item 5), as the student's page shows it: the
rubric's hints while a text answer waits for review, a near miss called close with the
precision asked, no attempt penalty spoken of at a zero score, no "Type an answer" beside an
answer the box shows, and a choice answer read as its option's text."""

import html
import re

import pytest
from django.urls import reverse

from courses.models import Part
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def _part(slug: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)


def _answer(client, course, part, answer: str) -> None:
    client.post(reverse("part-answer", args=[course.slug, part.pk]), {"answer": answer})


def _box(client, course, part) -> str:
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    box = page[page.index(f'id="part-{part.pk}"'):]
    return box[:box.index("</article>")]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)))


def test_a_short_text_answer_left_for_review_shows_the_rubric_s_hints(client, alice, course):
    part = _part("check-two-problems", "explanation")
    client.force_login(alice)
    _answer(client, course, part, "recurrence")
    box = _text(_box(client, course, part))
    assert "reviewed by a teacher" in box
    assert "What does that mean for processing the tokens of a sequence" in box  # parallelism
    assert "What happens to it over a long distance?" in box  # vanishing gradients
    assert "name the cause they share" not in box  # the concept the answer has


def test_a_near_miss_says_it_is_close_and_the_precision_asked(client, alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    p = variant_for(student=alice, course=course, exercise=part.exercise).params
    near = float(p["sigma"]) ** int(p["steps"]) * 0.93  # 7% low: no misconception is there
    client.force_login(alice)
    _answer(client, course, part, f"{near:.4g}")
    box = _text(_box(client, course, part))
    assert "Not correct yet." in box
    assert ("Close, but not within the precision asked: the answer must be right within 2% "
            "or to 2 significant figures.") in box


def test_a_zero_score_after_earlier_attempts_speaks_of_no_penalty(client, alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    client.force_login(alice)
    for answer in ("0.5", "0.25", "0.125"):
        _answer(client, course, part, answer)
    box = _text(_box(client, course, part))
    assert "score 0" in box and "off per earlier attempt" not in box


def test_after_an_answer_the_box_shows_it_without_type_an_answer(client, alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    client.force_login(alice)
    assert "Type an answer to see how it is read." in _box(client, course, part)
    _answer(client, course, part, "0.5")
    box = _box(client, course, part)
    assert 'value="0.5"' in box
    assert "Type an answer to see how it is read." not in box


def test_a_choice_answer_is_read_as_its_option_s_text_not_its_key(client, alice, course):
    part = _part("predict-alignment-shape", "shape")
    part.spec = {k: v for k, v in part.spec.items() if k not in ("lab", "measure")}
    part.save(update_fields=["spec"])  # a plain choice question, not a prediction
    client.force_login(alice)
    _answer(client, course, part, "uniform")
    box = _text(_box(client, course, part))
    text = "Roughly uniform: every French word spreads its weight over the whole sentence"
    assert f"read as {text}" in box
    assert "read as uniform" not in box
    history = box[box.index("Your answers"):]
    assert text in history
