from __future__ import annotations

from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "learning"
    verbose_name = "Learning"

    def ready(self) -> None:
        from learning import audit, checks, receivers  # noqa: F401 (checks register themselves)

        receivers.connect()
        audit.register()
