"""Course content as synced from files (keyed by uuid), course runs and enrolments."""

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.content_cache import VersionedQuerySet
from courses.part_labels import part_label


class ContentQuerySet(VersionedQuerySet):
    """Queries over synced content; archived rows are kept for the work attached to them
    (bulk writes bump the content version: `core.content_cache`)."""

    def active(self) -> "ContentQuerySet":
        return self.filter(archived_at__isnull=True)


class ContentItem(models.Model):
    """Fields every synced item has: a stable uuid, its source file, archive time."""

    uuid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    source_path = models.CharField(max_length=300, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ContentQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Module(ContentItem):
    slug = models.SlugField(max_length=100, unique=True)
    number = models.CharField(max_length=10)
    title = models.CharField(max_length=200)
    intro = models.TextField(blank=True)
    references = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"Module {self.number}: {self.title}"


class Section(ContentItem):
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="sections")
    number = models.CharField(max_length=10)
    slug = models.SlugField(max_length=100)
    title = models.CharField(max_length=300)
    body = models.TextField(blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["module", "order"]
        constraints = [
            models.UniqueConstraint(
                fields=["module", "number"],
                condition=models.Q(archived_at__isnull=True),
                name="section_number_unique_when_active",
            )
        ]

    def __str__(self) -> str:
        return f"{self.number} {self.title}"


class Figure(ContentItem):
    class Kind(models.TextChoices):
        """Module 5's figures drawn by code, which the module page's query values choose
        from (`?a=&b=`, `?row=`); every kind, these and the content-driven ones, is an entry
        of courses.figure_kinds (not the field's choices: a new kind needs no migration)."""

        WORD_VECTORS = "word-vectors", _("Word vectors")
        ALIGNMENT_GRID = "alignment-grid", _("Alignment grid")
        STATE_CHAIN = "state-chain", _("Hidden-state chain")
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="figures")
    slug = models.SlugField(max_length=100, unique=True)
    number = models.CharField(max_length=10)
    title = models.CharField(max_length=300)
    # A key of courses.figure_kinds.FIGURE_KINDS (checked at sync): a registry rather than
    # choices, so that adding a kind is one entry and no migration.
    kind = models.CharField(max_length=30, help_text="a kind of courses.figure_kinds")
    instructions = models.TextField(blank=True)
    caption = models.TextField(blank=True)
    in_words = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"Figure {self.number}: {self.title}"


class Lab(ContentItem):
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="labs")
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="labs")
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=300)
    simulation = models.CharField(max_length=50)
    description = models.TextField(blank=True)
    param_schema = models.JSONField(default=dict, blank=True)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["module", "order"]

    def __str__(self) -> str:
        return self.title


class Exercise(ContentItem):
    class Kind(models.TextChoices):
        CHECK = "check", _("Check")
        APPLY = "apply", _("Apply")
        EXTEND = "extend", _("Extend")
        PREDICT = "predict", _("Predict, then try")
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="exercises")
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="exercises")
    slug = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    title = models.CharField(max_length=200)
    prompt = models.TextField()
    order = models.PositiveIntegerField(default=0)
    parameters = models.JSONField(default=dict, blank=True)
    derived = models.JSONField(default=dict, blank=True)
    max_attempts = models.PositiveIntegerField(default=0, help_text="0 means unlimited")
    penalty = models.FloatField(default=0.0, help_text="score fraction lost per extra attempt")

    class Meta:
        ordering = ["module", "order"]

    def __str__(self) -> str:
        return f"{self.title} ({self.slug})"


class Part(models.Model):
    """One answer box of an exercise; identified by its key within the exercise."""

    exercise = models.ForeignKey(Exercise, on_delete=models.PROTECT, related_name="parts")
    key = models.SlugField(max_length=50)
    answer_type = models.CharField(max_length=20)
    prompt = models.TextField(blank=True)
    spec = models.JSONField(default=dict)
    points = models.FloatField(default=1.0)
    order = models.PositiveIntegerField(default=0)
    archived_at = models.DateTimeField(null=True, blank=True)

    objects = ContentQuerySet.as_manager()

    class Meta:
        ordering = ["exercise", "order"]
        constraints = [
            models.UniqueConstraint(fields=["exercise", "key"], name="part_key_unique_per_exercise")
        ]

    def __str__(self) -> str:
        return f"{self.exercise.slug}/{self.key}"

    @property
    def label(self) -> str:
        """The short label staff pages show (courses.part_labels.part_label)."""
        return part_label(label=str((self.spec or {}).get("label") or ""), prompt=self.prompt,
                          key=self.key)


