from __future__ import annotations

from django.contrib import admin

from persona.models import AgentPersonaVersion, ContextPlan, PlanRotation


class ReadOnlyAdmin(admin.ModelAdmin):
    """History is immutable: shown, never added, changed or deleted here."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AgentPersonaVersion)
class AgentPersonaVersionAdmin(ReadOnlyAdmin):
    list_display = ["agent", "version", "source_type", "approved_by", "reason", "created_at"]
    list_filter = ["source_type"]
    search_fields = ["agent__name", "reason"]
    list_select_related = ["agent"]


@admin.register(ContextPlan)
class ContextPlanAdmin(ReadOnlyAdmin):
    list_display = [
        "agent",
        "principal",
        "session_key",
        "epoch",
        "persona_version",
        "prefix_sha256",
        "updated_at",
    ]
    list_select_related = ["agent", "principal"]


@admin.register(PlanRotation)
class PlanRotationAdmin(ReadOnlyAdmin):
    list_display = ["plan", "from_epoch", "to_epoch", "reason", "created_at"]
