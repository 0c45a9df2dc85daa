from __future__ import annotations

from django.apps import AppConfig


class TenancyConfig(AppConfig):
    name = "tenancy"
    verbose_name = "tenants and agents"
