"""The load seed's pure parts: the exam rush's quiz gets a time limit that outlasts the run."""

import pytest

from tests.load.seed import QUIZ_FOLDER, QUIZ_SLUG, quiz_time_limit_set


def test_the_test_quizs_time_limit_is_replaced():
    toml = (QUIZ_FOLDER / f"{QUIZ_SLUG}.toml").read_text()
    changed = quiz_time_limit_set(toml, 45)
    assert "time_limit = 45\n" in changed
    assert changed.replace("time_limit = 45", "") == toml.replace("time_limit = 20", "")


def test_a_quiz_without_a_time_limit_line_is_refused():
    with pytest.raises(ValueError):
        quiz_time_limit_set('slug = "quiz"\n', 45)
