"""An instructor's "Sync" of a course from its content repository (or an uploaded archive).

The content folder holds `course.toml` (the course file: its `modules` list names the module
folders in order) and one folder per module, each as `sync_content` reads it. A sync fetches
the folder (`courses.repository`), validates it with `content_sync` (the same validation as
`manage.py sync_content`), refuses modules the instructor may not change, applies everything
in one transaction (or nothing) and records a `ContentSync`.
"""

import re
import tempfile
import tomllib
from pathlib import Path
from typing import IO

from django.contrib.auth.models import User
from django.db.models import Q

from courses.content_files import ContentError, ContentFiles
from courses.languages import course_file_language, course_language_apply
from courses.models import (
    ContentRepository,
    ContentSync,
    Course,
    CourseModule,
    Enrollment,
    Exercise,
    Figure,
    Lab,
    Module,
    Part,
    Section,
)
from courses.repository import (
    Limits,
    RepositoryRefused,
    archive_extract,
    branch_check,
    git_fetch,
    url_check,
    url_normalised,
)
from courses.services import ContentInvalid, content_sync

COURSE_FILE = "course.toml"
_FOLDER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def course_file_read(root: Path) -> tuple[list[Path], list[ContentError]]:
    """The module folders `course.toml` lists, in order, and the problems found reading it.

    `modules` must be a non-empty list of folder names directly under `root` (no `/`, no
    `..`), each holding a module.toml, each listed once.
    """
    path = root / COURSE_FILE
    if not path.is_file():
        return [], [ContentError(COURSE_FILE, 1, "the course file course.toml is missing")]
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        return [], [ContentError(COURSE_FILE, int(found.group(1)) if found else 1,
                                 f"invalid TOML: {exc}")]
    line = modules_line(text)
    names = data.get("modules")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return [], [ContentError(COURSE_FILE, line,
                                 "modules must be a list of module folder names")]
    folders: list[Path] = []
    errors: list[ContentError] = []
    for name in names:
        if not _FOLDER.match(name):
            errors.append(ContentError(COURSE_FILE, line,
                                       f"'{name}' is not a folder name of this content folder"))
        elif root / name in folders:
            errors.append(ContentError(COURSE_FILE, line, f"'{name}' is listed twice"))
        elif not (root / name / "module.toml").is_file():
            errors.append(ContentError(COURSE_FILE, line,
                                       f"'{name}' is listed but {name}/module.toml is missing"))
        else:
            folders.append(root / name)
    return folders, errors


def modules_line(text: str) -> int:
    """The line of the course file's `modules` key (1 if absent)."""
    return next((i + 1 for i, row in enumerate(text.splitlines())
                 if row.lstrip().startswith("modules")), 1)


def course_modules_apply(course: Course, modules: list[Module], *, line: int = 1) -> list[str]:
    """Make `modules` (in the course file's order) the course's modules, in that order, and
    say what changed in the course's module list (lines for the sync's report: each module
    added or removed, and the new order when it changed).

    The one place where the course file's list reaches the course: a CourseModule row per
    module listed (created if missing, its `order` set to its place in the list; release and
    due dates and weight kept), `Course.module` = the first listed, and the links of modules
    no longer listed removed. A module is unlinked only if no student has work on it in this
    course (a submission or a lab run); otherwise ContentInvalid, reported at `course.toml`
    line `line` (its `modules` key), and the caller's transaction applies nothing.
    """
    if not modules:
        return []
    listed = {m.pk for m in modules}
    dropped = list(CourseModule.objects.filter(course=course).exclude(module_id__in=listed)
                   .select_related("module"))
    with_work = [link.module for link in dropped if _has_work(course, link.module)]
    if with_work:
        raise ContentInvalid([ContentError(
            COURSE_FILE, line,
            f"module '{module.slug}' is no longer listed but students of this course have "
            "work on it; list it again (its work is kept) or ask an operator to move the work")
            for module in with_work])
    CourseModule.objects.filter(pk__in=[link.pk for link in dropped]).delete()
    report = [f"removed module {link.module.slug} from the course: {COURSE_FILE} no longer "
              "lists it (no student of the course had work on it)" for link in dropped]
    links = {link.module_id: link for link in CourseModule.objects.filter(course=course)}
    kept_before = [link.module_id for link in sorted(links.values(), key=lambda k: k.order)]
    for order, module in enumerate(modules):
        link = links.get(module.pk)
        if link is None:
            CourseModule.objects.create(course=course, module=module, order=order)
            report.append(f"added module {module.slug} to the course (place {order + 1} of "
                          f"{len(modules)})")
        elif link.order != order:
            link.order = order
            link.save(update_fields=["order"])
    if kept_before != [m.pk for m in modules if m.pk in links]:
        report.append("the course's modules are now in this order: "
                      + ", ".join(m.slug for m in modules))
    # Compared in the database: a dry run before may have set the instance's module already.
    Course.objects.filter(pk=course.pk).exclude(module_id=modules[0].pk).update(module=modules[0])
    course.module = modules[0]
    return report


def _has_work(course: Course, module: Module) -> bool:
    """Whether a student of `course` has a submission or a lab run on `module` (through the
    reverse relations: courses does not import the apps above it)."""
    return (Part.objects.filter(exercise__module=module, submissions__course=course).exists()
            or Lab.objects.filter(module=module, runs__course=course).exists())


