"""Admin of the LTI additions: which Course an LMS context is, what links open, where a
platform frames the tool. Registrations and deployments are django-lti's own admin."""

from django.contrib import admin
from lti_tool.admin import LtiRegistrationAdmin
from lti_tool.models import LtiRegistration

from lti.models import CourseLink, PlatformFraming, ResourceTarget


@admin.register(CourseLink)
class CourseLinkAdmin(admin.ModelAdmin):
    list_display = ("context", "course", "created_at")
    raw_id_fields = ("context",)


@admin.register(ResourceTarget)
class ResourceTargetAdmin(admin.ModelAdmin):
    list_display = ("resource_link", "kind", "content_uuid")
    raw_id_fields = ("resource_link",)


@admin.register(PlatformFraming)
class PlatformFramingAdmin(admin.ModelAdmin):
    list_display = ("registration", "frame_ancestors")


class PlatformFramingInline(admin.StackedInline):
    model = PlatformFraming
    can_delete = False
    verbose_name_plural = "Where the platform frames the tool"


admin.site.unregister(LtiRegistration)


@admin.register(LtiRegistration)
class RegistrationAdmin(LtiRegistrationAdmin):
    """django-lti's registration admin (issuer, client id, auth/token/keyset URLs,
    deployments) with the framing origins beside it."""

    inlines = [*LtiRegistrationAdmin.inlines, PlatformFramingInline]
