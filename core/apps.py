"""App configuration for core: connects the user cache's flush on save."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"

    def ready(self) -> None:
        from core.user_cache import user_cache_connect  # imports auth's models: only when ready

        user_cache_connect()
