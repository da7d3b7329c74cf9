"""Django admin for content, course runs and enrolments (content is authored in files)."""

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from courses.api_keys import api_key_create, api_key_revoke
from courses.models import (
    ApiKey,
    Course,
    Enrollment,
    Exercise,
    Figure,
    IdempotencyRecord,
    Lab,
    Module,
    Part,
    Section,
    WebhookDelivery,
    WebhookSubscription,
)
from courses.webhooks import webhook_delivery_replay, webhook_unsubscribe


class ArchivedFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "archived"

    def lookups(self, request: Any, model_admin: Any) -> tuple[tuple[str, str], ...]:
        return (("no", "Active"), ("yes", "Archived"))

    def queryset(self, request: Any, queryset: Any) -> Any:
        if self.value() == "no":
            return queryset.filter(archived_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(archived_at__isnull=False)
        return queryset


CONTENT_READONLY = ("uuid", "source_path", "created_at", "updated_at")


@admin.register(Module)
class ModuleAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "slug", "archived_at")
    list_filter = (ArchivedFilter,)
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "module", "order", "archived_at")
    list_filter = (ArchivedFilter, "module")
    search_fields = ("number", "title", "slug", "body", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Figure)
class FigureAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "kind", "section", "archived_at")
    list_filter = (ArchivedFilter, "kind")
    search_fields = ("title", "slug", "in_words", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Lab)
class LabAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "simulation", "section", "archived_at")
    list_filter = (ArchivedFilter, "simulation", "module")
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


class PartInline(admin.TabularInline):
    model = Part
    extra = 0
    fields = ("key", "answer_type", "points", "order", "archived_at")
    readonly_fields = ("archived_at",)
    show_change_link = True


@admin.register(Exercise)
class ExerciseAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "kind", "section", "max_attempts", "archived_at")
    list_filter = (ArchivedFilter, "kind", "module")
    search_fields = ("title", "slug", "prompt", "uuid")
    readonly_fields = CONTENT_READONLY
    inlines = (PartInline,)


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = ("__str__", "answer_type", "points", "archived_at")
    list_filter = (ArchivedFilter, "answer_type", "exercise__kind")
    search_fields = ("key", "exercise__slug", "prompt")
    list_select_related = ("exercise",)


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "module", "created_at")
    list_filter = ("module",)
    search_fields = ("title", "slug")
    inlines = (EnrollmentInline,)


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    list_display = ("user", "course", "role", "group", "is_active")
    list_filter = ("role", "is_active", "course", "group")
    search_fields = ("user__username", "user__first_name", "user__last_name", "user__email",
                     "external_id")
    list_select_related = ("user", "course")
    autocomplete_fields = ("user",)


# --- API integration: keys, webhooks, idempotency records ---------------------------


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    """Keys are issued here or by the API; the token is shown once, in a message."""

    list_display = ("name", "course", "role", "prefix", "created_by", "created_at", "last_used_at",
                    "revoked_at")
    list_filter = ("role", "course", ("revoked_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "prefix", "course__slug")
    list_select_related = ("course", "created_by")
    actions = ("revoke",)

    def get_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> Any:
        if obj is None:
            return ["course", "name", "role"]
        return ["course", "name", "role", "prefix", "created_by", "created_at", "last_used_at",
                "revoked_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> Any:
        return [] if obj is None else self.get_fields(request, obj)

    def get_form(self, request: Any, obj: ApiKey | None = None, change: bool = False,
                 **kwargs: Any) -> Any:
        """On the add form the role is an explicit choice with its meaning spelled out (a
        preselected "read only" left LMS integrators with keys that could not write)."""
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None and "role" in form.base_fields:
            field = cast(forms.TypedChoiceField, form.base_fields["role"])
            field.choices = [("", "Choose what the key may do"), *ApiKey.Role.choices]
            field.initial = ""
            field.required = True
            field.help_text = ("LMS: read and write (submit answers for students, sync the "
                               "roster, request lab runs, manage webhooks). Read only: read the "
                               "gradebook, submissions and lab runs.")
        return form

    def save_model(self, request: Any, obj: ApiKey, form: Any, change: bool) -> None:
        if change:
            return
        issued = api_key_create(course=obj.course, name=obj.name, role=obj.role, created_by=request.user)
        obj.pk = issued.api_key.pk
        messages.warning(request, f"The token of this key is {issued.token} - copy it now: "
                                  "it is not stored and will not be shown again.")

    @admin.action(description="Revoke the selected keys")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        for api_key in queryset:
            api_key_revoke(api_key=api_key)
        messages.success(request, f"Revoked {queryset.count()} key(s).")


class NoAddAdmin(admin.ModelAdmin):
    """For rows only the service writes (through the API or as a side effect): no "Add"."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(NoAddAdmin):
    """Subscriptions are made through the API (which shows the secret once)."""

    list_display = ("url", "course", "events", "is_active", "created_at")
    list_filter = ("is_active", "course")
    readonly_fields = ("course", "url", "events", "is_active", "created_at")
    exclude = ("secret",)
    actions = ("unsubscribe",)

    @admin.action(description="Unsubscribe (pending deliveries give up)")
    def unsubscribe(self, request: HttpRequest, queryset: QuerySet[WebhookSubscription]) -> None:
        for subscription in queryset:
            webhook_unsubscribe(subscription=subscription)


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(NoAddAdmin):
    """The outbox: failed deliveries are listed here and can be replayed."""

    list_display = ("event", "event_id", "subscription", "status", "attempts", "last_status_code",
                    "last_error", "next_attempt_at", "created_at")
    list_filter = ("status", "event", "subscription__course")
    search_fields = ("event_id", "subscription__url")
    list_select_related = ("subscription",)
    readonly_fields = ("subscription", "event", "event_id", "payload", "status", "attempts",
                       "next_attempt_at", "last_attempt_at", "last_status_code", "last_error",
                       "delivered_at", "created_at")
    actions = ("replay",)

    @admin.action(description="Replay the selected deliveries")
    def replay(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        for delivery in queryset:
            webhook_delivery_replay(delivery=delivery)
        messages.success(request, f"Queued {queryset.count()} delivery(ies) again.")


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(NoAddAdmin):
    list_display = ("principal", "key", "status_code", "created_at", "completed_at")
    search_fields = ("principal", "key")
    readonly_fields = ("principal", "key", "fingerprint", "status_code", "response", "location",
                       "resource", "created_at", "completed_at")

