from __future__ import annotations

from django.contrib import admin

from memory.models import (
    Conversation,
    ConversationSummary,
    EntityFact,
    Message,
    Principal,
    TextEmbedding,
)


@admin.register(Principal)
class PrincipalAdmin(admin.ModelAdmin):
    list_display = ["external_id", "display_name", "tenant", "created_at"]
    list_filter = ["tenant"]
    search_fields = ["external_id", "display_name"]


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
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
class MessageAdmin(admin.ModelAdmin):
    list_display = ["conversation", "seq", "role", "created_at"]
    list_filter = ["role"]
    raw_id_fields = ["conversation", "embedding"]
    readonly_fields = ["dedupe_key", "text_sha256", "embedding"]
    list_select_related = ["conversation"]
    show_full_result_count = False


@admin.register(ConversationSummary)
class ConversationSummaryAdmin(admin.ModelAdmin):
    list_display = ["conversation", "upto_seq", "created_at"]
    raw_id_fields = ["conversation"]


@admin.register(EntityFact)
class EntityFactAdmin(admin.ModelAdmin):
    list_display = ["entity", "kind", "tenant", "principal", "created_at"]
    list_filter = ["kind", "tenant"]
    search_fields = ["entity", "fact"]
    raw_id_fields = ["principal", "source_message"]


@admin.register(TextEmbedding)
class TextEmbeddingAdmin(admin.ModelAdmin):
    list_display = ["sha256", "model_name", "dim", "created_at"]
    readonly_fields = ["sha256", "model_name", "dim", "vector", "created_at"]
    show_full_result_count = False

    def has_add_permission(self, request) -> bool:  # computed by the embedding task only
        return False
