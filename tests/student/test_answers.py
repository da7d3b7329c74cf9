"""Answer pages: a plain POST (no JavaScript) stores and grades, then redirects back; the
preview; a student's own answers only; CSRF; answer keys never in a page."""

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from courses.models import Part
from grading.models import Submission
from grading.services import submission_create
from grading.variant_assignment import variant_for

pytestmark = pytest.mark.django_db


def _part(slug: str, key: str) -> Part:
    return Part.objects.select_related("exercise").get(exercise__slug=slug, key=key)


def _bound(alice, course):
    part = _part("apply-1-gradient-bound", "bound")
    params = variant_for(student=alice, course=course, exercise=part.exercise).params
    return part, params["sigma"], params["steps"]


def _answer_url(course, part) -> str:
    return reverse("part-answer", args=[course.slug, part.pk])


def _module(client, course) -> str:
    return client.get(reverse("course-module", args=[course.slug])).content.decode()


def test_a_plain_post_stores_grades_and_redirects_back_to_the_part(client, alice, course):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    response = client.post(_answer_url(course, part), {"answer": f"{sigma}*{steps}"})
    assert response.status_code == 302
    assert response["Location"] == f"/courses/{course.slug}/#part-{part.pk}"
    page = _module(client, course)
    assert "This treats the decay as linear" in page
    assert "Attempts used: 1 of 5 (4 left)" in page

    client.post(_answer_url(course, part), {"answer": f"{sigma}^{steps}"})
    page = _module(client, course)
    assert "Solved (attempts used: 2 of 5)." in page


