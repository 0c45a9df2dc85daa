from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from personaweb.errors import Refusal
from tenancy.admin_base import SuperuserOnlyAdmin, TenantScopedAdmin
from tenancy.models import Agent, Membership, Tenant
from tenancy.services import agent_create


@admin.register(Tenant)
class TenantAdmin(SuperuserOnlyAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]


@admin.register(Agent)
class AgentAdmin(TenantScopedAdmin):
    """Agents are created through the same service as every other path (version 1 and
    learning settings come with them); the persona itself is edited in the dashboard,
    where every change is a version."""

    list_display = ["name", "slug", "tenant", "multi_tenant", "persona_version", "created_at"]
    list_filter = ["tenant", "multi_tenant"]
    search_fields = ["name", "slug"]
    fields = ["tenant", "name", "slug", "multi_tenant", "persona_version"]

    def get_readonly_fields(self, request: HttpRequest, obj: Agent | None = None) -> list[str]:
        if obj is None:
            return ["persona_version"]
        return ["tenant", "name", "slug", "persona_version"]

    def save_model(self, request: HttpRequest, obj: Agent, form: Any, change: bool) -> None:
        if change:
            Agent.objects.filter(pk=obj.pk).update(multi_tenant=obj.multi_tenant)
            return
        try:
            created = agent_create(
                tenant=obj.tenant,
                name=obj.name,
                slug=obj.slug,
                multi_tenant=obj.multi_tenant,
                created_by=request.user.get_username(),
                source_type="manual",
            )
        except Refusal as exc:
            raise ValidationError(str(exc)) from exc
        obj.pk = created.pk
        obj.persona_version = created.persona_version
        obj._state.adding = False


@admin.register(Membership)
class MembershipAdmin(SuperuserOnlyAdmin):
    list_display = ["user", "tenant", "created_at"]
    list_filter = ["tenant"]
