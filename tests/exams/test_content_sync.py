"""Assessments are synced with the module: validated first (file:line: reason, every question
test run in every variant), then upserted by uuid in the same transaction, or nothing."""

from pathlib import Path

import pytest

from courses.models import Exercise
from courses.services import ContentInvalid, content_sync
from exams.models import Assessment, Question

pytestmark = pytest.mark.django_db

QUIZ = Path("assessments") / "quiz-1.toml"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _problems(content: Path) -> list[str]:
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    assert Assessment.objects.count() == 0 and Question.objects.count() == 0
    return [str(e) for e in caught.value.errors]


def test_a_quiz_with_two_pools_is_synced_with_its_module(content):
    report = content_sync(root=content)
    quiz = Assessment.objects.get(slug="quiz-1")
    assert quiz.kind == "quiz" and quiz.time_limit_minutes == 20 and quiz.shuffle
    assert [z["draw"] for z in quiz.zones] == [1, 1]
    assert [len(z["questions"]) for z in quiz.zones] == [3, 2]
    assert Question.objects.filter(module=quiz.module).count() == 5
    assert "created assessment quiz-1" in report.lines()
    assert "created question rnn-steps" in report.lines()
    # Pool questions are not homework: the module's exercises are only its exercises/.
    assert not Exercise.objects.filter(slug="rnn-steps").exists()


def test_a_second_sync_changes_nothing_and_a_removed_question_is_archived(content):
    content_sync(root=content)
    again = content_sync(root=content)
    assert not [line for line in again.lines() if "assessment" in line or "question" in line]
    _edit(content / QUIZ, '"tokens-doubled"', '"attention-steps"'.replace("attention", "rnn"))
    (content / "assessments" / "questions" / "tokens-doubled.toml").unlink()
    with pytest.raises(ContentInvalid):  # rnn-steps now listed twice in a zone
        content_sync(root=content)
    _edit(content / QUIZ, ', "rnn-steps"]', "]")
    report = content_sync(root=content)
    assert "archived question tokens-doubled" in report.lines()
    assert Question.objects.get(slug="tokens-doubled").archived_at is not None


def test_a_zone_naming_an_unknown_question_is_a_file_line_error(content):
    _edit(content / QUIZ, '"gradient-bound"', '"gradient-bond"')
    [problem] = _problems(content)
    assert problem.startswith("module-05/assessments/quiz-1.toml:24: zone 2: 'gradient-bond' "
                              "is not a question of assessments/questions/")


def test_drawing_more_than_the_pool_holds_is_refused_at_its_line(content):
    _edit(content / QUIZ, "draw = 1\nquestions = [\"gradient", "draw = 3\nquestions = [\"gradient")
    [problem] = _problems(content)
    assert problem == ("module-05/assessments/quiz-1.toml:23: zone 2: 'draw' must be between 1 "
                       "and the 2 questions listed, not 3")


def test_a_window_without_a_time_zone_or_closing_before_it_opens_is_refused(content):
    _edit(content / QUIZ, "opens = 2026-01-01T09:00:00Z", "opens = 2026-01-01T09:00:00")
    assert _problems(content) == [
        "module-05/assessments/quiz-1.toml:7: 'opens' needs a time zone offset "
        "(2027-03-01T09:00:00Z or 2027-03-01T10:00:00+01:00)"]
    _edit(content / QUIZ, "opens = 2026-01-01T09:00:00", "opens = 2037-01-01T09:00:00Z")
    assert _problems(content) == [
        "module-05/assessments/quiz-1.toml:8: 'closes' must be after 'opens'"]


def test_unknown_fields_and_choices_are_named_at_their_line(content):
    _edit(content / QUIZ, 'counts = "best"', 'counts = "average"\ncolour = "red"')
    assert _problems(content) == [
        "module-05/assessments/quiz-1.toml:11: unknown counts 'average' (use one of best, last)",
        "module-05/assessments/quiz-1.toml:12: unknown field 'colour'",
    ]


def test_a_question_test_failing_in_one_variant_of_a_pool_question_fails_the_sync(content):
    """Question tests run on every question of every pool, in every variant: 1000 is the key
    in the default variant only."""
    _edit(content / "assessments" / "questions" / "rnn-steps.toml",
          'answer = "{{ N }}"', 'answer = "1000"')
    [problem] = _problems(content)
    assert problem.startswith("module-05/assessments/questions/rnn-steps.toml:")
    assert "part 'steps'" in problem and "variant" in problem and "N=500" in problem


def test_a_broken_key_in_a_pool_question_is_refused_like_an_exercise_key(content):
    _edit(content / "assessments" / "questions" / "gradient-after-two.toml",
          'reference = "sigma^2"', 'reference = "sigma^^2"')
    [problem] = _problems(content)
    assert problem.startswith("module-05/assessments/questions/gradient-after-two.toml:16: "
                              "part 'bound':")
