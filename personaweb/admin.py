from __future__ import annotations

from django.contrib import admin

from personaweb.models import Heartbeat


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ["name", "runs", "last_run_at", "hostname"]
    readonly_fields = ["name", "runs", "last_run_at", "hostname"]
