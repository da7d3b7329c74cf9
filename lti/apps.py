"""App configuration for lti."""

from django.apps import AppConfig


class LtiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lti"
    verbose_name = "LTI 1.3"

    def ready(self) -> None:
        from lti_tool.models import LtiContext, LtiDeployment

        from core.content_cache import content_watch
        from lti import hooks_services  # imports models: only once the registry is ready
        from lti.models import CourseLink

        content_watch(CourseLink, LtiContext, LtiDeployment)

        hooks_services.install()
