"""Syncing a course from its content repository or an uploaded archive (issues 23.2, 26.8)."""

import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from courses.course_sync import course_repository_connect, course_sync_archive, course_sync_repository
from courses.models import ContentSync, CourseModule, Exercise, Part
from courses.repository import Limits, RepositoryRefused, archive_extract, tree_check, url_check
from grading.models import Submission
from tests.factories import EnrollmentFactory, UserFactory

pytestmark = pytest.mark.django_db
SOURCE = Path(settings.CONTENT_ROOT) / "module-05"
GIT = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
LIMITS = Limits(max_bytes=5_000_000, max_files=500, timeout=60, archive_max_bytes=2_000_000,
                max_ratio=100)


def _git(repo: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository holding a course folder: course.toml and module-05/."""
    root = tmp_path / "course-repo"
    shutil.copytree(SOURCE, root / "module-05")
    (root / "course.toml").write_text('title = "RNNs"\nmodules = ["module-05"]\n')
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)  # noqa: S607
    _git(root, "add", ".")
    _git(root, "commit", "-qm", "content")
    return root


@pytest.fixture
def local_repos_allowed(settings):
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]
    return settings


@pytest.fixture
def instructor(course):
    user = UserFactory(username="prof")
    EnrollmentFactory(user=user, course=course, role="instructor")
    return user


# --- the allow-list (issue 26 item 8) -----------------------------------------------------


@pytest.mark.parametrize("url", ["file:///srv/content", "/srv/content", "../content",
                                 "git://github.com/x/y", "http://github.com/x/y",
                                 "ssh://git@github.com/x/y"])
def test_default_settings_refuse_local_paths_and_other_schemes(url):
    with pytest.raises(RepositoryRefused):
        url_check(url)


def test_unlisted_host_is_refused():
    with pytest.raises(RepositoryRefused, match="not in the allowed list"):
        url_check("https://evil.example.com/x.git")


@pytest.mark.parametrize("host", ["127.0.0.1", "10.0.0.5", "169.254.169.254", "[::1]",
                                  "192.168.1.1", "localhost"])
def test_host_resolving_to_the_servers_own_networks_is_refused(settings, host):
    settings.CONTENT_REPOSITORY_ALLOWED_HOSTS = ["*"]
    with pytest.raises(RepositoryRefused, match="private or local network"):
        url_check(f"https://{host}/x.git")


def test_private_addresses_pass_only_when_the_operator_allows_them(settings):
    settings.CONTENT_REPOSITORY_ALLOWED_HOSTS = ["127.0.0.1"]
    settings.CONTENT_REPOSITORY_ALLOW_PRIVATE = True
    url_check("https://127.0.0.1/x.git")


def test_credentials_in_the_url_are_refused(settings):
    with pytest.raises(RepositoryRefused, match="user name or password"):
        url_check("https://me:secret@github.com/x/y.git")


def test_connect_refuses_a_file_url_by_default(course, instructor, repo):
    with pytest.raises(RepositoryRefused):
        course_repository_connect(course=course, user=instructor, url=f"file://{repo}",
                                  branch="main")


def test_option_like_branch_is_refused(course, instructor, local_repos_allowed, repo):
    with pytest.raises(RepositoryRefused, match="branch"):
        course_repository_connect(course=course, user=instructor, url=f"file://{repo}",
                                  branch="--upload-pack=touch /tmp/x")


# --- a real git repository ----------------------------------------------------------------


def test_sync_from_a_local_git_repository_reports_file_line_then_applies_the_fix(
        course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    exercise = next((repo / "module-05" / "exercises").glob("*.toml"))
    text = exercise.read_text()
    exercise.write_text(text.replace("title = ", "title = [", 1))
    _git(repo, "commit", "-qam", "broken")

    failed = course_sync_repository(course=course, user=instructor)

    assert not failed.ok
    assert any(p.startswith(f"module-05/exercises/{exercise.name}:") for p in failed.problems)
    assert "course-sync-" not in " ".join(failed.problems)
    assert len(failed.revision) == 40

    exercise.write_text(text.replace('title = "', 'title = "Renamed: ', 1))
    _git(repo, "commit", "-qam", "fixed")
    preview = course_sync_repository(course=course, user=instructor, dry_run=True)
    assert preview.ok and preview.changes and preview.dry_run
    assert not Exercise.objects.filter(title__startswith="Renamed: ").exists()

    done = course_sync_repository(course=course, user=instructor)
    assert done.ok
    assert any(line.startswith("updated") for line in done.changes)
    assert Exercise.objects.filter(title__startswith="Renamed: ").exists()
    assert ContentSync.objects.filter(course=course).count() == 3


def test_fetch_over_the_time_limit_is_refused(course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    record = course_sync_repository(course=course, user=instructor,
                                    limits=Limits(**{**LIMITS.__dict__, "timeout": 0.01}))
    assert not record.ok and "longer than" in record.problems[0]


def test_fetch_over_the_file_count_limit_is_refused(course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    record = course_sync_repository(course=course, user=instructor,
                                    limits=Limits(**{**LIMITS.__dict__, "max_files": 3}))
    assert not record.ok and "more than 3 files" in record.problems[0]


def test_symlink_in_the_repository_is_refused(course, instructor, repo, local_repos_allowed):
    (repo / "module-05" / "sections" / "leak.md").symlink_to("/etc/passwd")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "link")
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    record = course_sync_repository(course=course, user=instructor)
    assert not record.ok and "links are not allowed" in record.problems[0]


def test_course_file_listing_a_path_outside_the_folder_is_refused(
        course, instructor, repo, local_repos_allowed):
    (repo / "course.toml").write_text('modules = ["../module-05"]\n')
    _git(repo, "commit", "-qam", "escape")
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    record = course_sync_repository(course=course, user=instructor)
    assert record.problems == ["course.toml:1: '../module-05' is not a folder name of this "
                               "content folder"]


def test_module_of_a_course_where_you_are_not_instructor_is_refused(
        course, other_course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    record = course_sync_repository(course=course, user=instructor)
    assert not record.ok
    assert "also used by the course 'rnn-spring'" in record.problems[0]


# --- the course's module list ------------------------------------------------------------


def _list_modules(repo: Path, *names: str) -> None:
    for name in names:
        if not (repo / name).exists():
            shutil.copytree(SOURCE.parent / name, repo / name)
    (repo / "course.toml").write_text(
        "title = \"RNNs\"\nmodules = [" + ", ".join(f'"{n}"' for n in names) + "]\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "modules")


def _linked(course) -> list[str]:
    return list(CourseModule.objects.filter(course=course).order_by("order")
                .values_list("module__slug", flat=True))


def test_sync_links_every_listed_module_in_the_listed_order(
        course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    link = CourseModule.objects.get(course=course)
    link.weight = 2.0
    link.save()
    _list_modules(repo, "module-06", "module-05")

    assert course_sync_repository(course=course, user=instructor).ok

    assert _linked(course) == ["module-06", "module-05"]
    course.refresh_from_db()
    assert course.module.slug == "module-06"
    assert CourseModule.objects.get(course=course, module__slug="module-05").weight == 2.0


def test_dry_run_links_nothing(course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    _list_modules(repo, "module-05", "module-06")
    assert course_sync_repository(course=course, user=instructor, dry_run=True).ok
    assert _linked(course) == ["module-05"]


def test_module_no_longer_listed_is_unlinked_when_nobody_worked_on_it(
        course, instructor, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    _list_modules(repo, "module-05", "module-06")
    course_sync_repository(course=course, user=instructor)
    _list_modules(repo, "module-05")

    assert course_sync_repository(course=course, user=instructor).ok

    assert _linked(course) == ["module-05"]


def test_module_with_student_work_cannot_be_unlisted(
        course, instructor, alice, repo, local_repos_allowed):
    course_repository_connect(course=course, user=instructor, url=f"file://{repo}", branch="main")
    _list_modules(repo, "module-06", "module-05")
    course_sync_repository(course=course, user=instructor)
    part = Part.objects.filter(exercise__module__slug="module-05").first()
    Submission.objects.create(student=alice, course=course, part=part, raw_answer="1")
    (repo / "course.toml").write_text('title = "RNNs"\n\nmodules = ["module-06"]\n')
    _git(repo, "commit", "-qam", "drop module 5")

    record = course_sync_repository(course=course, user=instructor)

    assert not record.ok
    assert record.problems[0].startswith("course.toml:3: module 'module-05' is no longer listed")
    assert _linked(course) == ["module-06", "module-05"]


# --- archives -----------------------------------------------------------------------------


def _zip(entries: dict[str, bytes]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    buffer.seek(0)
    return buffer


def test_archive_of_the_folder_syncs(course, instructor, repo):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        tf.add(repo / "course.toml", "course/course.toml")
        tf.add(repo / "module-05", "course/module-05")
    buffer.seek(0)
    record = course_sync_archive(course=course, user=instructor, upload=buffer, name="c.tar.gz",
                                 dry_run=True)
    assert record.ok, record.problems
    assert record.revision.startswith("sha256:")


@pytest.mark.parametrize("name", ["../evil.toml", "/etc/evil.toml", "a/../../evil.toml",
                                  "C:/evil.toml"])
def test_archive_path_outside_the_folder_is_refused(tmp_path, name):
    with pytest.raises(RepositoryRefused, match="outside the course folder"):
        archive_extract(upload=_zip({name: b"x"}), dest=tmp_path / "out", limits=LIMITS)
    assert not (tmp_path / "evil.toml").exists()


def test_tar_symlink_is_refused(tmp_path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tf:
        info = tarfile.TarInfo("course/leak")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tf.addfile(info)
    buffer.seek(0)
    with pytest.raises(RepositoryRefused, match="links"):
        archive_extract(upload=buffer, dest=tmp_path / "out", limits=LIMITS)


def test_archive_bomb_is_refused_by_ratio(tmp_path):
    bomb = _zip({"course/big.md": b"0" * 3_000_000})  # ~3 kB packed, 1000x
    with pytest.raises(RepositoryRefused, match="size limit"):
        archive_extract(upload=bomb, dest=tmp_path / "out", limits=LIMITS)


def test_archive_over_the_upload_size_is_refused(tmp_path):
    with pytest.raises(RepositoryRefused, match="larger than"):
        archive_extract(upload=io.BytesIO(b"x" * 3_000_000), dest=tmp_path / "out",
                        limits=LIMITS)


def test_archive_with_too_many_files_is_refused(tmp_path):
    many = _zip({f"f{i}.md": b"x" for i in range(20)})
    with pytest.raises(RepositoryRefused, match="more than 10 files"):
        archive_extract(upload=many, dest=tmp_path / "out",
                        limits=Limits(**{**LIMITS.__dict__, "max_files": 10}))


def test_folder_with_a_symlink_fails_the_tree_check(tmp_path):
    (tmp_path / "a").symlink_to("/etc")
    with pytest.raises(RepositoryRefused, match="links"):
        tree_check(tmp_path, LIMITS)


# --- the page -----------------------------------------------------------------------------


def test_instructor_previews_and_syncs_on_the_content_page(
        client, course, instructor, repo, local_repos_allowed):
    client.force_login(instructor)
    url = reverse("dashboard:content", kwargs={"course_slug": course.slug})
    client.post(url, {"action": "connect", "url": f"file://{repo}", "branch": "main"})
    page = client.post(url, {"action": "preview"}, follow=True).content.decode()
    assert "Preview succeeded" in page and "unchanged" in page


def test_a_ta_cannot_sync(client, course, repo):
    ta = UserFactory(username="ta")
    EnrollmentFactory(user=ta, course=course, role="ta")
    client.force_login(ta)
    url = reverse("dashboard:content", kwargs={"course_slug": course.slug})
    assert client.post(url, {"action": "sync"}).status_code == 403


# --- the admin ----------------------------------------------------------------------------


def test_admin_shows_content_read_only_and_cannot_delete_it(client, module_05):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    exercise = Exercise.objects.first()
    change = reverse("admin:courses_exercise_change", args=[exercise.pk])
    page = client.get(change).content.decode()
    assert "course&#x27;s repository" in page or "course's repository" in page
    assert 'name="title"' not in page
    client.post(change, {"title": "edited in admin"})
    exercise.refresh_from_db()
    assert exercise.title != "edited in admin"
    assert client.post(reverse("admin:courses_exercise_delete", args=[exercise.pk]),
                       {"post": "yes"}).status_code == 403
    assert Exercise.objects.filter(pk=exercise.pk).exists()
