"""Question statistics, the misconception profile and overrides, against numbers worked out
by hand on a small class."""

import pytest

from courses.models import Enrollment, Part
from grading.gradebook import gradebook
from grading.models import Submission
from grading.overrides import grade_override_create
from instructor.misconceptions import misconception_profile
from instructor.statistics import part_detail, point_biserial, question_statistics
from tests.factories import EnrollmentFactory, UserFactory, progress_sync

C, WRONG, R = Submission.Outcome.CORRECT, Submission.Outcome.INCORRECT, Submission.Outcome.INVALID


def _answer(student, course, part, outcome, score=None, canonical="", tag="", seed=None,
            counts=True):
    submission = Submission.objects.create(
        student=student, course=course, part=part, raw_answer=canonical or "x",
        canonical=canonical, outcome=outcome, score=score, misconception=tag,
        counts_as_attempt=counts and outcome != R, variant_seed=seed)
    progress_sync(course)
    return submission


@pytest.fixture
def small_class(course, irene):
    """Five students A-E; P1 = Apply 1 / bound, P2 = Apply 2 / rnn_steps (1 point each).

    P1: A right at once (1.0); B "34" (linear-decay), "0.9985" (fraction-lost), then right
        with penalty (0.8); C "34", an unreadable answer, "0.9985": never right; D "34",
        then right (0.9). Seeds: A, B variant 1; C, D variant 2.
    P2: A "1" (rnn-parallel) then right (0.9); B right at once (1.0); D "1" only.
    E does nothing.
    """
    users = {}
    for name in "ABCDE":
        users[name] = UserFactory(username=f"student-{name.lower()}", first_name=name)
        EnrollmentFactory(user=users[name], course=course, role=Enrollment.Role.STUDENT,
                          group="red" if name in "AB" else "blue")
    p1 = Part.objects.get(exercise__slug="apply-1-gradient-bound", key="bound")
    p2 = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    A, B, C_, D = users["A"], users["B"], users["C"], users["D"]
    _answer(A, course, p1, C, 1.0, "0.85^40", seed=1)
    _answer(B, course, p1, WRONG, 0.0, "34", "linear-decay", seed=1)
    _answer(C_, course, p1, WRONG, 0.0, "34", "linear-decay", seed=2)
    _answer(D, course, p1, WRONG, 0.0, "34", "linear-decay", seed=2)
    _answer(B, course, p1, WRONG, 0.0, "0.9985", "fraction-lost", seed=1)
    _answer(C_, course, p1, R, None, "", seed=2)
    _answer(C_, course, p1, WRONG, 0.0, "0.9985", "fraction-lost", seed=2)
    _answer(D, course, p1, C, 0.9, "0.85^40", seed=2)
    _answer(B, course, p1, C, 0.8, "0.85^40", seed=1)
    _answer(A, course, p2, WRONG, 0.0, "1", "rnn-parallel", seed=7)
    _answer(B, course, p2, C, 1.0, "1000", seed=7)
    _answer(D, course, p2, WRONG, 0.0, "1", "rnn-parallel", seed=7)
    _answer(A, course, p2, C, 0.9, "1000", seed=7)
    return users, p1, p2


def _stats(course, part):
    return next(s for s in question_statistics(course=course) if s.column.id == part.pk)


def test_part_statistics_match_hand_computed_values(course, small_class):
    _, p1, p2 = small_class
    s1 = _stats(course, p1)
    assert (s1.students, s1.attempted, s1.solved, s1.first_attempt_correct) == (5, 4, 3, 1)
    assert s1.attempted_pct == pytest.approx(80.0)
    assert s1.correct_pct == pytest.approx(60.0)
    assert s1.first_attempt_correct_pct == pytest.approx(25.0)
    assert s1.mean_attempts_to_correct == pytest.approx(2.0)  # (1 + 3 + 2) / 3
    assert s1.difficulty == pytest.approx(0.675)  # (1.0 + 0.8 + 0 + 0.9) / 4
    # Totals A 1.9, B 1.8, C 0, D 0.9; solved A, B, D: M1 = 1.5333, M0 = 0, sd = 0.76974,
    # p = 0.75: r = 1.5333 / 0.76974 * sqrt(0.75 * 0.25) = 0.8626.
    assert s1.discrimination == pytest.approx(0.8626, abs=1e-4)

    s2 = _stats(course, p2)
    assert (s2.students, s2.attempted, s2.solved, s2.first_attempt_correct) == (5, 3, 2, 1)
    assert s2.correct_pct == pytest.approx(40.0)
    assert s2.first_attempt_correct_pct == pytest.approx(100 / 3)
    assert s2.mean_attempts_to_correct == pytest.approx(1.5)  # (2 + 1) / 2
    assert s2.difficulty == pytest.approx(1.9 / 3)
    # A (1, 1.9), B (1, 1.8), D (0, 0.9): M1 = 1.85, M0 = 0.9, sd = 0.44969, p = 2/3.
    assert s2.discrimination == pytest.approx(0.9959, abs=1e-4)