def test_an_invalid_answer_shows_its_message_keeps_the_text_and_uses_no_attempt(
    client, alice, course
):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": "0.85^(40"})
    page = _module(client, course)
    assert "Not understood (no attempt used)" in page
    assert "missing ')' to close" in html.unescape(page)
    assert 'value="0.85^(40"' in page
    assert "Attempts used: 0 of 5" in page
    assert Submission.objects.get().counts_as_attempt is False


def test_a_refused_answer_is_explained(client, alice, course):
    part = _part("predict-alignment-shape", "shape")  # one prediction, locked
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": "diagonal"})
    response = client.post(_answer_url(course, part), {"answer": "uniform"}, follow=True)
    assert "You have used all your attempts" in response.content.decode()
    assert list(Submission.objects.values_list("raw_answer", flat=True)) == ["diagonal"]


def test_a_prediction_is_locked_and_shown_as_waiting_for_the_lab(client, alice, course):
    part = _part("predict-analogy", "endpoint")
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": "queen"})
    page = _module(client, course)
    block = page[page.index(f'id="part-{part.pk}"'):]
    block = block[:block.index('<div class="part"')] if '<div class="part"' in block else block
    assert "Near queen" in block and "locked" in block
    assert "Running the lab" in block
    assert "Lock in my prediction" not in block


def test_checkbox_choices_are_joined(client, alice, course):
    part = _part("predict-alignment-shape", "shape")
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": ["diagonal", "uniform"]})
    assert Submission.objects.get().raw_answer == "diagonal,uniform"


def test_an_empty_answer_is_refused_with_a_message(client, alice, course):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    response = client.post(_answer_url(course, part), {"answer": ""}, follow=True)
    assert "Type an answer before submitting." in response.content.decode()
    assert not Submission.objects.exists()


def test_answering_needs_sign_in_and_membership(client, alice, bob, course, other_course):
    part, _, _ = _bound(alice, course)
    response = client.post(_answer_url(course, part), {"answer": "1"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(alice)
    assert client.post(_answer_url(other_course, part), {"answer": "1"}).status_code == 404
    assert client.get(_answer_url(course, part)).status_code == 405
    assert not Submission.objects.exists()


def test_csrf_is_enforced_on_answers(alice, course):
    part, _, _ = _bound(alice, course)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(_answer_url(course, part), {"answer": "1"}).status_code == 403
    page = client.get(reverse("course-module", args=[course.slug])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    response = client.post(_answer_url(course, part),
                           {"answer": "1", "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302
    assert Submission.objects.count() == 1


def test_preview_returns_how_the_answer_was_read_as_json(client, alice, course):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    url = reverse("part-preview", args=[course.slug, part.pk])
    data = client.get(url, {"answer": "0.85^40"}).json()
    assert data["valid"] and data["canonical"] == "0.85^40 ≈ 0.0015023"
    assert "<math" in data["mathml"]
    data = client.get(url, {"answer": "0.85^(40"}).json()
    assert not data["valid"] and data["position"] == 6 and "missing ')'" in data["message"]
    assert not Submission.objects.exists()  # a preview stores nothing


def test_preview_without_javascript_is_a_page_with_the_form_again(client, alice, course):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    response = client.post(reverse("part-preview", args=[course.slug, part.pk]),
                           {"answer": "0.85^40"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "<math" in page and "0.85^40 ≈ 0.0015023" in page
    assert f'action="{_answer_url(course, part)}"' in page and 'value="0.85^40"' in page


def test_preview_of_another_course_is_404_and_choices_have_none(client, alice, course,
                                                                other_course):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    assert client.get(reverse("part-preview", args=[other_course.slug, part.pk]),
                      {"answer": "1"}).status_code == 404
    choice = _part("predict-analogy", "endpoint")
    assert client.get(reverse("part-preview", args=[course.slug, choice.pk]),
                      {"answer": "queen"}).status_code == 404


def test_submission_page_and_status_are_the_students_own(client, alice, bob, course):
    part, sigma, steps = _bound(alice, course)
    mine = submission_create(student=alice, course=course, part=part,
                             raw_answer=f"{sigma}^{steps}")
    client.force_login(alice)
    page = client.get(reverse("submission", args=[course.slug, mine.pk])).content.decode()
    assert f"{sigma}^{steps}" in page and "Correct" in page
    status = client.get(reverse("submission-status", args=[course.slug, mine.pk])).json()
    assert status == {"outcome": "correct", "label": "Correct", "waiting": False}

    client.force_login(bob)
    assert client.get(reverse("submission", args=[course.slug, mine.pk])).status_code == 404
    assert client.get(reverse("submission-status",
                              args=[course.slug, mine.pk])).status_code == 404


def _secrets(part: Part, public: str) -> list[str]:
    """Strings of a part's spec that would give the answer away if they reached a page."""
    spec = part.spec
    found: list[str] = []
    if part.answer_type == "text":
        found += [spec["reference"], *spec.get("review_rubric", "").split("\n")]
        phrasings = [p for c in spec.get("rubric", []) for p in c["phrasings"]]
        phrasings += [p for m in spec.get("misconceptions", []) for p in m.get("phrasings", [])]
        found += [p for p in phrasings if " " in p and p not in public]
    elif part.answer_type != "choice":
        references = spec["reference"] if isinstance(spec["reference"], list) else [
            spec["reference"]]
        found += [str(r) for r in references]
        found += [str(m["answer"]) for m in spec.get("misconceptions", [])]
    return [s.strip() for s in found if len(s.strip()) >= 3]


def _public_text(module) -> str:
    """Everything a student may read in the module's own content."""
    pieces = [module.intro, *module.references]
    for section in module.sections.all():
        pieces += [section.body, section.title]
    for exercise in module.exercises.all():
        pieces.append(exercise.prompt)
        for part in exercise.parts.all():
            pieces += [part.prompt, *(o["text"] for o in part.spec.get("options", []))]
            pieces += [m.get("feedback", "") for m in part.spec.get("misconceptions", [])]
            pieces += [c.get("feedback_missing", "") for c in part.spec.get("rubric", [])]
    for lab in module.labs.all():
        pieces += [lab.title, lab.description]
    for figure in (f for s in module.sections.all() for f in s.figures.all()):
        pieces += [figure.title, figure.instructions, figure.caption, figure.in_words]
    return "\n".join(pieces).lower()


def test_no_answer_key_reaches_the_module_page(client, alice, course, module_05):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": f"{sigma}*{steps}"})
    client.post(_answer_url(course, _part("predict-analogy", "endpoint")), {"answer": "woman"})
    client.post(_answer_url(course, _part("check-two-problems", "explanation")),
                {"answer": "It is slow."})
    page = html.unescape(_module(client, course))
    public = _public_text(module_05)
    assert {"sigma^steps", "sigma*steps"} <= set(_secrets(part, public))  # the scan can fail
    for exercise in module_05.exercises.all():
        for each in exercise.parts.all():
            for secret in _secrets(each, public):
                assert secret not in page, f"{exercise.slug}/{each.key} leaks {secret!r}"
            assert json.dumps(each.spec.get("correct", "-")) not in page
    assert "sigma^steps" not in page and "sigma*steps" not in page
    assert "feedback_correct" not in page and "data-correct" not in page


# --- scores and states explained, wording (issue 11, items 13 and 14) ---------------------

def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _box(page: str, part) -> str:
    box = page[page.index(f'id="part-{part.pk}"'):]
    return box[:box.index("</article>")]


def test_a_score_below_one_says_which_attempt_and_the_penalty(client, alice, course):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    for answer in (f"{sigma}*{steps}", "1", f"{sigma}^{steps}"):
        client.post(_answer_url(course, part), {"answer": answer})
    box = _text(_box(_module(client, course), part))
    assert "score 0.8 (correct on attempt 3, 10% off per earlier attempt)" in box
    correct = Submission.objects.get(outcome="correct")
    detail = _text(client.get(reverse("submission", args=[course.slug, correct.pk])).content.decode())
    assert "Correct, score 0.8 (correct on attempt 3, 10% off per earlier attempt)" in detail


def test_a_first_time_correct_answer_has_no_penalty_note(client, alice, course):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": f"{sigma}^{steps}"})
    box = _text(_box(_module(client, course), part))
    assert "score 1" in box and "off per earlier attempt" not in box


def test_an_unread_answer_says_no_attempt_used_once(client, alice, course):
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    client.post(_answer_url(course, part), {"answer": "0.85^(40"})
    page = _module(client, course)
    box = _text(_box(page, part))
    assert "(no attempt used) (no attempt used)" not in box
    assert box.count("no attempt used") == 2  # the verdict, and the answer in the list
    invalid = Submission.objects.get()
    detail = _text(client.get(reverse("submission", args=[course.slug, invalid.pk])).content.decode())
    assert detail.count("no attempt used") == 1


def test_the_answers_list_agrees_with_the_attempts_used(client, alice, course):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    for answer in ("0.85^(40", "0.85^(", f"{sigma}*{steps}"):
        client.post(_answer_url(course, part), {"answer": answer})
    box = _text(_box(_module(client, course), part))
    assert "Attempts used: 1 of 5" in box
    assert "Your answers (3, 1 used an attempt)" in box and "Your attempts" not in box


def test_after_an_answer_the_page_does_not_preview_it_again_on_load(client, alice, course):
    """The verdict already shows the parse error: the live preview waits for typing."""
    part, _, _ = _bound(alice, course)
    client.force_login(alice)
    assert 'data-preview-on-load="no"' not in _box(_module(client, course), part)
    client.post(_answer_url(course, part), {"answer": "0.85^(40"})
    assert 'data-preview-on-load="no"' in _box(_module(client, course), part)


def test_a_review_comment_with_markdown_attributes_is_inert_on_the_student_s_page(
    client, alice, irene, course
):
    from grading.reviews import review_create

    part = _part("extend-bottleneck", "explanation")
    answer = submission_create(student=alice, course=course, part=part,
                               raw_answer="The bottleneck is one vector.")
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=1,
                  comment="Good. ![a](x){onerror=alert(1)} [more](javascript:alert(1))")
    client.force_login(alice)
    for page in (_module(client, course),
                 client.get(reverse("submission", args=[course.slug, answer.pk])).content.decode()):
        assert "onerror" not in page and "javascript:" not in page
        assert "Good." in page


def test_the_no_javascript_preview_page_shows_the_question_with_the_student_s_numbers(
    client, alice, course
):
    part, sigma, steps = _bound(alice, course)
    client.force_login(alice)
    response = client.post(reverse("part-preview", args=[course.slug, part.pk]),
                           {"answer": f"{sigma}^{steps}"})
    page = _text(response.content.decode())
    assert response.status_code == 200
    assert f"A gradient passes back through {steps} RNN steps" in page
    assert "Largest possible size of the gradient" in page
    assert "Your numbers" in page and f"steps = {steps}" in page
    assert page.index("A gradient passes back") < page.index("We read")
