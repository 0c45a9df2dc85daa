from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from memory.models import (
    Belief,
    Conversation,
    ConversationSummary,
    EntityFact,
    Intention,
    Message,
    Principal,
    Redaction,
    Routine,
    TextEmbedding,
)
from memory.sealing import conversation_seal
from memory.services import entity_fact_check
from personaweb.errors import Refusal
from tenancy.admin_base import ReadOnlyScopedAdmin, SuperuserOnlyAdmin, TenantScopedAdmin


@admin.register(Principal)
class PrincipalAdmin(TenantScopedAdmin):
    list_display = ["external_id", "display_name", "tenant", "created_at"]
    list_filter = ["tenant"]
    search_fields = ["external_id", "display_name"]


@admin.register(Conversation)
class ConversationAdmin(TenantScopedAdmin):
    """View-only for operators: sealing is one-way (the dashboard's seal action) and a
    conversation is forgotten through its service, never by an admin checkbox."""

    tenant_path = "agent__tenant_id"
    view_only = True
    actions = ["seal"]

    @admin.action(description="Seal the selected conversations (one-way)")
    def seal(self, request: HttpRequest, queryset: Any) -> None:
        ended = withdrawn = 0
        for conversation in queryset:
            result = conversation_seal(conversation=conversation, by=request.user.get_username())
            ended += result.beliefs_ended
            withdrawn += result.evidence_withdrawn
        self.message_user(
            request,
            f"Sealed {len(queryset)} conversation(s): {ended} belief(s) formed from them ended, "
            f"{withdrawn} kept only their other evidence; waiting proposals and open "
            "nominations quoting them were withdrawn.",
        )

    list_display = [
        "external_id",
        "agent",
        "principal",
        "sealed",
        "message_count",
        "last_message_at",
    ]
    list_filter = ["sealed", "agent"]
    search_fields = ["external_id"]
    raw_id_fields = ["agent", "principal"]
    list_select_related = ["agent", "principal"]


@admin.register(Message)
class MessageAdmin(TenantScopedAdmin):
    tenant_path = "conversation__agent__tenant_id"
    view_only = True

    list_display = ["conversation", "seq", "role", "created_at"]
    list_filter = ["role"]
    raw_id_fields = ["conversation", "embedding"]
    readonly_fields = ["shown_text", "dedupe_key", "text_sha256", "embedding"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [
            str(f) for f in super().get_fields(request, obj) if f not in ("text", "shown_text")
        ]
        if (
            getattr(request.user, "is_superuser", False)
            and obj is not None
            and not obj.conversation.sealed
        ):
            return ["text", *fields]
        return ["shown_text", *fields]

    @admin.display(description="text")
    def shown_text(self, obj: Message) -> str:
        """Sealed text is never shown here (superusers read it in the database if they must)."""
        if obj.conversation.sealed:
            return "(from a sealed conversation: text not shown)"
        return obj.text

    list_select_related = ["conversation"]
    show_full_result_count = False


@admin.register(ConversationSummary)
class ConversationSummaryAdmin(TenantScopedAdmin):
    tenant_path = "conversation__agent__tenant_id"
    view_only = True
    exclude = ["text"]
    readonly_fields = ["shown_text"]

    @admin.display(description="text")
    def shown_text(self, obj: ConversationSummary) -> str:
        if obj.conversation.sealed:
            return "(from a sealed conversation: text not shown)"
        return obj.text

    list_display = ["conversation", "upto_seq", "created_at"]
    raw_id_fields = ["conversation"]


class EntityFactForm(forms.ModelForm):
    """Validated by ``memory.services.entity_fact_check``, as every other writer of a
    fact: the words (secrets, the injection scan) and the person and source message in
    the fact's tenant."""

    class Meta:
        model = EntityFact
        fields = ["tenant", "principal", "entity", "kind", "fact", "source_message"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        tenant = data.get("tenant")
        if tenant is None or self.errors:
            return data
        try:
            data["entity"], data["fact"] = entity_fact_check(
                tenant_id=tenant.pk,
                entity=data.get("entity"),
                fact=data.get("fact"),
                principal=data.get("principal"),
                source_message=data.get("source_message"),
            )
        except Refusal as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


@admin.register(EntityFact)
class EntityFactAdmin(TenantScopedAdmin):
    form = EntityFactForm
    list_display = ["entity", "kind", "tenant", "principal", "created_at"]
    list_filter = ["kind", "tenant"]
    search_fields = ["entity", "fact"]
    raw_id_fields = ["principal", "source_message"]


@admin.register(TextEmbedding)
class TextEmbeddingAdmin(SuperuserOnlyAdmin):
    list_display = ["sha256", "model_name", "dim", "created_at"]
    readonly_fields = ["sha256", "model_name", "dim", "vector", "created_at"]
    show_full_result_count = False

    def has_add_permission(self, request) -> bool:  # computed by the embedding task only
        return False


class MemoryKernelAdmin(TenantScopedAdmin):
    """Beliefs, intentions and routines are written through their services (dedup,
    secret and injection scans); the admin shows them, within the user's tenants."""

    view_only = True
    list_select_related = ["principal", "agent"]


@admin.register(Belief)
class BeliefAdmin(MemoryKernelAdmin):
    list_display = [
        "statement",
        "category",
        "principal",
        "status",
        "confidence",
        "corroboration_count",
    ]
    list_filter = ["status", "category"]
    search_fields = ["statement"]


@admin.register(Intention)
class IntentionAdmin(MemoryKernelAdmin):
    list_display = ["action", "principal", "state", "due_at"]
    list_filter = ["state"]


@admin.register(Routine)
class RoutineAdmin(MemoryKernelAdmin):
    list_display = ["__str__", "principal", "status"]
    list_filter = ["status"]


@admin.register(Redaction)
class RedactionAdmin(ReadOnlyScopedAdmin):
    """Who redacted what, when and why (``memory.redaction``): history, never edited."""

    tenant_path = "tenant_id"
    list_display = ["kind", "object_id", "redacted_by", "redacted_at", "reason"]
    list_filter = ["kind"]
