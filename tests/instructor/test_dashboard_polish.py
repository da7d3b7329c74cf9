# ruff: noqa: RUF001 - labels keep their maths as symbols
"""Dashboard polish (issue 25 item 10): parts named by their label on staff pages (CSV
headers keep the key), a reviewed answer that passes its part is correct, not "in
progress", and the question statistics draw a score and an attempts chart per question."""

import re

from django.urls import reverse

from courses.models import Enrollment, Part
from courses.part_labels import part_label
from grading.models import Submission
from grading.reviews import review_create
from grading.services import submission_create
from instructor.progress import class_progress
from instructor.statistics import question_statistics
from tests.factories import EnrollmentFactory, UserFactory, progress_sync


def _url(course, name, **kwargs):
    return reverse(f"dashboard:{name}", kwargs={"course_slug": course.slug, **kwargs})


def test_a_part_label_is_the_content_label_else_the_prompt_s_first_words_else_the_key():
    assert part_label(label=" Steps ", prompt="Anything", key="k") == "Steps"
    assert part_label(label="", prompt="Sequential steps for the RNN:", key="rnn_steps") == (
        "Sequential steps for the RNN")
    assert part_label(label="", prompt="The bound $\\sigma^{40}$ for **{{ N }}** steps",
                      key="k") == "The bound σ^40 for steps"
    long = part_label(label="", prompt="Your explanation (a short paragraph is enough):",
                      key="k")
    assert long == "Your explanation (a short paragraph is\u2026" and len(long) <= 41
    assert part_label(label="", prompt="$x^2$", key="only_maths") == "x^2"
    assert part_label(label="", prompt="   ", key="nothing") == "nothing"


def test_part_label_reads_an_optional_label_key_of_the_part_s_content(module_05):
    part = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    assert part.label == "Sequential steps for the RNN"
    part.spec = {**part.spec, "label": "RNN steps"}
    assert part.label == "RNN steps"


def test_a_label_key_in_a_part_passes_content_validation_if_it_is_text():
    from courses.content_validation import PART_OPTIONAL
    from grading.checkers import validate_spec

    assert "label" in PART_OPTIONAL
    spec = {"type": "integer", "key": "n", "reference": "3"}
    assert validate_spec({**spec, "label": "Steps"}) == []
    assert validate_spec({**spec, "label": 3}) == ["'label' must be a string"]


def test_staff_pages_name_a_part_by_its_label_and_the_csv_keeps_the_key(
        client, course, irene, alice):
    steps = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    essay = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    submission_create(student=alice, course=course, part=essay,
                      raw_answer="The vector has a fixed size, a bottleneck.")
    client.force_login(irene)
    shown = "Apply 2 / Sequential steps for the RNN"
    for name, kwargs in (("matrix", {}), ("statistics", {}), ("part", {"part_id": steps.pk}),
                         ("student", {"student_id": alice.pk})):
        page = client.get(_url(course, name, **kwargs)).content.decode()
        assert shown in page, name
        assert "/ rnn_steps" not in page, name
    queue = client.get(_url(course, "reviews")).content.decode()
    assert f"/ {essay.label}" in queue and "/ explanation" not in queue
    response = client.get(_url(course, "gradebook-csv"))
    header = b"".join(response.streaming_content).decode().splitlines()[0]
    assert "Apply 2 / rnn_steps" in header and shown not in header


def _reviewed_cell(course, irene, alice, points):
    part = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    answer = submission_create(student=alice, course=course, part=part,
                               raw_answer="The vector has a fixed size, a bottleneck.")
    assert answer.outcome == Submission.Outcome.REVIEW
    review_create(course=course, submission_id=answer.pk, reviewer=irene, points=points)
    answer.refresh_from_db()
    page = class_progress(course=course)
    column = next(i for i, c in enumerate(page.columns) if c.id == part.pk)
    return answer, page.rows[0].cells[column]


def test_a_reviewed_answer_that_passes_without_full_marks_is_correct_not_in_progress(
        course, irene, alice):
    # The part is worth 6 points and passes at half of them (pass_score = 0.5).
    answer, cell = _reviewed_cell(course, irene, alice, 4)
    assert answer.outcome == Submission.Outcome.CORRECT and round(answer.score, 4) == 0.6667
    assert (cell.state, cell.state_label, cell.text) == ("correct", "correct", "4")


def test_a_reviewed_answer_below_the_pass_score_stays_in_progress(course, irene, alice):
    answer, cell = _reviewed_cell(course, irene, alice, 2)
    assert answer.outcome == Submission.Outcome.PARTIAL
    assert cell.state == "in-progress"


def _answer(student, course, part, outcome, score):
    Submission.objects.create(student=student, course=course, part=part, raw_answer="x",
                              outcome=outcome, score=score, counts_as_attempt=True)


def test_each_question_gets_a_score_and_an_attempts_chart(client, course, irene):
    bound = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    essay = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    users = [UserFactory(username=f"chart-{i}") for i in range(3)]
    for user in users:
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    C, W = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT
    _answer(users[0], course, bound, C, 1.0)  # 1 attempt, best 1.0
    for outcome, score in ((W, 0.0), (C, 0.9)):  # 2 attempts, best 0.9
        _answer(users[1], course, bound, outcome, score)
    for _ in range(6):  # 6 attempts (shown as 5+), best 0
        _answer(users[2], course, bound, W, 0.0)
    _answer(users[0], course, essay, Submission.Outcome.REVIEW, None)  # awaits a reviewer
    progress_sync(course)
    stats = {s.column.id: s for s in question_statistics(course=course)}
    assert stats[bound.pk].score_counts == [1, 0, 0, 0, 2]
    assert stats[bound.pk].attempt_counts == [1, 1, 0, 0, 1]
    assert stats[essay.pk].score_counts == [0, 0, 0, 0, 0]  # not graded yet: no score
    assert stats[essay.pk].attempt_counts == [1, 0, 0, 0, 0]
    client.force_login(irene)
    page = client.get(_url(course, "statistics")).content.decode()
    for title in ("Best scores", "Attempts used"):
        charts = re.findall(rf'role="img" aria-label="{title}: ([^"]*)"', page)
        assert len(charts) == len(stats), title
    assert 'aria-label="Attempts used: Apply 1 / Largest possible size of the' in page
    detail = client.get(_url(course, "part", part_id=bound.pk)).content.decode()
    assert "Best scores: " in detail and "Attempts used: " in detail
