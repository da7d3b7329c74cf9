"""Assessments (quizzes, exams) synced from a module's `assessments/` folder, their question
pools, and the students' attempts with the answers saved as drafts while they type."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.content_cache import VersionedQuerySet
from courses.models import Course, Module


class Question(models.Model):
    """One question of a module's pools: an exercise's prompt, parameters and parts, kept
    apart from the module's homework exercises so that no student sees it outside an exam."""

    uuid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="exam_questions")
    slug = models.SlugField(max_length=100)
    title = models.CharField(max_length=200)
    prompt = models.TextField()
    parameters = models.JSONField(default=dict, blank=True)
    derived = models.JSONField(default=dict, blank=True)
    parts = models.JSONField(default=list, help_text="the [[parts]] specs, as synced")
    source_path = models.CharField(max_length=300, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["module", "slug"],
                                               name="exam_question_slug_unique_per_module")]

    def __str__(self) -> str:
        return self.slug

    @property
    def points(self) -> float:
        return float(sum(float(p.get("points", 1)) for p in self.parts))


class Assessment(models.Model):
    class Kind(models.TextChoices):
        QUIZ = "quiz", _("Quiz")
        EXAM = "exam", _("Exam")
    class Counts(models.TextChoices):
        BEST = "best", _("Best attempt")
        LAST = "last", _("Last attempt")
    class Feedback(models.TextChoices):
        AFTER_SUBMIT = "after_submit", _("After the attempt is submitted")
        AFTER_CLOSE = "after_close", _("After the window closes")
        ON_RELEASE = "on_release", _("When the instructor releases it")
    class Key(models.TextChoices):
        AFTER_CLOSE = "after_close", _("After the window closes")
        ON_RELEASE = "on_release", _("When the instructor releases it")
        NEVER = "never", _("Never")
    uuid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    module = models.ForeignKey(Module, on_delete=models.PROTECT, related_name="assessments")
    slug = models.SlugField(max_length=100, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    title = models.CharField(max_length=200)
    instructions = models.TextField(blank=True)
    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    time_limit_minutes = models.PositiveIntegerField(default=0, help_text="0: untimed")
    attempts = models.PositiveIntegerField(default=1)
    counts = models.CharField(max_length=10, choices=Counts.choices, default=Counts.BEST)
    shuffle = models.BooleanField(default=False)
    feedback = models.CharField(max_length=20, choices=Feedback.choices,
                                default=Feedback.AFTER_CLOSE)
    key = models.CharField(max_length=20, choices=Key.choices, default=Key.AFTER_CLOSE)
    zones = models.JSONField(default=list, help_text="[{title, draw, questions: [uuid, ...]}]")
    networks = models.JSONField(default=list, blank=True,
                                help_text="CIDR ranges it may be taken from (none: anywhere)")
    seb_config_keys = models.JSONField(default=list, blank=True,
                                       help_text="Safe Exam Browser Config Keys (none: no check)")
    weight = models.FloatField(default=1.0, help_text="its weight in the course total (the "
                               "file's `weight`; a module's weight is 1 by default too)")
    source_path = models.CharField(max_length=300, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)

    # Cached content (the gradebook's columns): bulk writes bump the content version too.
    objects = VersionedQuerySet.as_manager()

    def __str__(self) -> str:
        return self.slug


class Accommodation(models.Model):
    """A student's standing accommodation in a course, applied to every timed assessment."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    time_factor = models.FloatField(default=1.0)
    extra_attempts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["course", "student"],
                                               name="accommodation_one_per_student")]

    def __str__(self) -> str:
        return f"x{self.time_factor:g} +{self.extra_attempts} attempts"


class Release(models.Model):
    """An instructor's release of an assessment's feedback (and key) in a course."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    feedback = models.BooleanField(default=False)
    key = models.BooleanField(default=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           related_name="+")
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assessment", "course"],
                                               name="release_one_per_course")]

    def __str__(self) -> str:
        return f"release of {self.assessment_id} in {self.course_id}"


class Attempt(models.Model):
    class ClosedBy(models.TextChoices):
        STUDENT = "student", _("Submitted by the student")
        DEADLINE = "deadline", _("Closed by the server at the deadline")
    assessment = models.ForeignKey(Assessment, on_delete=models.PROTECT, related_name="student_attempts")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="exam_attempts")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField(null=True, help_text="None: the module's own numbers")
    paper = models.JSONField(default=list,
                             help_text="[{question: id, seed}] in the student's order")
    started_at = models.DateTimeField()
    deadline_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.CharField(max_length=10, choices=ClosedBy.choices, blank=True)
    score = models.FloatField(null=True, blank=True, help_text="0..1 of the paper's points")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["assessment", "course", "student", "number"],
                                    name="attempt_number_unique"),
            # One attempt at a time: a second browser finds this one, never starts another.
            models.UniqueConstraint(fields=["assessment", "course", "student"],
                                    condition=models.Q(closed_at__isnull=True),
                                    name="attempt_one_open"),
        ]
        indexes = [models.Index(fields=["deadline_at"], condition=models.Q(closed_at__isnull=True),
                                name="attempt_open_deadline")]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.student_id} on {self.assessment_id}"


class Answer(models.Model):
    """A student's answer to one part of one question of an attempt: a draft while the
    attempt is open (saved as typed), graded once when it closes."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="answers")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="+")
    part_key = models.CharField(max_length=50)
    raw = models.TextField(blank=True)
    saved_at = models.DateTimeField()
    saves = models.PositiveIntegerField(default=1)
    outcome = models.CharField(max_length=20, blank=True)
    score = models.FloatField(null=True, blank=True)
    feedback = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["attempt", "question", "part_key"],
                                               name="answer_one_per_part")]

    def __str__(self) -> str:
        return f"{self.question_id}/{self.part_key}"


class AuditEntry(models.Model):
    """Every start, save burst, submit, close, reopen and release, for the instructors."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, null=True, related_name="+")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                              related_name="+")
    action = models.CharField(max_length=20)
    detail = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.action} {self.detail}"


class Proctoring(models.Model):
    """The course team's integrity settings of an assessment in a course: an access code the
    proctor shows in the room, asked for when an attempt starts."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    access_code = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assessment", "course"],
                                               name="proctoring_one_per_course")]

    def __str__(self) -> str:
        return f"proctoring of {self.assessment_id} in {self.course_id}"


class WindowExtension(models.Model):
    """A later close of one assessment's window for one student (illness, a clash)."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    closes_at = models.DateTimeField()
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assessment", "course", "student"],
                                               name="window_extension_one_per_student")]

    def __str__(self) -> str:
        return f"extension of {self.assessment_id} for {self.student_id}"


class AssessmentScore(models.Model):
    """A student's score on an assessment in a course, kept by exams/scores.py (its one
    writer) whenever an attempt closes or reopens or the feedback is released: what the
    gradebook reads (one row per student, no attempt read) and what the LMS is sent."""

    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="+")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    score = models.FloatField(null=True, blank=True,
                              help_text="0..1 of the paper: best or last closed attempt")
    attempts = models.PositiveIntegerField(default=0, help_text="closed attempts")
    in_progress = models.BooleanField(default=False, help_text="an attempt is open")
    released = models.BooleanField(default=False,
                                   help_text="the release rule lets the student see it")
    released_score = models.FloatField(null=True, blank=True,
                                       help_text="the score last released (sent to the LMS)")
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assessment", "course", "student"],
                                               name="assessment_score_one_per_student")]

    def __str__(self) -> str:
        return f"{self.student_id} on {self.assessment_id}: {self.score}"
