"""The live app: questions opened for the room, answered on phones, revealed together."""

from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live sessions"

    def ready(self) -> None:
        from live.hooks import install

        install()
