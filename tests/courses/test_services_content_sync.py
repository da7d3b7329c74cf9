"""content_sync: validate everything first, upsert by uuid, archive instead of delete."""

import shutil
from pathlib import Path

import pytest
from django.conf import settings

from courses.models import Exercise, Part, Section
from courses.services import ContentInvalid, content_sync
from grading.models import Submission
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SOURCE = Path(settings.CONTENT_ROOT) / "module-05"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """A private copy of Module 5's files that a test may edit."""
    target = tmp_path / "module-05"
    shutil.copytree(SOURCE, target)
    return target


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_first_sync_creates_everything(content):
    report = content_sync(root=content)
    assert report.change_count > 0
    assert not report.updated and not report.archived
    assert Section.objects.count() == 7


def test_second_sync_reports_zero_changes(content):
    content_sync(root=content)
    report = content_sync(root=content)
    assert report.change_count == 0
    assert report.lines() == []
    assert report.unchanged > 0


def test_edited_prompt_updates_the_same_row_in_place(content):
    content_sync(root=content)
    before = Exercise.objects.get(slug="apply-2-sequential-steps")
    _replace(content / "exercises" / "apply-2-sequential-steps.toml",
             "How many sequential steps", "How many strictly sequential steps")
    report = content_sync(root=content)
    after = Exercise.objects.get(slug="apply-2-sequential-steps")
    assert after.pk == before.pk
    assert "strictly sequential" in after.prompt
    assert report.updated == ["exercise apply-2-sequential-steps (prompt)"]


def test_renamed_slug_keeps_the_row_by_uuid(content):
    content_sync(root=content)
    before = Exercise.objects.get(slug="apply-2-sequential-steps")
    _replace(content / "exercises" / "apply-2-sequential-steps.toml",
             'slug = "apply-2-sequential-steps"', 'slug = "apply-2-steps"')
    content_sync(root=content)
    assert Exercise.objects.get(slug="apply-2-steps").pk == before.pk


def test_removed_exercise_is_archived_and_its_submissions_stay(content, course):
    content_sync(root=content)
    part = Part.objects.get(exercise__slug="apply-2-sequential-steps", key="rnn_steps")
    submission = Submission.objects.create(
        student=UserFactory(), course=course, part=part, raw_answer="1000"
    )
    (content / "exercises" / "apply-2-sequential-steps.toml").unlink()

    report = content_sync(root=content)

    exercise = Exercise.objects.get(slug="apply-2-sequential-steps")
    assert exercise.archived_at is not None
    assert "exercise apply-2-sequential-steps" in report.archived
    assert Part.objects.get(pk=part.pk).archived_at is not None
    assert Submission.objects.get(pk=submission.pk).raw_answer == "1000"
    assert not Exercise.objects.active().filter(pk=exercise.pk).exists()


def test_archived_exercise_that_returns_is_restored(content):
    content_sync(root=content)
    path = content / "exercises" / "apply-2-sequential-steps.toml"
    saved = path.read_text(encoding="utf-8")
    path.unlink()
    content_sync(root=content)
    path.write_text(saved, encoding="utf-8")
    report = content_sync(root=content)
    assert "exercise apply-2-sequential-steps" in report.restored
    assert Exercise.objects.get(slug="apply-2-sequential-steps").archived_at is None
    assert Part.objects.filter(exercise__slug="apply-2-sequential-steps",
                               archived_at__isnull=True).count() == 2


def test_removed_part_is_archived_not_deleted(content):
    content_sync(root=content)
    path = content / "exercises" / "apply-2-sequential-steps.toml"
    text = path.read_text(encoding="utf-8")
    second = text.index("[[parts]]", text.index("[[parts]]") + 1)
    path.write_text(text[:second], encoding="utf-8")
    report = content_sync(root=content)
    assert "part apply-2-sequential-steps/attention_steps" in report.archived
    assert Part.objects.get(key="attention_steps").archived_at is not None


def test_corrupted_toml_is_refused_with_file_and_line_and_nothing_applied(content):
    path = content / "exercises" / "apply-1-gradient-bound.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4] + ' = = "broken'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)

    messages = [str(e) for e in caught.value.errors]
    assert messages[0].startswith("module-05/exercises/apply-1-gradient-bound.toml:5: invalid TOML")
    assert Section.objects.count() == 0
    assert Exercise.objects.count() == 0


def test_semantic_error_names_the_line_of_the_bad_field(content):
    path = content / "exercises" / "apply-1-gradient-bound.toml"
    text = path.read_text(encoding="utf-8")
    _replace(path, 'type = "numeric"', 'type = "numerik"')
    line = text.splitlines().index('type = "numeric"') + 1

    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)

    assert [str(e) for e in caught.value.errors] == [
        f"module-05/exercises/apply-1-gradient-bound.toml:{line}: unknown answer type 'numerik' "
        "(use one of numeric, symbolic, vector, integer, choice, text, matrix, quantity, set, "
        "list, string, equation, matching, logic, item_list)"
    ]


def test_one_bad_file_blocks_every_change(content):
    content_sync(root=content)
    _replace(content / "exercises" / "apply-2-sequential-steps.toml",
             "How many sequential steps", "How many strictly sequential steps")
    _replace(content / "sections" / "05-seq2seq.md", "order = 5", 'order = "five"')
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    assert any("05-seq2seq.md" in str(e) and "'order' must be int" in str(e)
               for e in caught.value.errors)
    assert "strictly" not in Exercise.objects.get(slug="apply-2-sequential-steps").prompt


def test_duplicate_uuid_is_reported_for_the_second_file(content):
    source = (content / "exercises" / "apply-2-sequential-steps.toml").read_text(encoding="utf-8")
    copy = source.replace('slug = "apply-2-sequential-steps"', 'slug = "apply-2-copy"')
    (content / "exercises" / "zz-copy.toml").write_text(copy, encoding="utf-8")
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    assert any(str(e).startswith("module-05/exercises/zz-copy.toml:") and "already used" in str(e)
               for e in caught.value.errors)


def test_reference_that_does_not_grade_itself_is_refused(content):
    _replace(content / "exercises" / "apply-1-gradient-bound.toml",
             'reference = "sigma^steps"', 'reference = "sigma^"')
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    assert any("apply-1-gradient-bound.toml" in str(e) and "reference" in str(e)
               for e in caught.value.errors)


def test_unknown_simulation_is_refused(content):
    _replace(content / "labs" / "rnn.toml", 'simulation = "rnn"', 'simulation = "lstm"')
    with pytest.raises(ContentInvalid) as caught:
        content_sync(root=content)
    assert any("labs/rnn.toml" in str(e) and "unknown simulation 'lstm'" in str(e)
               for e in caught.value.errors)


def test_dry_run_reports_changes_and_applies_nothing(content):
    report = content_sync(root=content, dry_run=True)
    assert report.change_count > 0
    assert Section.objects.count() == 0
