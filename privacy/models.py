"""The audit log of erasures: who asked, when, and what was changed (never the person's data)."""

from django.conf import settings
from django.db import models


class ErasureRecord(models.Model):
    """One person's data erased: the account (now anonymous) and the pseudonym it carries,
    who erased it and why, and how many rows each source changed."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="+", help_text="the account, now anonymous")
    pseudonym = models.CharField(max_length=40, unique=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                     null=True, blank=True, related_name="+",
                                     help_text="empty when erased from the command line")
    reason = models.CharField(max_length=200, blank=True, help_text="e.g. the request's reference")
    changed = models.JSONField(default=dict, help_text="rows changed, by source")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("export_personal_data", "Can export a person's data"),
            ("erase_personal_data", "Can erase a person's data"),
        ]

    def __str__(self) -> str:
        return f"{self.pseudonym} erased {self.created_at:%Y-%m-%d %H:%M}"
