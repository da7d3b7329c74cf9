"""Admin: the erasure audit log, and "export" / "erase" actions on users for staff with the
permissions privacy.export_personal_data / privacy.erase_personal_data."""

import json
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from privacy.erasure import ErasureRefused, personal_data_erase
from privacy.export import personal_data_export
from privacy.models import ErasureRecord


@admin.register(ErasureRecord)
class ErasureRecordAdmin(admin.ModelAdmin):
    """Read only: erasures are made by the action on users or by `manage.py student_erase`."""

    list_display = ("pseudonym", "user", "requested_by", "reason", "created_at")
    readonly_fields = ("user", "pseudonym", "requested_by", "reason", "changed", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PrivacyUserAdmin(UserAdmin):
    """Django's user admin with the two data-protection actions."""

    actions = ["export_personal_data", "erase_personal_data"]
    #: Set by the sign-in, not by hand (and a split date-time widget has no label per box).
    readonly_fields = ("last_login", "date_joined")

    @admin.action(description="Export personal data (JSON)")
    def export_personal_data(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        if not request.user.has_perm("privacy.export_personal_data"):
            raise PermissionDenied("You may not export personal data.")
        if queryset.count() != 1:
            self.message_user(request, "Export one person at a time.", messages.WARNING)
            return None
        person = queryset.get()
        body = json.dumps(personal_data_export(user=person), indent=2, ensure_ascii=False)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="user-{person.pk}.json"'
        return response

    @admin.action(description="Erase personal data (cannot be undone)")
    def erase_personal_data(self, request: HttpRequest, queryset: QuerySet[User]) -> HttpResponse | None:
        if not request.user.has_perm("privacy.erase_personal_data"):
            raise PermissionDenied("You may not erase personal data.")
        if request.POST.get("confirm") != "yes":
            return TemplateResponse(request, "privacy/confirm_erase.html", {
                **self.admin_site.each_context(request), "people": list(queryset),
                "action": "erase_personal_data", "title": "Erase personal data?",
                "selected": request.POST.getlist(ACTION_CHECKBOX_NAME)})
        erased = 0
        for person in queryset:
            try:
                personal_data_erase(user=person, requested_by=request.user,  # type: ignore[arg-type]
                                    reason=request.POST.get("reason", "")[:200])
                erased += 1
            except ErasureRefused as exc:
                self.message_user(request, str(exc), messages.ERROR)
        self.message_user(request, f"Erased the personal data of {erased} account(s).")
        return None


admin.site.unregister(User)
admin.site.register(User, PrivacyUserAdmin)
