"""Admin helpers shared by the apps."""

from django.contrib import admin
from django.http import HttpRequest


class NoAddAdmin(admin.ModelAdmin):
    """For rows only the service writes (through the API or as a side effect): no "Add"."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
