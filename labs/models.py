"""Lab runs: one requested execution of a lab's simulation, its seed, status and result."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from courses.models import Course, Lab


class LabRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Succeeded")
        FAILED = "failed", _("Failed")
    uuid = models.UUIDField(unique=True, default=uuid.uuid4, editable=False)
    lab = models.ForeignKey(Lab, on_delete=models.PROTECT, related_name="runs")
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="lab_runs")
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="lab_runs"
    )
    submission = models.ForeignKey(
        "grading.Submission", on_delete=models.PROTECT, null=True, blank=True,
        related_name="lab_runs",
    )
    params = models.JSONField(default=dict)
    params_key = models.CharField(max_length=64, help_text="sha256 of the canonical params")
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="times a worker claimed it")
    reused_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="reused_by"
    )
    # A default, not auto_now_add: a run that reuses a finished result is stored queued,
    # started and finished at one instant, in one INSERT (labs.services.lab_run_request).
    queued_at = models.DateTimeField(default=timezone.now, editable=False)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    compute_ms = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at", "-id"]
        indexes = [
            models.Index(fields=["lab", "params_key", "seed", "status"]),
            models.Index(fields=["status", "heartbeat_at"]),
            models.Index(fields=["requester", "lab", "queued_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.lab.slug} run {self.uuid} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.SUCCEEDED, self.Status.FAILED)