def _ownership_conflicts(course: Course, user: User, bundles: list[ContentFiles]) -> list[ContentError]:
    """Modules and items the files would change that the instructor may not change.

    A module already in the database may be changed only if every course using it has `user`
    as an active instructor; an item (section, figure, lab, exercise) whose uuid exists may be
    changed only if it already belongs to one of the synced modules.
    """
    errors: list[ContentError] = []
    module_uuids = {str(f.module.data["uuid"]).lower(): f.module for f in bundles if f.module}
    for module in Module.objects.filter(uuid__in=list(module_uuids)).prefetch_related("run_in"):
        source = module_uuids[str(module.uuid)]
        others = [c for c in module.run_in.all() if c.pk != course.pk]
        allowed = set(Enrollment.objects.filter(
            user=user, role=Enrollment.Role.INSTRUCTOR, is_active=True,
            course__in=others).values_list("course_id", flat=True))
        for other in others:
            if other.pk not in allowed:
                errors.append(ContentError(
                    source.display_path, source.line_of("uuid"),
                    f"module '{module.slug}' is also used by the course '{other.slug}', where "
                    "you are not an instructor; syncing would change it there"))
    synced = {str(u) for u in module_uuids}
    for model, attr, module_path in (
        (Section, "sections", "module__uuid"), (Figure, "figures", "section__module__uuid"),
        (Lab, "labs", "module__uuid"), (Exercise, "exercises", "module__uuid"),
    ):
        by_uuid = {str(s.data["uuid"]).lower(): s for f in bundles for s in getattr(f, attr)}
        foreign = model.objects.filter(uuid__in=list(by_uuid)).exclude(
            Q(**{f"{module_path}__in": list(synced)}))
        for item_uuid in foreign.values_list("uuid", flat=True):
            source = by_uuid[str(item_uuid)]
            errors.append(ContentError(
                source.display_path, source.line_of("uuid"),
                f"uuid {item_uuid} belongs to a {model._meta.verbose_name} of another module; "
                "give this item a new uuid"))
    return errors


def _run(*, course: Course, user: User, dry_run: bool, source: str, root: Path,
         revision: str) -> ContentSync:
    folders, errors = course_file_read(root)
    record = ContentSync(course=course, by=user, dry_run=dry_run, source=source[:500],
                         revision=revision)
    if errors:
        record.problems = [str(e) for e in errors]
        record.save()
        return record
    text = (root / COURSE_FILE).read_text(encoding="utf-8", errors="replace")
    line = modules_line(text)
    language, problem = course_file_language(tomllib.loads(text))
    if problem is not None:
        record.problems = [str(ContentError(COURSE_FILE, 1, problem))]
        record.save()
        return record
    course_changes: list[str] = []
    try:
        report = content_sync(
            root=root, dry_run=dry_run, folders=folders,
            checks=lambda bundles: _ownership_conflicts(course, user, bundles),
            on_applied=lambda modules: course_changes.extend(
                course_modules_apply(course, modules, line=line)
                + course_language_apply(course, language)),
        )
    except ContentInvalid as exc:
        record.problems = [_relative(str(e), root) for e in exc.errors]
    else:
        record.ok = True
        record.changes = course_changes + report.lines()
        record.unchanged = report.unchanged
    record.save()
    return record


def _relative(problem: str, root: Path) -> str:
    """Problems name files relative to the content folder, never the server's temp path."""
    return problem.replace(f"{root}/", "").replace(str(root), ".")


def course_sync_repository(*, course: Course, user: User, dry_run: bool = False,
                           limits: Limits | None = None) -> ContentSync:
    """Fetch the course's connected repository, validate and (unless `dry_run`) apply it.

    Always returns the saved ContentSync: `ok` with the changes, or failed with its problems
    (`file:line: reason`, or the reason the fetch was refused). Nothing is applied on failure.
    """
    repository = ContentRepository.objects.get(course=course)
    source = f"{repository.url} ({repository.branch})"
    limits = limits or Limits.from_settings()
    with tempfile.TemporaryDirectory(prefix="course-sync-") as tmp:
        dest = Path(tmp) / "content"
        try:
            sha = git_fetch(url=repository.url, branch=repository.branch, dest=dest, limits=limits)
        except RepositoryRefused as exc:
            return ContentSync.objects.create(course=course, by=user, dry_run=dry_run,
                                              source=source[:500], problems=[str(exc)])
        return _run(course=course, user=user, dry_run=dry_run, source=source, root=dest,
                    revision=sha)


def course_sync_archive(*, course: Course, user: User, upload: IO[bytes], name: str,
                        dry_run: bool = False, limits: Limits | None = None) -> ContentSync:
    """As course_sync_repository, from an uploaded .zip or .tar.gz of the content folder."""
    limits = limits or Limits.from_settings()
    source = f"archive {name}"
    with tempfile.TemporaryDirectory(prefix="course-sync-") as tmp:
        dest = Path(tmp) / "content"
        try:
            digest = archive_extract(upload=upload, dest=dest, limits=limits)
        except RepositoryRefused as exc:
            return ContentSync.objects.create(course=course, by=user, dry_run=dry_run,
                                              source=source[:500], problems=[str(exc)])
        return _run(course=course, user=user, dry_run=dry_run, source=source, root=dest,
                    revision=digest)


def course_repository_connect(*, course: Course, user: User, url: str, branch: str) -> ContentRepository:
    """Connect (or change) the course's repository. RepositoryRefused if the URL is not allowed.
    An absolute local path (where local repositories are allowed) is stored as its file://
    URL."""
    url_check(url)
    branch_check(branch)
    repository, _ = ContentRepository.objects.update_or_create(
        course=course, defaults={"url": url_normalised(url), "branch": branch,
                                 "updated_by": user})
    return repository
