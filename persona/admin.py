from __future__ import annotations

from django.contrib import admin

from persona.models import AgentPersonaVersion, ContextPlan, PlanRotation
from tenancy.admin_base import ReadOnlyScopedAdmin


class ReadOnlyAdmin(ReadOnlyScopedAdmin):
    """Persona history: read-only, within the user's tenants (through the agent)."""

    tenant_path = "agent__tenant_id"


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
    tenant_path = "plan__agent__tenant_id"
    list_display = ["plan", "from_epoch", "to_epoch", "reason", "created_at"]
