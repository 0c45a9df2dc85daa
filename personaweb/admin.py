from __future__ import annotations

from django.contrib import admin

from personaweb.models import Heartbeat, Membership


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "tenant", "created_at"]
    list_filter = ["tenant"]


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ["name", "runs", "last_run_at", "hostname"]
    readonly_fields = ["name", "runs", "last_run_at", "hostname"]
