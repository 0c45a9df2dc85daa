from __future__ import annotations

from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "HTTP API and MCP"
    default_auto_field = "django.db.models.BigAutoField"
