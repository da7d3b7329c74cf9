"""Issue 25 item 8: an answer awaiting review that a later correct answer superseded leaves the
review queue and the counts (kept in the history), the matrix cell stops saying "awaiting
review", and the checker's share of the rubric is offered as the suggested score."""

import pytest
from django.urls import reverse

from courses.models import Part
from grading.gradebook import CellState, gradebook
from grading.models import PartProgress, StudentProgress, Submission
from grading.progress import progress_refresh
from grading.progress_rebuild import progress_rebuild
from grading.reviews import review_create
from grading.services import submission_create
from instructor.review_queue import review_queue, waiting_count

pytestmark = pytest.mark.django_db

PARTIAL = "Recurrent networks are sequential, one token at a time."
FULL = ("Recurrent networks cannot run in parallel across time: step t needs the previous "
        "hidden state, so an N-token sequence takes N sequential steps. Their gradients also "
        "vanish over long paths, because the gradient travels back through a long product of "
        "per-step factors, which makes long-range dependencies hard to learn. Both come from "
        "the recurrence: each step depends on the previous one, a chain of hidden states that "
        "the transformer replaces with attention.")


def _cell(course, student, part):
    book = gradebook(course=course, student=student)
    return book.rows[0].cells[part.pk]


def _kept(course, student, part) -> tuple[int, int]:
    row = PartProgress.objects.get(course=course, student=student, part=part)
    return row.awaiting_review, StudentProgress.objects.get(
        course=course, student=student).awaiting_review


def test_a_later_correct_answer_takes_the_earlier_one_out_of_the_queue(course, alice, irene):
    part = Part.objects.get(exercise__slug="check-two-problems", key="explanation")
    first = submission_create(student=alice, course=course, part=part, raw_answer=PARTIAL)
    assert first.outcome == Submission.Outcome.REVIEW
    assert [i.submission.pk for i in review_queue(course=course).items] == [first.pk]
    assert _cell(course, alice, part).state == CellState.REVIEW

    later = submission_create(student=alice, course=course, part=part, raw_answer=FULL)
    assert later.outcome == Submission.Outcome.CORRECT
    assert review_queue(course=course).items == []
    assert waiting_count(course=course) == 0
    assert _kept(course, alice, part) == (0, 0)  # by difference on the answer path
    assert _cell(course, alice, part).state == CellState.CORRECT
    # The same numbers re-aggregated and rebuilt from scratch.
    progress_refresh(course_id=course.pk, student_id=alice.pk, part_id=part.pk)
    assert _kept(course, alice, part) == (0, 0)
    progress_rebuild(course=course)
    assert _kept(course, alice, part) == (0, 0)
    # Kept in the history, said to be superseded.
    first.refresh_from_db()
    assert first.outcome == Submission.Outcome.REVIEW


def test_an_answer_after_the_correct_one_still_waits(course, alice):
    part = Part.objects.get(exercise__slug="check-two-problems", key="explanation")
    submission_create(student=alice, course=course, part=part, raw_answer=FULL)
    # The answer path refuses answers once solved; an imported or restored one may follow.
    after = Submission.objects.create(student=alice, course=course, part=part,
                                      raw_answer=PARTIAL, outcome=Submission.Outcome.REVIEW,
                                      counts_as_attempt=True)
    progress_refresh(course_id=course.pk, student_id=alice.pk, part_id=part.pk)
    assert [i.submission.pk for i in review_queue(course=course).items] == [after.pk]
    assert _kept(course, alice, part) == (1, 1)
    progress_rebuild(course=course)
    assert _kept(course, alice, part) == (1, 1)


def test_a_later_answer_reviewed_to_full_marks_supersedes_the_earlier(course, alice, irene):
    part = Part.objects.get(exercise__slug="extend-bottleneck")
    first = submission_create(student=alice, course=course, part=part, raw_answer="bottleneck")
    second = submission_create(student=alice, course=course, part=part, raw_answer=FULL)
    assert {i.submission.pk for i in review_queue(course=course).items} == {first.pk, second.pk}
    review_create(course=course, submission_id=second.pk, reviewer=irene, points=part.points)
    assert review_queue(course=course).items == []
    assert _kept(course, alice, part) == (0, 0)
    assert _cell(course, alice, part).state == CellState.CORRECT


def test_the_students_page_keeps_the_superseded_answer_and_says_so(client, course, alice,
                                                                    irene):
    part = Part.objects.get(exercise__slug="check-two-problems", key="explanation")
    submission_create(student=alice, course=course, part=part, raw_answer=PARTIAL)
    submission_create(student=alice, course=course, part=part, raw_answer=FULL)
    client.force_login(irene)
    url = reverse("dashboard:student", kwargs={"course_slug": course.slug,
                                               "student_id": alice.pk})
    body = client.get(url).content.decode()
    assert PARTIAL in body
    assert "Superseded by a later correct answer" in body


def test_the_checkers_share_is_the_suggested_score(client, course, alice, irene):
    part = Part.objects.get(exercise__slug="extend-bottleneck")  # six concepts, six points
    answer = submission_create(
        student=alice, course=course, part=part,
        raw_answer="One fixed-size vector is the bottleneck: the encoder's final state must "
                   "hold it all, so early words are overwritten. Attention lets the decoder "
                   "look back at every encoder state with softmax weights.")
    [item] = review_queue(course=course).items
    assert item.concepts_found == 5 and len(item.concepts) == 6
    assert item.suggested_points == 5.0
    client.force_login(irene)
    body = client.get(reverse("dashboard:reviews", kwargs={"course_slug": course.slug})
                      ).content.decode()
    form = body[body.index(f'id="review-{answer.pk}"'):]
    assert 'name="points"' in form and 'value="5"' in form[:form.index("Save review")]
    assert "Suggested from the checker: 5 of 6 concepts found, 5 of 6 points" in form
