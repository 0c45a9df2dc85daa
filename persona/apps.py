from __future__ import annotations

from django.apps import AppConfig


class PersonaConfig(AppConfig):
    name = "persona"
    verbose_name = "Persona"

    def ready(self) -> None:
        from persona import audit, receivers

        receivers.connect()
        audit.register()
