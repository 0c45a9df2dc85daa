from __future__ import annotations

from django.apps import AppConfig


class PersonaConfig(AppConfig):
    name = "persona"
    verbose_name = "Persona"
