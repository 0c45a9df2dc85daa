from __future__ import annotations

from django.apps import AppConfig


class SafetyConfig(AppConfig):
    """The safety scans and the text encoder they need; no models, below every app that
    stores text (``docs/architecture.md``)."""

    name = "safety"
    verbose_name = "Safety"
