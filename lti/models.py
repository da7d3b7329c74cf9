"""What the service adds to django-lti's records (`lti_tool`): which Course an LMS context is,
and what a resource link opens.

django-lti keeps the platform side: registrations, deployments, keys, users (issuer + sub ->
auth user), contexts (with AGS and NRPS endpoints), resource links and line items.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.content_cache import VersionedQuerySet


class CourseLink(models.Model):
    """An LMS context (a course on the platform) taught as one of our Courses."""

    context = models.OneToOneField(
        "lti_tool.LtiContext", on_delete=models.CASCADE, related_name="course_link")
    course = models.ForeignKey(
        "courses.Course", on_delete=models.PROTECT, related_name="lti_links")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.context} -> {self.course}"


class ResourceTarget(models.Model):
    """What an LMS resource link opens: the module, a section, an exercise, a lab or an
    assessment (a quiz or exam), by the content item's stable uuid."""

    class Kind(models.TextChoices):
        MODULE = "module", _("Module")
        SECTION = "section", _("Section")
        EXERCISE = "exercise", _("Exercise")
        LAB = "lab", _("Lab")
        ASSESSMENT = "assessment", _("Quiz or exam")
    resource_link = models.OneToOneField(
        "lti_tool.LtiResourceLink", on_delete=models.CASCADE, related_name="target")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    content_uuid = models.UUIDField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.resource_link} -> {self.kind} {self.content_uuid or ''}"


class PlatformFraming(models.Model):
    """Where a registered platform shows the tool in an iframe: the origins allowed in
    `Content-Security-Policy: frame-ancestors` besides the issuer's and the auth URL's own
    (Canvas, for one, frames from the institution's domain, not from its issuer)."""

    registration = models.OneToOneField(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="framing")
    frame_ancestors = models.TextField(
        blank=True, help_text="Extra origins, space separated, e.g. https://school.instructure.com")

    def __str__(self) -> str:
        return f"{self.registration}: {self.frame_ancestors or '(issuer and auth URL only)'}"


class UsedNonce(models.Model):
    """A launch's nonce, stored once it has been accepted, so a replayed id_token is refused."""

    issuer = models.CharField(max_length=255)
    nonce = models.CharField(max_length=255)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["issuer", "nonce"], name="lti_nonce_once")]

    def __str__(self) -> str:
        return f"{self.issuer} {self.nonce}"


from lti.scores_models import RosterSyncState, ScoreDelivery  # noqa: E402  (AGS/NRPS records)

__all__ = ["CourseLink", "PlatformFraming", "ResourceTarget", "RosterSyncState",
           "ScoreDelivery", "UsedNonce"]
