"""The score outbox of AGS grade passback, and the state of each context's roster sync.

One ScoreDelivery per (LMS context, exercise or assessment, student) — that is, per line
item and student — holds the latest score decided for the student and when it was decided; the sender
(lti/ags/deliveries.py) posts it to the platform and records the answer.
"""

from django.conf import settings
from django.db import models


class ScoreDelivery(models.Model):
    """The latest score of a student on an exercise for one LMS context, and its delivery."""

    class State(models.TextChoices):
        WAITING = "waiting", "Waiting to be sent"
        SENDING = "sending", "Being sent"
        RETRYING = "retrying", "Retrying"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"

    context = models.ForeignKey("lti_tool.LtiContext", on_delete=models.CASCADE,
                                related_name="score_deliveries")
    course = models.ForeignKey("courses.Course", on_delete=models.CASCADE, related_name="+")
    # What is scored: an exercise, or an assessment (a quiz or exam; its released score).
    exercise = models.ForeignKey("courses.Exercise", on_delete=models.CASCADE, related_name="+",
                                 null=True, blank=True)
    assessment = models.ForeignKey("exams.Assessment", on_delete=models.CASCADE,
                                   related_name="+", null=True, blank=True)
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="lti_score_deliveries")
    line_item = models.ForeignKey("lti_tool.LtiLineItem", on_delete=models.SET_NULL, null=True,
                                  blank=True, related_name="+")
    # The latest score decided, and when (the AGS timestamp: a newer one always wins).
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    activity_progress = models.CharField(max_length=20)
    grading_progress = models.CharField(max_length=20)
    decided_at = models.DateTimeField()
    version = models.PositiveIntegerField(default=1, help_text="bumped by every new score")
    # Its delivery.
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    attempts = models.PositiveIntegerField(default=0, help_text="failed tries since the last success")
    next_attempt_at = models.DateTimeField(help_text="not tried before (while sending: the lease)")
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # What the platform last accepted.
    sent_score_given = models.FloatField(null=True, blank=True)
    sent_decided_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["context", "exercise", "student"],
                                    name="one_score_delivery_per_line_item_student"),
            models.UniqueConstraint(fields=["context", "assessment", "student"],
                                    name="one_assessment_delivery_per_context_student"),
            models.CheckConstraint(condition=models.Q(exercise__isnull=True)
                                   ^ models.Q(assessment__isnull=True),
                                   name="score_delivery_of_an_exercise_or_an_assessment"),
        ]
        indexes = [models.Index(fields=["state", "next_attempt_at"]),
                   models.Index(fields=["course", "state"])]

    def __str__(self) -> str:
        return f"{self.student_id} {self.item_slug}: {self.score_given:g} ({self.state})"

    @property
    def item(self) -> models.Model:
        """The exercise or the assessment scored (each has a uuid, a slug and a title)."""
        return self.exercise if self.exercise_id is not None else self.assessment  # type: ignore[return-value]

    @property
    def item_slug(self) -> str:
        return str(getattr(self.item, "slug", ""))

    @property
    def item_title(self) -> str:
        return str(getattr(self.item, "title", ""))


class RosterSyncState(models.Model):
    """The last NRPS roster read of an LMS context: when, what it changed, what went wrong."""

    context = models.OneToOneField("lti_tool.LtiContext", on_delete=models.CASCADE,
                                   related_name="roster_sync")
    synced_at = models.DateTimeField(null=True, blank=True)
    summary = models.JSONField(default=dict)
    error = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"roster of {self.context_id} at {self.synced_at}"
