from __future__ import annotations

from django.contrib import admin

from tenancy.models import Agent, Membership, Tenant


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "tenant", "multi_tenant", "persona_version", "created_at"]
    list_filter = ["tenant", "multi_tenant"]
    search_fields = ["name", "slug"]
    readonly_fields = ["persona_version"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "tenant", "created_at"]
    list_filter = ["tenant"]
