"""The author preview: staff see an exercise in any numbered variant with its key, canonical
form and misconceptions, and try answers that are graded but never stored; students never
see it."""

import pytest
from django.urls import reverse

from courses.models import Exercise
from events.models import WebhookDelivery
from grading.models import PartProgress, Submission, WrongAnswerCount

pytestmark = pytest.mark.django_db


def _url(course, slug="apply-1-gradient-bound", **query):
    exercise = Exercise.objects.get(slug=slug)
    url = reverse("dashboard:preview", args=[course.slug, exercise.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_instructor_sees_a_variant_with_its_numbers_key_and_misconceptions(client, course, irene):
    client.force_login(irene)
    page = client.get(_url(course, variant=1)).content.decode()
    assert "Variant 1" in page
    assert 'data-param="sigma">0.8<' in page and 'data-param="steps">20<' in page
    assert "0.8^20" in page or "0.8**20" in page or "0.0115" in page  # the key of variant 1
    assert "linear-decay" in page and "sigma*steps" in page
    assert 'href="?variant=2"' in page  # next variant


def test_variant_0_is_the_module_numbers_and_the_last_wraps_to_0(client, course, irene):
    client.force_login(irene)
    page = client.get(_url(course)).content.decode()
    assert 'data-param="sigma">0.85<' in page and 'data-param="steps">40<' in page
    assert 'href="?variant=0"' in client.get(_url(course, variant=36)).content.decode()
    assert client.get(_url(course, variant=37)).status_code == 404


def test_a_tried_answer_is_graded_in_the_variant_and_nothing_is_stored(client, course, irene):
    client.force_login(irene)
    response = client.post(_url(course), {"variant": "1", "answer-bound": "0.8*20"})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-outcome="incorrect"' in page and "linear-decay" in page
    right = client.post(_url(course), {"variant": "1", "answer-bound": "0.8^20"}).content.decode()
    assert 'data-outcome="correct"' in right
    assert Submission.objects.count() == 0
    assert PartProgress.objects.count() == 0
    assert WrongAnswerCount.objects.count() == 0
    assert WebhookDelivery.objects.count() == 0


def test_a_ta_may_preview(client, course, tara):
    client.force_login(tara)
    assert client.get(_url(course)).status_code == 200


def test_a_student_never_sees_the_preview(client, course, alice):
    client.force_login(alice)
    assert client.get(_url(course)).status_code == 403
    assert client.post(_url(course), {"answer-bound": "1"}).status_code == 403
    assert Submission.objects.count() == 0


def test_the_staff_of_another_course_get_404(client, course, oscar):
    client.force_login(oscar)
    assert client.get(_url(course)).status_code == 404


def test_the_question_pages_link_to_the_preview(client, course, irene):
    client.force_login(irene)
    stats = client.get(reverse("dashboard:statistics", args=[course.slug])).content.decode()
    assert _url(course) in stats


def test_the_key_and_a_tried_answer_are_typeset_beside_their_text(client, course, irene):
    """Issue 25 item 12: the key's maths shown as the module's text shows maths, not only as
    code."""
    client.force_login(irene)
    page = client.get(_url(course, variant=1)).content.decode()
    key = page[page.index('class="key-maths"'):]
    assert key.index("<math") < key.index("</dd>")  # 0.8^20, exactly: a fraction
    tried = client.post(_url(course), {"variant": "1", "answer-bound": "0.8^20"}).content.decode()
    assert '<span class="tried-maths"><math' in tried


def test_the_answer_types_of_issue_41_show_their_key_in_a_variant(client, course, irene):
    from courses.models import Part

    exercise = Exercise.objects.get(slug="apply-1-gradient-bound")
    specs = {
        "pm": {"type": "numeric", "reference": "sigma ± steps"},
        "grid": {"type": "matching", "rows": ["a", "b"], "columns": ["x", "y"],
                 "correct": {"a": "y", "b": "x"}},
        "rule": {"type": "logic", "reference": "p implies q", "variables": ["p", "q"]},
        "words": {"type": "item_list", "items": [{"type": "string", "reference": "red"},
                                                 {"type": "numeric", "reference": "steps"}]},
        "half": {"type": "numeric", "reference": "1/2", "latex": True},
        "unit": {"type": "quantity", "unit": "m/s^2", "unit_mode": "only"},
    }
    for order, (key, spec) in enumerate(specs.items(), start=10):
        Part.objects.create(exercise=exercise, key=key, answer_type=spec["type"], spec=spec,
                            order=order)
    client.force_login(irene)
    page = client.post(_url(course), {
        "variant": "1", "answer-pm": "0.8 ± 20", "answer-grid": "a=y, b=x",
        "answer-rule": "not p or q", "answer-words": "20, red", "answer-half": r"\frac{1}{2}",
        "answer-unit": "N/kg"}).content.decode()
    assert "a=y, b=x" in page and "p implies q" in page and "red, 20" in page
    assert "m/s^2" in page
    assert page.count('data-outcome="correct"') >= 6
    assert Submission.objects.count() == 0


@pytest.fixture
def chain(module_05):
    """Apply 2 with its second part turned into "twice your step count" (carried, 0.5)."""
    from courses.models import Part

    later = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="attention_steps")
    later.spec = {"type": "integer", "reference": '2*answer("rnn_steps")',
                  "carried_credit": 0.5}
    later.save(update_fields=["spec"])
    return later


def test_a_part_marked_against_earlier_answers_is_tried_with_earlier_answers(
        client, course, irene, chain):
    client.force_login(irene)
    url = _url(course, slug="apply-2-sequential-steps")
    page = client.get(url).content.decode()
    assert "check_answers" not in page
    assert 'name="earlier.attention_steps.rnn_steps"' in page  # a field for the earlier answer
    assert '<code class="key-answer">2000</code>' in page  # its key, with (a)'s key in place
    typed = client.post(url, {"variant": "0", "answer-attention_steps": "2002",
                              "earlier.attention_steps.rnn_steps": "1001"}).content.decode()
    assert 'data-outcome="partial"' in typed and "Marked using your answer to (rnn_steps)" in typed
    # left empty, the earlier answer is the one tried for that part
    tried = client.post(url, {"variant": "0", "answer-rnn_steps": "1001",
                              "answer-attention_steps": "2002",
                              "earlier.attention_steps.rnn_steps": ""}).content.decode()
    assert tried.count('data-outcome="partial"') == 1 and 'value="1001"' in tried
    missing = client.post(url, {"variant": "0", "answer-attention_steps": "2002"}).content.decode()
    assert 'data-outcome="invalid"' in missing and "Answer (rnn_steps) first" in missing
    assert Submission.objects.count() == 0


def test_misconceptions_show_their_values_and_a_long_key_reads_as_a_number(client, course,
                                                                          irene):
    client.force_login(irene)
    page = client.get(_url(course)).content.decode()  # sigma = 0.85, steps = 40
    assert '<code class="misconception-value">34</code>' in page  # sigma*steps
    assert '<code class="misconception-value">0.998498</code>' in page  # 1 - sigma^steps
    assert '<dd class="key-value">≈ 0.0015023</dd>' in page  # 0.85^40, not 85^40/100^40
    assert '<details class="long-key"><summary>exact, ' in page
