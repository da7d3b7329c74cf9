"""Sync checks the key, the misconceptions and the question tests in every variant, and names
the variant (number and parameter values) where one fails, as file:line: reason."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from courses.models import Exercise
from courses.services import ContentInvalid, content_sync

pytestmark = pytest.mark.django_db

EXERCISE = Path("exercises") / "apply-1-gradient-bound.toml"
#: Appended to apply-1's only part: 0.8^20 is the key sigma^steps in variant 1 only
#: (sigma = 0.8, steps = 20: the first combination in sorted name order).
KEY_IN_VARIANT_1 = '''
  [[parts.misconceptions]]
  answer = "0.8^20"
  tag = "one-variant-key"
  feedback = "This is the key of one variant."
'''


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "module-05"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-05", target)
    return target


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_a_misconception_equal_to_the_key_in_one_variant_fails_the_sync_naming_it(content):
    _append(content / EXERCISE, KEY_IN_VARIANT_1)
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    [error] = caught.value.errors
    assert error.path.endswith("module-05/exercises/apply-1-gradient-bound.toml")
    assert error.line > 1
    assert "one-variant-key" in error.reason or "0.8^20" in error.reason
    assert "variant 1 (sigma=0.8, steps=20)" in str(error)
    assert Exercise.objects.count() == 0  # nothing applied


def test_the_command_reports_the_variant_as_file_line_reason(content):
    _append(content / EXERCISE, KEY_IN_VARIANT_1)
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was applied"):
        call_command("sync_content", str(content), stdout=StringIO(), stderr=err)
    line = err.getvalue().strip()
    assert line.startswith("module-05/exercises/apply-1-gradient-bound.toml:")
    assert "in variant 1 (sigma=0.8, steps=20)" in line


def test_question_tests_that_hold_in_every_variant_let_the_sync_through(content):
    _append(content / EXERCISE, '''
  [[parts.tests]]
  answer = "{{ sigma }}^{{ steps }}"
  outcome = "correct"
  score = 1

  [[parts.tests]]
  answer = "{{ sigma }}*{{ steps }}"
  outcome = "incorrect"
  misconception = "linear-decay"

  [[parts.tests]]
  answer = "half"
  outcome = "invalid"
''')
    report = content_sync(root=content)
    assert report.change_count > 0


def test_a_question_test_failing_in_some_variants_names_the_first_and_counts_the_rest(content):
    _append(content / EXERCISE, '''
  [[parts.tests]]
  answer = "0.0115"
  outcome = "incorrect"
''')
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    [error] = caught.value.errors
    assert "'tests' 1: '0.0115' grades correct" in error.reason
    assert "expected incorrect, in variant 1 (sigma=0.8, steps=20)" in error.reason


def test_a_malformed_question_test_is_reported_without_grading(content):
    _append(content / EXERCISE, '''
  [[parts.tests]]
  answer = "{{ gamma }}"
  outcome = "right"
''')
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    reasons = " | ".join(e.reason for e in caught.value.errors)
    assert "unknown parameters: gamma" in reasons
    assert "needs an 'outcome'" in reasons


CHAIN = Path("exercises") / "attention-weighted-sum.toml"
#: Question tests of the chain's last part ("output", marked using the answer to "weight").
CARRIED_TESTS = '''
  [[parts.tests]]
  answer = "0.25*{{ v1 }} + 0.75*{{ v2 }}"
  earlier = { weight = "0.25" }
  outcome = "partial"
  score = 0.75
  misconception = "carried"

  [[parts.tests]]
  answer = "0.25*{{ v1 }} + 0.75*{{ v2 }}"
  outcome = "invalid"
'''


@pytest.fixture
def module_06_content(tmp_path: Path) -> Path:
    target = tmp_path / "module-06"
    shutil.copytree(Path(settings.CONTENT_ROOT) / "module-06", target)
    return target


def test_question_tests_run_on_a_carried_part_with_the_earlier_answers_they_give(
        module_06_content):
    _append(module_06_content / CHAIN, CARRIED_TESTS)
    report = content_sync(root=module_06_content)
    assert report.change_count > 0


def test_a_failing_question_test_of_a_carried_part_fails_the_sync(module_06_content):
    _append(module_06_content / CHAIN, CARRIED_TESTS.replace('outcome = "partial"',
                                                             'outcome = "correct"', 1))
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=module_06_content)
    errors = [str(e) for e in caught.value.errors]  # one per answer as typed in a variant
    assert errors and all("attention-weighted-sum.toml:" in e and "part 'output': 'tests' 1:"
                          in e for e in errors)
    assert "grades partial (0.75) with misconception 'carried', expected correct" in errors[0]


def test_earlier_answers_of_a_question_test_must_name_parts_the_part_uses(module_06_content):
    _append(module_06_content / CHAIN, CARRIED_TESTS.replace('earlier = { weight = "0.25" }',
                                                             'earlier = { scores = "[1, 2]" }'))
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=module_06_content)
    assert "'earlier' names parts whose answers this part does not use: scores" in \
        str(caught.value.errors[0])
