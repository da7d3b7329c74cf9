"""App configuration for lti."""

from django.apps import AppConfig


class LtiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lti"
    verbose_name = "LTI 1.3"

    def ready(self) -> None:
        from lti import hooks_services  # imports models: only once the registry is ready

        hooks_services.install()
