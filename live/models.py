"""Live sessions: one part of a course opened for the room, and the room's answers to it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from courses.models import Course, Part
from grading.models import Submission
from labs.models import LabRun


class LiveSession(models.Model):
    """One question (a part of the course) asked of the room, from opening to reveal."""

    class State(models.TextChoices):
        OPEN = "open", _("Answering open")
        CLOSED = "closed", _("Answering closed")
        RUNNING = "running", _("Running the lab")
        REVEALED = "revealed", _("Revealed")
    class Variant(models.TextChoices):
        CLASS = "class", _("The class's default variant (one run for the room)")
        OWN = "own", _("Each student's own variant (one run per student)")
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="live_sessions")
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="live_sessions")
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                  related_name="+")
    code = models.CharField(max_length=8, unique=True, help_text="the join code shown to the room")
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    variant = models.CharField(max_length=5, choices=Variant.choices, default=Variant.CLASS)
    show_distribution = models.BooleanField(default=True)
    lab_run = models.ForeignKey(LabRun, on_delete=models.PROTECT, null=True, blank=True,
                                related_name="+", help_text="the class's run (class variant)")
    measured = models.TextField(blank=True, help_text="what the lab measured, as shown")
    version = models.PositiveIntegerField(default=0, help_text="bumped on every change (clients)")
    distribution_before = models.JSONField(null=True, blank=True,
                                           help_text="the room's distribution when Run was pressed")
    distribution_after = models.JSONField(null=True, blank=True,
                                          help_text="answers by verdict after the reveal")
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    run_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        indexes = [models.Index(fields=["course", "state"])]

    def __str__(self) -> str:
        return f"live {self.code} ({self.part_id}, {self.state})"

    @property
    def accepting(self) -> bool:
        return self.state == self.State.OPEN

    @property
    def finished(self) -> bool:
        return self.state == self.State.REVEALED


class LiveAnswer(models.Model):
    """A student's answer in a live session: the ordinary submission, plus what the
    projector counts (its bucket), so the distribution is read from this table alone."""

    session = models.ForeignKey(LiveSession, on_delete=models.PROTECT, related_name="answers")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="live_answers")
    submission = models.OneToOneField(Submission, on_delete=models.PROTECT, related_name="live")
    valid = models.BooleanField(default=True, help_text="False: unreadable, the student may answer again")
    bucket = models.CharField(max_length=300, blank=True,
                              help_text="chosen keys, or the canonical form")
    number = models.FloatField(null=True, blank=True, help_text="the value of a numeric answer")
    misconception = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["session", "student"],
                                               condition=models.Q(valid=True),
                                               name="one_live_answer_per_student")]
        indexes = [models.Index(fields=["session", "valid", "bucket"])]

    def __str__(self) -> str:
        return f"{self.student_id} in {self.session_id}: {self.bucket!r}"


class LiveSettings(models.Model):
    """How a course counts live answers in the gradebook."""

    class Scoring(models.TextChoices):
        GRADED = "graded", _("Graded like any answer")
        PARTICIPATION = "participation", _("Participation only (full credit for answering)")
    course = models.OneToOneField(Course, on_delete=models.PROTECT, related_name="live_settings")
    scoring = models.CharField(max_length=14, choices=Scoring.choices, default=Scoring.GRADED)

    def __str__(self) -> str:
        return f"{self.course_id}: {self.scoring}"
