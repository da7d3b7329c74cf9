"""What the REST API keeps: course-scoped API keys and the responses of idempotent POSTs."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from courses.models import Course


class ApiKey(models.Model):
    """A course-scoped credential for an LMS or a script; only the sha256 of the token is kept."""

    class Role(models.TextChoices):
        LMS = "lms", _("LMS (read and write)")
        READ_ONLY = "read_only", _("Read only")
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.READ_ONLY)
    prefix = models.CharField(max_length=16, help_text="first characters of the token, to recognise it")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_keys_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.course.slug})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def can_write(self) -> bool:
        return self.role == self.Role.LMS


class IdempotencyRecord(models.Model):
    """The first response to a POST carrying an Idempotency-Key, replayed for its retries."""

    principal = models.CharField(max_length=40, help_text="'user:<id>' or 'key:<id>'")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body")
    status_code = models.PositiveIntegerField(null=True, blank=True, help_text="empty while running")
    response = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=500, blank=True)
    resource = models.CharField(
        max_length=80, blank=True,
        help_text="what the first request created ('submission:12'), stored with it, so a "
                  "retry after a crash can answer from it",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["principal", "key"], name="idempotency_key_per_principal")
        ]
        indexes = [models.Index(fields=["created_at"], name="courses_ide_created_af7464_idx")]

    def __str__(self) -> str:
        return f"{self.principal} {self.key} ({self.status_code or 'running'})"
