"""Django admin for submissions (read-mostly: grades change through services, not here)."""

from typing import Any

from django.contrib import admin

from grading.models import (
    Deadline,
    DeadlineExtension,
    DefaultVariant,
    GradeOverride,
    Review,
    Submission,
)


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("student", "part", "raw_answer", "outcome", "score", "misconception",
                    "created_at")
    list_filter = ("outcome", "misconception", "course", "part__exercise")
    search_fields = ("student__username", "raw_answer", "part__key", "part__exercise__slug")
    list_select_related = ("student", "part__exercise")
    readonly_fields = [f.name for f in Submission._meta.fields]


class AuditTrailAdmin(admin.ModelAdmin):
    """Reviews and overrides are an audit trail: readable here, written through the dashboard."""

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Review)
class ReviewAdmin(AuditTrailAdmin):
    list_display = ("submission", "reviewer", "score", "created_at")
    list_filter = ("submission__course",)
    search_fields = ("submission__student__username", "reviewer__username", "comment")
    list_select_related = ("submission__student", "submission__part__exercise", "reviewer")


@admin.register(GradeOverride)
class GradeOverrideAdmin(AuditTrailAdmin):
    list_display = ("student", "part", "score", "reason", "created_by", "created_at")
    list_filter = ("course",)
    search_fields = ("student__username", "reason", "created_by__username")
    list_select_related = ("student", "part__exercise", "created_by")


@admin.register(Deadline)
class DeadlineAdmin(admin.ModelAdmin):
    list_display = ("course", "exercise", "due_at", "updated_by", "updated_at")
    list_filter = ("course",)
    search_fields = ("exercise__slug", "course__slug")
    list_select_related = ("course", "exercise", "updated_by")


@admin.register(DeadlineExtension)
class DeadlineExtensionAdmin(admin.ModelAdmin):
    list_display = ("student", "course", "exercise", "due_at", "granted_by", "updated_at")
    list_filter = ("course",)
    search_fields = ("student__username", "exercise__slug", "reason")
    list_select_related = ("student", "course", "exercise", "granted_by")


@admin.register(DefaultVariant)
class DefaultVariantAdmin(admin.ModelAdmin):
    """Students who see the module's own numbers (the default variant) in a course."""

    list_display = ("student", "course", "created_at")
    list_filter = ("course",)
    search_fields = ("student__username",)
    list_select_related = ("student", "course")
    autocomplete_fields = ("student",)