def test_a_part_nobody_tried_has_no_rates_and_no_discrimination(course, small_class):
    extend = Part.objects.get(exercise__slug="extend-bottleneck")
    stats = _stats(course, extend)
    assert (stats.attempted, stats.solved, stats.attempted_pct) == (0, 0, 0.0)
    assert stats.first_attempt_correct_pct is None
    assert stats.mean_attempts_to_correct is None
    assert stats.difficulty is None and stats.discrimination is None


def test_wrong_answers_are_grouped_by_canonical_form_with_their_misconception(course, small_class):
    _, p1, p2 = small_class
    wrong = [(w.canonical, w.misconception, w.count, w.students)
             for w in part_detail(course=course, part_id=p1.pk).wrong_answers]
    assert wrong == [("34", "linear-decay", 3, 3), ("0.9985", "fraction-lost", 2, 2)]
    summary = [(w.canonical, w.count) for w in _stats(course, p1).wrong_answers]
    assert summary == [("34", 3), ("0.9985", 2)]
    assert [(w.canonical, w.count) for w in _stats(course, p2).wrong_answers] == [("1", 2)]


def test_group_filter_restricts_statistics_to_that_group(course, small_class):
    _, p1, _ = small_class
    red = next(s for s in question_statistics(course=course, group="red")
               if s.column.id == p1.pk)
    assert (red.students, red.attempted, red.solved, red.first_attempt_correct) == (2, 2, 2, 1)
    assert red.mean_attempts_to_correct == pytest.approx(2.0)  # A 1, B 3
    assert [w.canonical for w in red.wrong_answers] == ["0.9985", "34"]  # ties by answer


def test_difficulty_per_variant_groups_students_by_their_parameters(course, small_class):
    _, p1, _ = small_class
    variants = part_detail(course=course, part_id=p1.pk).variants
    by_params = {(v.params["sigma"], v.params["steps"]): v for v in variants}
    # Seed 1 draws sigma 0.85, 40 steps (A and B); seed 2 draws 0.95, 30 (C and D).
    harder, easier = by_params[(0.95, 30)], by_params[(0.85, 40)]
    assert (harder.students, harder.solved, harder.difficulty) == (2, 1, pytest.approx(0.45))
    assert (easier.students, easier.solved, easier.difficulty) == (2, 2, pytest.approx(0.9))
    assert variants[0] is harder  # hardest first


def test_variants_drawn_before_the_definitions_changed_are_grouped_by_the_new_draws(
        course, small_class):
    _, p1, _ = small_class
    exercise = p1.exercise
    exercise.parameters = {name: {**spec, "choices": [spec["default"]]}
                           for name, spec in exercise.parameters.items()}
    exercise.save()  # one variant left; the rows keep the keys drawn before
    [only] = part_detail(course=course, part_id=p1.pk).variants
    assert (only.students, only.solved, only.difficulty) == (4, 3, pytest.approx(0.675))


def test_misconception_profile_counts_tags_per_class_and_per_student(course, small_class):
    profile = misconception_profile(course=course)
    assert [(c.tag, c.count, c.students) for c in profile.class_counts] == [
        ("linear-decay", 3, 3), ("fraction-lost", 2, 2), ("rnn-parallel", 2, 2)]
    assert profile.tags == ["linear-decay", "fraction-lost", "rnn-parallel"]
    per_student = {s.username: s.counts for s in profile.students}
    assert per_student == {
        "student-a": [0, 0, 1], "student-b": [1, 1, 0], "student-c": [1, 1, 0],
        "student-d": [1, 0, 1],
    }
    assert profile.students[-1].username == "student-a"  # fewest tags last


def test_carried_credit_is_not_a_misconception_in_the_profile(course, small_class):
    users, _, p2 = small_class
    _answer(users["E"], course, p2, Submission.Outcome.PARTIAL, 0.5, "1002", "carried", seed=7)
    profile = misconception_profile(course=course)
    assert "carried" not in profile.tags
    assert "carried" not in [c.tag for c in profile.class_counts]
    assert "student-e" not in [s.username for s in profile.students]


