"""Django admin for API keys (issued here, token shown once) and idempotency records."""

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from api.keys import api_key_create, api_key_revoke
from api.models import ApiKey, IdempotencyRecord
from core.admin import NoAddAdmin


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


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(NoAddAdmin):
    list_display = ("principal", "key", "status_code", "created_at", "completed_at")
    search_fields = ("principal", "key")
    readonly_fields = ("principal", "key", "fingerprint", "status_code", "response", "location",
                       "resource", "created_at", "completed_at")
