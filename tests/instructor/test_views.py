"""Dashboard pages over HTTP: who may open them, a number of queries that does not grow with
the class, the forms, and the streamed CSV exports."""

import csv
import io
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from courses.models import Enrollment, Exercise, Lab, Module, Part, Section
from grading.models import Deadline, DeadlineExtension, GradeOverride, Submission
from grading.services import submission_create
from tests.factories import EnrollmentFactory, UserFactory, progress_sync
from tests.instructor.conftest import build_class

#: Page name -> queries it makes (access included; the session, the user and the content
#: cached, as in a running service); the same for 5 and 200. Overview, matrix, statistics
#: and the gradebook CSV read the course's modules for their module filter (?module=).
PAGES = {
    "overview": 6,
    "matrix": 8,
    "statistics": 12,  # + the score and attempt distributions, one query; variant flags, three
    "part": 13,  # + the fairness of its variants (columns, exercises, counts)
    "misconceptions": 11,  # + who showed and cleared each tag (labels, carriers, two aggregates)
    "labs": 8,
    "student": 17,  # + open misconceptions 4 (the deadline policy from the content cache)
    "reviews": 4,
    "deadlines": 5,  # (the deadline policy and the course's modules from the content cache)
    "gradebook-csv": 5,
    "submissions-csv": 2,  # access, then the submissions in one chunked read
}


def _url(course, name, **kwargs):
    return reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug, **kwargs})


def _page_url(course, name):
    kwargs = {}
    if name == "part":
        kwargs["part_id"] = Part.objects.get(exercise__slug="apply-1-gradient-bound").pk
    if name == "student":
        kwargs["student_id"] = Enrollment.objects.filter(
            course=course, role="student").order_by("user__username").first().user_id
    return _url(course, name, **kwargs)


def _get(client, url):
    response = client.get(url)
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body


