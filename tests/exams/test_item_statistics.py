"""Item statistics against a hand-computed example: four students, three items scored
1,1,1 / 1,1,0 / 1,0,0 / 0,0,0.

By hand (population variances): items 0.1875, 0.25, 0.1875 (sum 0.625); totals 3, 2, 1, 0
have variance 1.25; alpha = 3/2 (1 - 0.625/1.25) = 0.75. Item 1 against the rest (2, 1, 0,
0): covariance sum 0.75, squares 0.75 and 2.75, r = 0.75/sqrt(2.0625) = 0.52223; item 2
against 2, 1, 1, 0: r = 1/sqrt(2) = 0.70711; item 3 against 2, 2, 1, 0: r = 0.52223."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from exams.item_statistics import (
    ChoicePart,
    Chosen,
    PartChoices,
    Taken,
    Timed,
    choice_counts,
    cronbach_alpha,
    item_statistics,
    median_times,
    pearson,
    score_distribution,
)
from exams.models import Attempt, Question
from exams.services import attempt_close, attempt_start, drafts_save
from exams.staff_selectors import item_analysis, staff_place
from tests.exams.test_attempts import right_answers
from tests.factories import EnrollmentFactory, UserFactory

PAPERS = [[1, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 0]]


def _taken() -> list[Taken]:
    return [Taken(item=f"item{i + 1}", variant="v1", score=row[i], rest=sum(row) - row[i])
            for row in PAPERS for i in range(3)]


def test_cronbach_alpha_of_the_hand_example_is_three_quarters():
    assert cronbach_alpha(PAPERS) == pytest.approx(0.75)


def test_point_biserial_against_the_rest_of_the_paper_matches_the_hand_values():
    found = {s.item: s for s in item_statistics(_taken()) if s.variant == ""}
    assert found["item1"].discrimination == pytest.approx(0.52223, abs=1e-5)
    assert found["item2"].discrimination == pytest.approx(0.70711, abs=1e-5)
    assert found["item3"].discrimination == pytest.approx(0.52223, abs=1e-5)
    assert [found[f"item{i}"].facility for i in (1, 2, 3)] == [0.75, 0.5, 0.25]
    assert found["item1"].students == 4


def test_items_are_flagged_for_negative_discrimination_or_facility_out_of_range():
    # Everyone who does well overall misses this item: negative discrimination.
    taken = [Taken("odd", "", s, r) for s, r in ((0, 3), (0, 2), (1, 1), (1, 0))]
    taken += [Taken("easy", "", 1, r) for r in (0, 1, 2, 3)]
    stats = {s.item: s for s in item_statistics(taken) if s.variant == ""}
    assert stats["odd"].flags == ["negative discrimination"]
    assert stats["easy"].flags == ["too easy"] and stats["easy"].discrimination is None


def test_degenerate_inputs_give_none_not_a_division_by_zero():
    assert pearson([1, 1], [0, 1]) is None and pearson([1], [1]) is None
    assert cronbach_alpha([[1, 1], [1, 1]]) is None and cronbach_alpha([[1, 0]]) is None


def test_the_score_distribution_counts_each_tenth_and_one_in_the_last():
    assert score_distribution([0, 0.05, 0.5, 0.99, 1.0]) == [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]


# Choice counts and median time by hand: five students on a single-choice part "pick" of
# "mcq" (options a, b, c; key b), two variants. Variant v1: b, b, a; variant v2: c and one
# blank. All variants: a 1, b 2 (key), c 1, no answer 1. Last saves 30, 90, 60 s after the
# start in v1 (median 60) and 120, 10 s in v2 (median 65); all five: 10 30 60 90 120 -> 60.
MCQ = ChoicePart(item="mcq", part="pick", options=("a", "b", "c"), correct=frozenset({"b"}))
CHOSEN = [Chosen("mcq", "v1", "pick", o) for o in ("b", "b", "a")] + [
    Chosen("mcq", "v2", "pick", o) for o in ("c", "")]
TIMED = [Timed("mcq", "v1", s) for s in (30, 90, 60)] + [Timed("mcq", "v2", s) for s in (120, 10)]


def _counts(part: PartChoices) -> list[tuple[str, int, bool]]:
    return [(o.option, o.count, o.key) for o in part.options]


def test_choice_counts_per_option_with_the_key_marked_match_the_hand_example():
    counts = choice_counts(CHOSEN, [MCQ])
    assert _counts(counts[("mcq", "")][0]) == [
        ("a", 1, False), ("b", 2, True), ("c", 1, False), ("", 1, False)]
    assert _counts(counts[("mcq", "v1")][0]) == [("a", 1, False), ("b", 2, True), ("c", 0, False)]
    assert _counts(counts[("mcq", "v2")][0]) == [
        ("a", 0, False), ("b", 0, True), ("c", 1, False), ("", 1, False)]


def test_an_option_no_longer_in_the_spec_is_still_counted_after_the_others():
    counts = choice_counts([Chosen("mcq", "v1", "pick", "z")], [MCQ])
    assert _counts(counts[("mcq", "")][0])[-1] == ("z", 1, False)


def test_median_time_per_question_and_variant_matches_the_hand_example():
    assert median_times(TIMED) == {("mcq", ""): 60, ("mcq", "v1"): 60, ("mcq", "v2"): 65}


def test_item_statistics_carry_the_choice_counts_and_median_time_of_each_row():
    taken = [Taken("mcq", "v1", s, 0) for s in (1, 1, 0)] + [Taken("mcq", "v2", 0, 0)] * 2
    rows = {s.variant: s for s in item_statistics(taken, CHOSEN, [MCQ], TIMED)}
    assert rows[""].median_seconds == 60 and rows["v2"].median_seconds == 65
    assert [o.count for o in rows["v1"].choices[0].options] == [1, 2, 0]
    plain = item_statistics(_taken())
    assert all(s.choices == [] and s.median_seconds is None for s in plain)


PICK = {"key": "pick", "type": "choice", "points": 1, "prompt": "Which one?",
        "options": [{"key": "a", "text": "A"}, {"key": "b", "text": "B"},
                    {"key": "c", "text": "C"}], "correct": "b"}


@pytest.mark.django_db
def test_the_staff_analysis_counts_the_choices_and_times_the_last_saves(quiz_course):
    """Three students start together on the same paper (each zone's pool cut to its first
    question); each question also has the single-choice parts "pick" and "spare". They pick
    b, b, a, leave "spare" blank and last save 30, 90 and 60 s after the start: median 60 s
    (the blank answers the close records at 100 s are no saves)."""
    for question in Question.objects.all():
        question.parts = [*question.parts, PICK, {**PICK, "key": "spare"}]
        question.save(update_fields=["parts"])
    assessment = quiz_course.assessment
    assessment.zones = [{**zone, "draw": 1, "questions": zone["questions"][:1]}
                        for zone in assessment.zones]
    assessment.save(update_fields=["zones"])
    start = timezone.now()
    for n, (pick, seconds) in enumerate((("b", 30), ("b", 90), ("a", 60))):
        student = UserFactory(username=f"s{n}")
        EnrollmentFactory(course=quiz_course.course, user=student)
        attempt = attempt_start(student=student, course=quiz_course.course,
                                assessment=quiz_course.assessment, now=start).attempt
        drafts = right_answers(attempt)
        drafts_save(attempt_id=attempt.pk, student=student, drafts=drafts,
                    now=start + timedelta(seconds=5))
        drafts_save(attempt_id=attempt.pk, student=student, drafts={
            (uuid, "pick"): pick for uuid, _ in drafts}, now=start + timedelta(seconds=seconds))
        attempt_close(attempt_id=attempt.pk, by=Attempt.ClosedBy.STUDENT,
                      now=start + timedelta(seconds=100))
    place = staff_place(user=quiz_course.instructor, course_slug=quiz_course.course.slug,
                        slug="quiz-1")
    assert place is not None
    rows = [s for s in item_analysis(place).items if s.variant == ""]
    assert len(rows) == 2
    for row in rows:
        assert row.median_seconds == 60
        assert [_counts(part) for part in row.choices] == [
            [("a", 1, False), ("b", 2, True), ("c", 0, False)],
            [("a", 0, False), ("b", 0, True), ("c", 0, False), ("", 3, False)]]
    page = Client()
    page.force_login(quiz_course.instructor)
    html = page.get(reverse("exams:staff", args=[quiz_course.course.slug, "quiz-1"])).content
    assert b"Median time" in html and b"60 s" in html and b"b (key) 2" in html
