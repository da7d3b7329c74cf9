"""A new course may start empty, its syncs say when its module list changes, and bin/run's
local settings connect a repository on the server's own disk (issue 37, item 7)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from courses.course_sync import course_repository_connect, course_sync_repository
from courses.models import ContentRepository, Course, CourseModule, Enrollment
from courses.people import course_create_for
from courses.repository import RepositoryRefused, url_check

pytestmark = pytest.mark.django_db
CONTENT = Path(settings.CONTENT_ROOT)
GIT = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]


def _git(repo: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)


def _repository(root: Path, *modules: str) -> Path:
    """A git repository of a course folder listing `modules` (copied from this repository)."""
    root.mkdir(parents=True, exist_ok=True)
    for name in modules:
        if not (root / name).exists():
            shutil.copytree(CONTENT / name, root / name)
    (root / "course.toml").write_text(
        'title = "Attention"\nmodules = [' + ", ".join(f'"{m}"' for m in modules) + "]\n")
    if not (root / ".git").exists():
        subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)  # noqa: S607
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "modules")
    return root


def _linked(course: Course) -> list[str]:
    return list(CourseModule.objects.filter(course=course).order_by("order")
                .values_list("module__slug", flat=True))


@pytest.fixture
def local_repos_allowed(settings):
    settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES = ["https", "file"]
    return settings


def test_an_instructor_creates_a_course_with_no_module(irene):
    course = course_create_for(by=irene, title="Physics", slug="physics-spring", modules=[])
    assert course.module is None and _linked(course) == []
    assert Enrollment.objects.get(course=course, user=irene).role == Enrollment.Role.INSTRUCTOR


def test_an_empty_course_is_created_on_the_web_and_its_pages_open(client, irene):
    client.force_login(irene)
    created = client.post(reverse("new-course"), {"title": "Physics", "slug": "physics"})
    assert created.status_code == 302, created.content.decode()[:2000]
    course = Course.objects.get(slug="physics")
    assert _linked(course) == []
    dashboard = ["overview", "matrix", "statistics", "misconceptions", "labs", "reviews",
                 "deadlines", "content", "people", "gradebook-csv", "submissions-csv"]
    for url in (reverse("home"), reverse("course-module", args=["physics"]),
                *(reverse(f"dashboard:{name}", args=["physics"]) for name in dashboard),
                "/api/v1/courses/physics/modules/", "/api/v1/courses/physics/gradebook/"):
        page = client.get(url)
        assert page.status_code == 200, url
    assert "No modules yet" in client.get(reverse("home")).content.decode()
    assert "No modules yet" in client.get(reverse("course-module", args=["physics"])
                                          ).content.decode()
    api = client.get("/api/v1/courses/physics/module/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_the_first_sync_of_an_empty_course_adds_its_modules_and_says_so(
        irene, tmp_path, local_repos_allowed):
    course = course_create_for(by=irene, title="Attention", slug="attention", modules=[])
    repo = _repository(tmp_path / "repo", "module-06")
    course_repository_connect(course=course, user=irene, url=f"file://{repo}", branch="main")

    preview = course_sync_repository(course=course, user=irene, dry_run=True)
    assert preview.ok, preview.problems
    assert preview.changes[0] == "added module module-06 to the course (place 1 of 1)"
    assert _linked(course) == []

    done = course_sync_repository(course=course, user=irene)
    assert done.changes[0] == "added module module-06 to the course (place 1 of 1)"
    assert _linked(course) == ["module-06"]
    course.refresh_from_db()
    assert course.module is not None and course.module.slug == "module-06"


def test_a_sync_that_unlinks_a_module_says_so(course, irene, tmp_path, local_repos_allowed):
    """The course was created with Module 5; its team's repository lists only Module 6."""
    repo = _repository(tmp_path / "repo", "module-06")
    course_repository_connect(course=course, user=irene, url=f"file://{repo}", branch="main")

    done = course_sync_repository(course=course, user=irene)

    assert done.ok, done.problems
    assert done.changes[:2] == [
        "removed module module-05 from the course: course.toml no longer lists it (no student "
        "of the course had work on it)",
        "added module module-06 to the course (place 1 of 1)"]
    assert _linked(course) == ["module-06"]


def test_a_sync_that_reorders_the_modules_says_so(course, irene, tmp_path, local_repos_allowed):
    repo = _repository(tmp_path / "repo", "module-05", "module-06")
    course_repository_connect(course=course, user=irene, url=f"file://{repo}", branch="main")
    assert course_sync_repository(course=course, user=irene).changes[0] == (
        "added module module-06 to the course (place 2 of 2)")
    _repository(repo, "module-06", "module-05")

    done = course_sync_repository(course=course, user=irene)

    assert done.changes == ["the course's modules are now in this order: module-06, module-05"]
    unchanged = course_sync_repository(course=course, user=irene)
    assert unchanged.ok and unchanged.changes == []


# --- a repository on the server's own disk ---------------------------------------------


def test_a_local_path_is_connected_as_its_file_url_where_local_repositories_are_allowed(
        course, irene, tmp_path, local_repos_allowed):
    repo = _repository(tmp_path / "repo", "module-05")
    course_repository_connect(course=course, user=irene, url=f"  {repo}  ", branch="main")
    assert ContentRepository.objects.get(course=course).url == f"file://{repo}"
    assert course_sync_repository(course=course, user=irene).ok


def test_a_relative_local_path_is_refused_with_what_to_give(local_repos_allowed):
    with pytest.raises(RepositoryRefused, match="absolute path"):
        url_check("../course-repo")


def _allowed_schemes(settings_module: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTENT_REPOSITORY")}
    env |= {"DJANGO_SETTINGS_MODULE": settings_module, "SECRET_KEY": "x" * 50,
            "ALLOWED_HOSTS": "grader.example.org"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         " print(','.join(settings.CONTENT_REPOSITORY_ALLOWED_SCHEMES))"],
        env=env, capture_output=True, text=True, check=True, cwd=settings.BASE_DIR)
    return done.stdout.strip()


def test_bin_run_s_local_settings_allow_local_repositories_and_production_does_not():
    assert _allowed_schemes("config.settings.local") == "https,file"
    assert _allowed_schemes("config.settings.production") == "https"
