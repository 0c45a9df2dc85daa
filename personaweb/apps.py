from __future__ import annotations

from django.apps import AppConfig


class PersonawebConfig(AppConfig):
    name = "personaweb"
    verbose_name = "personaweb"
