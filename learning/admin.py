from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from learning.models import LearningSettings, Proposal, Rejection, Review
from learning.services.settings import SETTING_KEYS, learning_settings_update
from persona.admin import ReadOnlyAdmin
from tenancy.admin_base import TenantScopedAdmin


@admin.register(LearningSettings)
class LearningSettingsAdmin(TenantScopedAdmin):
    tenant_path = "agent__tenant_id"

    list_display = [
        "agent",
        "mode",
        "proposer",
        "every_n_turns",
        "every_hours",
        "across_users",
        "standing_rules",
        "due_at",
    ]
    list_filter = ["mode", "across_users", "standing_rules"]
    readonly_fields = [
        "agent",
        "turns_since_review",
        "last_review_at",
        "last_seen_message_id",
        "due_at",
    ]
    list_select_related = ["agent"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # every agent gets its settings when it is created

    def save_model(
        self, request: HttpRequest, obj: LearningSettings, form: Any, change: bool
    ) -> None:
        """Through the settings service, like the form and the CLI (the model validators
        already refused out-of-range values with the same words)."""
        values = {k: form.cleaned_data[k] for k in form.changed_data if k in SETTING_KEYS}
        if values:
            learning_settings_update(agent=obj.agent, values=values, by=request.user.get_username())


@admin.register(Review)
class ReviewAdmin(ReadOnlyAdmin):
    list_display = [
        "agent",
        "trigger",
        "status",
        "outcome",
        "model_calls",
        "queued_at",
        "finished_at",
    ]
    list_filter = ["outcome", "trigger", "status"]
    list_select_related = ["agent"]


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin):
    list_display = ["agent", "kind", "field", "status", "created_at", "decided_by"]
    list_filter = ["status", "kind"]
    list_select_related = ["agent"]


@admin.register(Rejection)
class RejectionAdmin(ReadOnlyAdmin):
    list_display = ["agent", "reason", "text", "by", "created_at"]
