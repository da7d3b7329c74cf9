"""Submissions: every answer a student typed, stored before it is graded, and its verdict."""

from django.conf import settings
from django.db import models

from courses.models import Course, Part


class Submission(models.Model):
    class Outcome(models.TextChoices):
        PENDING = "pending", "Awaiting grading"
        CORRECT = "correct", "Correct"
        PARTIAL = "partial", "Partly correct"
        INCORRECT = "incorrect", "Incorrect"
        INVALID = "invalid", "Not understood (no attempt used)"
        REVIEW = "review", "Awaiting review"
        ERROR = "error", "Grader error (answer kept)"

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="submissions"
    )
    course = models.ForeignKey(Course, on_delete=models.PROTECT, related_name="submissions")
    part = models.ForeignKey(Part, on_delete=models.PROTECT, related_name="submissions")
    variant_seed = models.BigIntegerField(null=True, blank=True)
    raw_answer = models.TextField(help_text="exactly as typed")
    canonical = models.TextField(blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    score = models.FloatField(null=True, blank=True)
    feedback = models.TextField(blank=True)
    misconception = models.CharField(max_length=60, blank=True)
    grader_version = models.CharField(max_length=40, blank=True)
    counts_as_attempt = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    graded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["course", "part", "student"]),
            models.Index(fields=["student", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.student} {self.part}: {self.raw_answer[:30]!r} ({self.outcome})"
