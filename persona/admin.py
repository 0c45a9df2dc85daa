from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from persona.models import AgentPersonaVersion, ContextPlan, Mute, OwnerAccount, PlanRotation
from persona.owner_accounts import owner_account_check, owner_account_link, owner_account_unlink
from personaweb.errors import Refusal
from tenancy.access import visible_tenant_ids
from tenancy.admin_base import ReadOnlyScopedAdmin, TenantScopedAdmin


class ReadOnlyAdmin(ReadOnlyScopedAdmin):
    """Persona history: read-only, within the user's tenants (through the agent)."""

    tenant_path = "agent__tenant_id"


@admin.register(AgentPersonaVersion)
class AgentPersonaVersionAdmin(ReadOnlyAdmin):
    list_display = ["agent", "version", "source_type", "approved_by", "reason", "created_at"]
    list_filter = ["source_type"]
    search_fields = ["agent__name", "reason"]
    list_select_related = ["agent"]


@admin.register(Mute)
class MuteAdmin(ReadOnlyScopedAdmin):
    """Who muted what for whom, and the undo (``persona.mutes``; written by the pages)."""

    tenant_path = "tenant_id"
    list_display = ["principal", "kind", "agent", "section", "muted_by", "muted_at", "unmuted_at"]
    list_filter = ["kind"]
    list_select_related = ["principal", "agent"]


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


class OwnerAccountForm(forms.ModelForm):
    """Checks the link with the service's rules, so a refusal shows on the form."""

    class Meta:
        model = OwnerAccount
        fields = ["user", "principal"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        user, principal = cleaned.get("user"), cleaned.get("principal")
        if user is not None and principal is not None:
            try:
                owner_account_check(user=user, principal=principal)
            except Refusal as exc:
                raise forms.ValidationError(str(exc)) from exc
        return cleaned


@admin.register(OwnerAccount)
class OwnerAccountAdmin(TenantScopedAdmin):
    """A login linked to the person it is (their My persona page). Links are made and
    removed, never changed in place: unlink, then link again."""

    form = OwnerAccountForm
    tenant_path = "principal__tenant_id"
    list_display = ["user", "principal", "tenant_name", "created_at"]
    list_select_related = ["user", "principal__tenant"]
    search_fields = ["user__username", "principal__external_id", "principal__display_name"]

    @admin.display(description="tenant", ordering="principal__tenant__name")
    def tenant_name(self, obj: OwnerAccount) -> str:
        return obj.principal.tenant.name

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False if obj is not None else super().has_change_permission(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        tids = visible_tenant_ids(request.user)
        if db_field.name == "user" and tids is not None:
            from django.contrib.auth import get_user_model

            kwargs["queryset"] = (
                get_user_model().objects.filter(memberships__tenant_id__in=tids).distinct()
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: OwnerAccount, form: Any, change: bool) -> None:
        account, _ = owner_account_link(user=obj.user, principal=obj.principal)
        obj.pk = account.pk
        obj.created_at = account.created_at
        obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: OwnerAccount) -> None:
        owner_account_unlink(user=obj.user)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for account in queryset.select_related("user"):
            owner_account_unlink(user=account.user)