class Course(models.Model):
    """A run of one or more modules for one class of students.

    The modules it runs, in order, are its CourseModule rows (`modules`). `module` is the
    first of them, kept so that existing callers and `course_create(module=...)` work: a
    course saved for the first time gets a CourseModule for it (order 0). A new course may
    start empty (`module` None, no CourseModule): its first repository sync adds its modules.
    """

    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="courses",
                               null=True, blank=True)
    ends_at = models.DateTimeField(
        null=True, blank=True,
        help_text="when the course ends; retention periods (RETENTION_* settings) count from it")
    language = models.CharField(
        max_length=10, blank=True, default="",
        help_text="the interface's language for the course's pages when neither the person nor "
                  "the LMS launch chose one (a code of settings.LANGUAGES; '' for none)")
    created_at = models.DateTimeField(auto_now_add=True)
    modules: "models.ManyToManyField[Module, CourseModule]" = models.ManyToManyField(
        Module, through="CourseModule", related_name="run_in")

    objects = VersionedQuerySet.as_manager()

    def __str__(self) -> str:
        return self.title

    def save(self, *args: Any, **kwargs: Any) -> None:
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding and self.module_id is not None:
            CourseModule.objects.get_or_create(course=self, module_id=self.module_id,
                                               defaults={"order": 0})

    def module_ids(self) -> "models.QuerySet[CourseModule, Any]":
        """The ids of the modules the course runs, as a subquery (`module_id__in=...` adds
        no query of its own)."""
        return CourseModule.objects.filter(course_id=self.pk).values("module_id")

    def released_module_ids(self, at: datetime) -> "models.QuerySet[CourseModule, Any]":
        """`module_ids` without the modules whose release date is after `at` (what students
        see)."""
        return (CourseModule.objects.filter(course_id=self.pk)
                .filter(models.Q(release_at__isnull=True) | models.Q(release_at__lte=at))
                .values("module_id"))


class CourseModule(models.Model):
    """One module a course runs: its place in the course, when students first see it
    (`release_at`, optional), the due date of its exercises that have no own deadline
    (`due_at`, optional) and its weight in the course total."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="course_modules")
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="course_links")
    order = models.PositiveIntegerField(default=0)
    release_at = models.DateTimeField(
        null=True, blank=True, help_text="students see the module from this moment (empty: now)")
    due_at = models.DateTimeField(
        null=True, blank=True,
        help_text="due date of the module's exercises that have no deadline of their own")
    weight = models.FloatField(default=1.0, help_text="the module's weight in the course total")

    objects = VersionedQuerySet.as_manager()

    class Meta:
        ordering = ["course", "order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["course", "module"], name="module_once_per_course")
        ]

    def __str__(self) -> str:
        return f"{self.course} runs {self.module}"

    def released(self, at: datetime) -> bool:
        return self.release_at is None or self.release_at <= at


class Enrollment(models.Model):
    class Role(models.TextChoices):
        STUDENT = "student", _("Student")
        TA = "ta", _("Teaching assistant")
        INSTRUCTOR = "instructor", _("Instructor")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="enrollments"
    )
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="enrollments")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.STUDENT)
    group = models.CharField(max_length=50, blank=True, help_text="section/group label")
    external_id = models.CharField(max_length=200, blank=True)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "course"], name="one_enrollment_per_course")
        ]
        indexes = [models.Index(fields=["course", "role", "group"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.course} as {self.role}"


class ContentRepository(models.Model):
    """Where a course's content comes from: a git URL and branch (an archive needs neither)."""

    course = models.OneToOneField(Course, on_delete=models.CASCADE, related_name="repository")
    url = models.CharField(max_length=500)
    branch = models.CharField(max_length=200, default="main")
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.url} ({self.branch})"


class ContentSync(models.Model):
    """One sync (or preview) of a course's content from its repository or an archive."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="content_syncs")
    source = models.CharField(max_length=500, help_text="repository URL and branch, or archive name")
    revision = models.CharField(
        max_length=100, blank=True, help_text="commit sha, or sha256:<digest> of an archive")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    dry_run = models.BooleanField(default=False)
    ok = models.BooleanField(default=False)
    changes = models.JSONField(default=list, blank=True)
    unchanged = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list, blank=True, help_text="file:line: reason lines")

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["course", "-at"])]

    def __str__(self) -> str:
        verb = "preview" if self.dry_run else "sync"
        return f"{verb} of {self.course} at {self.at:%Y-%m-%d %H:%M} ({'ok' if self.ok else 'failed'})"


class CourseInvite(models.Model):
    """A link that enrols whoever opens it (signed in, or creating an account there) in a
    course with a role: student or TA, never instructor. It ends when revoked, at
    `expires_at` or after `max_uses` enrolments."""

    class Role(models.TextChoices):
        STUDENT = "student", _("Student")
        TA = "ta", _("Teaching assistant")

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.STUDENT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.course} invite ({self.role})"

    def open_at(self, at: datetime) -> bool:
        """Whether the link still enrols people at `at`."""
        return (self.revoked_at is None
                and (self.expires_at is None or at < self.expires_at)
                and (self.max_uses is None or self.uses < self.max_uses))


class LanguagePreference(models.Model):
    """The interface language a person chose on their Language page (courses/languages.py)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="language_preference")
    language = models.CharField(max_length=10)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