def test_an_override_replaces_the_computed_best_score_until_it_is_removed(
    course, small_class, irene
):
    users, p1, _ = small_class
    carol = users["C"]
    grade_override_create(course=course, student_id=carol.pk, part_id=p1.pk, points=0.5,
                          reason="Answer was right up to rounding", by=irene)
    row = gradebook(course=course, student=carol).rows[0]
    assert row.cells[p1.pk].best_score == pytest.approx(0.5)
    assert row.cells[p1.pk].computed_best == pytest.approx(0.0)
    assert row.cells[p1.pk].overridden
    grade_override_create(course=course, student_id=carol.pk, part_id=p1.pk, points=None,
                          reason="Withdrawn after discussion", by=irene)
    row = gradebook(course=course, student=carol).rows[0]
    assert row.cells[p1.pk].best_score == pytest.approx(0.0)
    assert not row.cells[p1.pk].overridden


def test_point_biserial_is_undefined_when_everyone_or_no_one_solved():
    assert point_biserial([1, 1, 1], [1.0, 2.0, 3.0]) is None
    assert point_biserial([0, 1], [2.0, 2.0]) is None
    assert point_biserial([0, 1], [0.0, 1.0]) == pytest.approx(1.0)


# --- answers awaiting review have no grade yet (issue 11, item 13) --------------------------

def test_answers_awaiting_review_are_left_out_of_difficulty(course, irene):
    part = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    graded, waiting = UserFactory(username="graded"), UserFactory(username="waiting")
    for user in (graded, waiting):
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    _answer(graded, course, part, Submission.Outcome.PARTIAL, 0.5, "a summary")
    _answer(waiting, course, part, Submission.Outcome.REVIEW, None, "waiting")
    stats = _stats(course, part)
    assert stats.attempted == 2
    assert stats.difficulty == 0.5  # not (0.5 + 0) / 2
    detail = part_detail(course=course, part_id=part.pk)
    assert detail.statistics.difficulty == 0.5


def test_a_part_whose_only_answers_await_review_has_no_difficulty_yet(course):
    part = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    user = UserFactory(username="waiting")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    _answer(user, course, part, Submission.Outcome.REVIEW, None, "waiting")
    stats = _stats(course, part)
    assert stats.attempted == 1 and stats.difficulty is None


def test_an_override_grades_an_answer_awaiting_review(course, irene):
    part = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    user = UserFactory(username="waiting")
    EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    _answer(user, course, part, Submission.Outcome.REVIEW, None, "waiting")
    grade_override_create(course=course, student_id=user.pk, part_id=part.pk,
                          points=part.points / 4, reason="graded by hand", by=irene)
    assert _stats(course, part).difficulty == 0.25


def test_the_matrix_mean_leaves_out_answers_awaiting_review(course):
    from instructor.progress import class_progress

    part = Part.objects.get(exercise__slug="extend-bottleneck", key="explanation")
    graded, waiting = UserFactory(username="graded"), UserFactory(username="waiting")
    for user in (graded, waiting):
        EnrollmentFactory(user=user, course=course, role=Enrollment.Role.STUDENT)
    _answer(graded, course, part, Submission.Outcome.PARTIAL, 0.5, "a summary")
    _answer(waiting, course, part, Submission.Outcome.REVIEW, None, "waiting")
    total = next(t for t in class_progress(course=course).part_totals if t.column.id == part.pk)
    assert total.attempted == 2 and total.mean_points == 0.5 * part.points


# --- misconception tags come with their label (issue 11, item 13) ---------------------------

LINEAR = "Treats the decay as linear: multiplies sigma_max by the number of steps instead of " \
         "raising it to that power."


def test_every_misconception_of_the_module_has_a_one_line_label(module_05):
    from grading.checkers.base import misconception_list

    for part in Part.objects.all():
        for item in misconception_list(part.spec):
            assert isinstance(item.get("label"), str) and item["label"].strip(), item["tag"]
            assert "\n" not in item["label"]


def test_tags_carry_their_labels_in_statistics_and_the_profile(course, small_class):
    _, p1, _ = small_class
    wrong = {w.misconception: w.label for w in _stats(course, p1).wrong_answers}
    assert wrong["linear-decay"] == LINEAR
    detail = part_detail(course=course, part_id=p1.pk)
    assert {w.misconception: w.label for w in detail.wrong_answers}["linear-decay"] == LINEAR
    profile = misconception_profile(course=course)
    assert dict(profile.tag_columns)["linear-decay"] == LINEAR
    assert {c.tag: c.label for c in profile.class_counts}["fraction-lost"].startswith(
        "Gives the fraction lost")
