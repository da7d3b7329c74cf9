"""Django admin for submissions (read-mostly: grades change through services, not here)."""

from django.contrib import admin

from grading.models import Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("student", "part", "raw_answer", "outcome", "score", "misconception",
                    "created_at")
    list_filter = ("outcome", "misconception", "course", "part__exercise")
    search_fields = ("student__username", "raw_answer", "part__key", "part__exercise__slug")
    list_select_related = ("student", "part__exercise")
    readonly_fields = [f.name for f in Submission._meta.fields]
