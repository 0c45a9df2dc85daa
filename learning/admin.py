from __future__ import annotations

from django.contrib import admin

from learning.models import LearningSettings, Proposal, Rejection, Review
from persona.admin import ReadOnlyAdmin


@admin.register(LearningSettings)
class LearningSettingsAdmin(admin.ModelAdmin):
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
    readonly_fields = ["turns_since_review", "last_review_at", "last_seen_message_id", "due_at"]
    list_select_related = ["agent"]


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