def _count(client, url):
    """The page's queries once the caches hold the session, user and content (a running
    service's case)."""
    _get(client, url)
    with CaptureQueriesContext(connection) as queries:
        response, _ = _get(client, url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_makes_the_same_number_of_queries_for_5_and_200_students(
    client, course, irene, page
):
    build_class(course, 5, prefix="a")
    client.force_login(irene)
    small = _count(client, _page_url(course, page))
    build_class(course, 195, prefix="b")
    large = _count(client, _page_url(course, page))
    assert (small, large) == (PAGES[page], PAGES[page])


@pytest.mark.parametrize("page", PAGES)
def test_a_student_of_the_course_is_refused_with_403(client, course, alice, page):
    build_class(course, 2)
    client.force_login(alice)
    assert client.get(_page_url(course, page)).status_code == 403


@pytest.mark.parametrize("page", PAGES)
def test_an_instructor_of_another_course_gets_404(client, course, oscar, page):
    build_class(course, 2)
    client.force_login(oscar)
    assert client.get(_page_url(course, page)).status_code == 404


def test_signed_out_visitors_are_sent_to_sign_in(client, course):
    response = client.get(_url(course, "matrix"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_ta_sees_the_dashboard_but_cannot_change_deadlines(client, course, tara, alice):
    client.force_login(tara)
    assert client.get(_url(course, "matrix")).status_code == 200
    exercise_id = Part.objects.get(exercise__slug="apply-1-gradient-bound").exercise_id
    response = client.post(_url(course, "deadlines"),
                           {"exercise": exercise_id, "due_at": "2030-01-01T12:00"})
    assert response.status_code == 403
    response = client.post(_url(course, "extension", student_id=alice.pk),
                           {"exercise": exercise_id, "due_at": "2030-01-01T12:00"})
    assert response.status_code == 403
    assert not Deadline.objects.exists() and not DeadlineExtension.objects.exists()
    assert b'type="datetime-local"' not in client.get(_url(course, "deadlines")).content


def test_an_instructor_sets_a_deadline_from_the_page(client, course, irene):
    client.force_login(irene)
    exercise_id = Part.objects.get(exercise__slug="apply-1-gradient-bound").exercise_id
    response = client.post(_url(course, "deadlines"),
                           {"exercise": exercise_id, "due_at": "2030-01-01T12:00"})
    assert response.status_code == 302
    deadline = Deadline.objects.get()
    assert deadline.due_at.isoformat() == "2030-01-01T12:00:00+00:00"
    assert b"2030-01-01 12:00" in client.get(_url(course, "deadlines")).content


def test_a_deadline_on_another_module_s_exercise_is_404(client, course, irene):
    client.force_login(irene)
    response = client.post(_url(course, "deadlines"), {"exercise": 999999, "due_at": ""})
    assert response.status_code == 404
    other_module = Module.objects.create(slug="module-99", number="99", title="Another module")
    other_section = Section.objects.create(module=other_module, number="6.1", slug="s",
                                           title="A section")
    elsewhere = Exercise.objects.create(module=other_module, section=other_section, slug="x",
                                        kind="apply", title="Elsewhere", prompt="?", order=1)
    response = client.post(_url(course, "deadlines"),
                           {"exercise": elsewhere.pk, "due_at": "2030-01-01T12:00"})
    assert response.status_code == 404
    assert not Deadline.objects.exists()


def test_the_matrix_pages_keep_the_chosen_page_size(client, course, irene):
    build_class(course, 5)
    client.force_login(irene)
    page = client.get(_url(course, "matrix") + "?per_page=2").content.decode()
    assert "per_page=2&amp;page=2" in page


def test_an_override_without_a_reason_is_refused_with_a_message(client, course, irene, alice):
    client.force_login(irene)
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    response = client.post(_url(course, "override", student_id=alice.pk),
                           {"part": part.pk, "points": "1", "reason": ""}, follow=True)
    assert b"reason: This field is required." in response.content
    assert not GradeOverride.objects.exists()
    response = client.post(_url(course, "override", student_id=alice.pk),
                           {"part": part.pk, "points": "1", "reason": "regraded by hand"},
                           follow=True)
    assert b"regraded by hand" in response.content
    assert GradeOverride.objects.get().score == 1.0


def test_overriding_the_grade_of_someone_outside_the_course_is_404(client, course, irene, oscar):
    client.force_login(irene)
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    response = client.post(_url(course, "override", student_id=oscar.pk),
                           {"part": part.pk, "points": "1", "reason": "x"})
    assert response.status_code == 404


def test_the_drill_down_shows_each_answer_exactly_as_typed(client, course, irene, alice):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    submission_create(student=alice, course=course, part=part, raw_answer="  0,85 ^ 40 <b>")
    client.force_login(irene)
    body = client.get(_url(course, "student", student_id=alice.pk)).content.decode()
    assert "  0,85 ^ 40 &lt;b&gt;" in body
    assert "no attempt used" in body


def test_the_review_queue_shows_the_rubric_and_saves_a_review(client, course, irene, alice):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    answer = submission_create(student=alice, course=course, part=part,
                               raw_answer="The vector has a fixed size, a bottleneck.")
    client.force_login(irene)
    body = client.get(_url(course, "reviews")).content.decode()
    assert "What a full answer contains" in body  # the part's review_rubric
    assert "fixed-size-vector" in body and "states-same-size" in body  # rubric concepts
    response = client.post(_url(course, "review", submission_id=answer.pk),
                           {"points": "2", "comment": "Now say what attention adds."},
                           follow=True)
    assert b"Review saved" in response.content
    answer.refresh_from_db()
    assert answer.outcome == Submission.Outcome.PARTIAL
    assert b"Nothing to review." in response.content


def test_the_matrix_filters_by_group_searches_and_sorts(client, course, irene):
    build_class(course, 6)
    client.force_login(irene)
    body = client.get(_url(course, "matrix") + "?group=g1").content.decode()
    assert "s0001" in body and "s0000" not in body
    body = client.get(_url(course, "matrix") + "?q=Last0004").content.decode()
    assert "s0004" in body and "s0003" not in body
    body = client.get(_url(course, "matrix") + "?q=first3+last0003").content.decode()
    assert "s0003" in body and "s0004" not in body
    body = client.get(_url(course, "matrix") + "?sort=total&desc=1").content.decode()
    # Even-numbered students solved every part: they come first when sorted by total.
    assert body.index("s0000") < body.index("s0001")
    body = client.get(_url(course, "matrix") + "?sort=nonsense&page=abc").content.decode()
    assert "page 1 of 1" in body


def test_the_matrix_is_paginated(client, course, irene):
    build_class(course, 60)
    client.force_login(irene)
    first = client.get(_url(course, "matrix")).content.decode()
    second = client.get(_url(course, "matrix") + "?page=2").content.decode()
    assert "page 1 of 2" in first and "s0000" in first and "s0055" not in first
    assert "s0055" in second and "s0000" not in second


def test_the_gradebook_csv_has_a_row_per_student_and_is_formula_safe(client, course, irene):
    evil = UserFactory(username="mallory", first_name="=HYPERLINK(\"http://x\")", last_name="")
    EnrollmentFactory(user=evil, course=course, role=Enrollment.Role.STUDENT)
    build_class(course, 3)
    client.force_login(irene)
    response, body = _get(client, _url(course, "gradebook-csv"))
    assert response.streaming and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert rows[0][:5] == ["username", "name", "email", "external_id", "group"]
    assert len(rows) == 1 + 4
    mallory = next(r for r in rows if r[0] == "mallory")
    assert mallory[1] == "'=HYPERLINK(\"http://x\")"


def test_the_submissions_csv_streams_every_answer_as_typed(client, course, irene, alice):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    submission_create(student=alice, course=course, part=part, raw_answer="-0.85^40")
    submission_create(student=alice, course=course, part=part, raw_answer="@sum(1)")
    submission_create(student=alice, course=course, part=part, raw_answer="0.85 ^ 40, \"quoted\"")
    client.force_login(irene)
    response, body = _get(client, _url(course, "submissions-csv"))
    assert response.streaming
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    assert [r["answer_as_typed"] for r in rows] == ["'-0.85^40", "'@sum(1)",
                                                   "0.85 ^ 40, \"quoted\""]
    assert {r["username"] for r in rows} == {"alice"}


def test_the_overview_draws_both_charts_as_svg(client, course, irene):
    build_class(course, 4)
    Submission.objects.filter(course=course).update(created_at=timezone.now() - timedelta(days=1))
    progress_sync(course)
    client.force_login(irene)
    body = client.get(_url(course, "overview")).content.decode()
    assert body.count("<svg") == 2
    assert "Score distribution" in body and "Completion over time" in body


# --- staff see each student's numbers and the question (issue 11, item 12) -----------------

def _numbers(student, course, slug):
    from grading.variant_assignment import variant_for

    return variant_for(student=student, course=course, exercise=Exercise.objects.get(slug=slug)).params


def test_the_drill_down_shows_the_student_s_numbers_and_the_question(client, course, irene, alice):
    client.force_login(irene)
    page = client.get(_url(course, "student", student_id=alice.pk)).content.decode()
    row = page[page.index('id="question-apply-1-gradient-bound"'):]
    row = row[:row.index("</tr>")]
    params = _numbers(alice, course, "apply-1-gradient-bound")
    assert f'data-name="sigma">{params["sigma"]}</strong>' in row
    assert f'data-name="steps">{params["steps"]}</strong>' in row
    assert f"A gradient passes back through {params['steps']} RNN steps" in row


def test_the_review_queue_shows_the_question_with_the_student_s_numbers(
    client, course, irene, alice
):
    from grading.models import DefaultVariant

    DefaultVariant.objects.create(course=course, student=alice)
    part = Part.objects.get(exercise__slug="predict-analogy", key="meaning")
    answer = submission_create(student=alice, course=course, part=part,
                               raw_answer="The direction from man to woman is the same as king to queen.")
    assert answer.outcome == Submission.Outcome.REVIEW
    client.force_login(irene)
    page = client.get(_url(course, "reviews")).content.decode()
    item = page[page.index(f'id="review-{answer.pk}"'):]
    assert "The question, as this student saw it" in item
    assert "king" in item[:item.index("Their answer")]


def test_the_review_queue_shows_a_parameterised_question_with_the_student_s_numbers(
    client, course, irene, alice
):
    from instructor.review_queue import review_queue

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    Submission.objects.create(student=alice, course=course, part=part, raw_answer="0.5",
                              outcome=Submission.Outcome.REVIEW, counts_as_attempt=True)
    progress_sync(course)
    [item] = review_queue(course=course).items
    params = _numbers(alice, course, "apply-1-gradient-bound")
    assert {n.name: n.value for n in item.question.numbers} == {
        "steps": str(params["steps"]), "sigma": str(params["sigma"])}
    assert f"A gradient passes back through {params['steps']} RNN steps" in item.question.prompt
    assert "Largest possible size of the gradient" in item.part_prompt


# --- states, labels and wording on the pages (issue 11, items 13 and 14) -------------------

def _text(page: str) -> str:
    import html
    import re

    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _locked_prediction(course, student):
    part = Part.objects.get(exercise__slug="predict-alignment-shape", key="shape")
    submission = Submission.objects.create(student=student, course=course, part=part,
                                           raw_answer="uniform", canonical="uniform",
                                           outcome=Submission.Outcome.INCORRECT, score=0.0,
                                           counts_as_attempt=True, misconception="")
    progress_sync(course)
    return submission


def test_a_locked_wrong_prediction_is_closed_not_in_progress(client, course, irene, alice):
    from instructor.progress import class_progress

    answer = _locked_prediction(course, alice)
    page = class_progress(course=course)
    column = next(i for i, c in enumerate(page.columns) if c.id == answer.part_id)
    cell = page.rows[0].cells[column]
    assert (cell.state, cell.state_label) == ("closed", "closed (no attempts left)")
    client.force_login(irene)
    drill = client.get(_url(course, "student", student_id=alice.pk)).content.decode()
    assert 'class="st-closed">closed (no attempts left)</td>' in drill


def test_a_part_with_attempts_left_stays_in_progress(course, alice):
    from instructor.progress import class_progress

    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    Submission.objects.create(student=alice, course=course, part=part, raw_answer="34",
                              outcome=Submission.Outcome.INCORRECT, score=0.0,
                              counts_as_attempt=True)
    progress_sync(course)
    page = class_progress(course=course)
    column = next(i for i, c in enumerate(page.columns) if c.id == part.pk)
    assert page.rows[0].cells[column].state == "in-progress"


def test_tags_are_shown_with_their_labels_wherever_they_are_shown(client, course, irene, alice):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    answer = submission_create(student=alice, course=course, part=part, raw_answer="34")
    answer.refresh_from_db()
    if answer.misconception != "linear-decay":  # alice's numbers may differ: tag it directly
        Submission.objects.filter(pk=answer.pk).update(misconception="linear-decay",
                                                       canonical="34")
        progress_sync(course)
    client.force_login(irene)
    label = "Treats the decay as linear"
    for name, kwargs in (("misconceptions", {}), ("statistics", {}),
                         ("part", {"part_id": part.pk}), ("student", {"student_id": alice.pk})):
        page = _text(client.get(_url(course, name, **kwargs)).content.decode())
        assert f"linear-decay {label}" in page, name


def test_the_drill_down_renders_feedback_maths_and_says_no_attempt_used_once(
    client, course, irene, alice
):
    part = Part.objects.get(exercise__slug="apply-1-gradient-bound")
    submission_create(student=alice, course=course, part=part, raw_answer="0.85^(40")
    Submission.objects.create(student=alice, course=course, part=part, raw_answer="2",
                              outcome=Submission.Outcome.INCORRECT, score=0.0,
                              counts_as_attempt=True,
                              feedback=r"Each step multiplies by $\sigma_{\max}$.")
    progress_sync(course)
    client.force_login(irene)
    page = client.get(_url(course, "student", student_id=alice.pk)).content.decode()
    answers = page[page.index("<h2>Every answer</h2>"):page.index("<h2>Lab runs")]
    assert r"$\sigma_{\max}$" not in answers and "<math" in answers
    assert "(no attempt used) (no attempt used)" not in _text(answers)
    assert _text(answers).count("no attempt used") == 1


def test_the_drill_down_lists_lab_parameters_with_labels_not_a_dict(client, course, irene, alice):
    from labs.services import lab_run_request

    lab = Lab.objects.get(slug="vanishing-gradient")
    lab_run_request(lab=lab, course=course, requester=alice, params={"units": 8}, seed=3)
    client.force_login(irene)
    page = client.get(_url(course, "student", student_id=alice.pk)).content.decode()
    runs = _text(page[page.index("<h2>Lab runs"):page.index("<h2>Grade overrides")])
    assert "Hidden units = 8" in runs and "Steps = 60" in runs
    assert "{" not in runs and "'units'" not in runs
