"""Admin classes that know tenants. Every ModelAdmin of the project derives from one
of these, so an operator of one tenant never reaches another tenant's rows in the admin
(their URLs answer 404, like the dashboard), and history stays read-only.

Superusers see and may do everything the class allows anyone.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from tenancy.access import scope_to_user, visible_tenant_ids


def _superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


class TenantScopedAdmin(admin.ModelAdmin):
    """Rows limited to the user's tenants (``tenant_path`` leads from the model to the
    tenant id); foreign keys offered only within those tenants."""

    tenant_path = "tenant_id"
    #: Operators may look, never change or delete (history, conversations, messages).
    view_only = False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return scope_to_user(
            super().get_queryset(request), user=request.user, path=self.tenant_path
        )

    def _in_scope(self, request: HttpRequest, object_id: str | None) -> None:
        if object_id is None or _superuser(request):
            return
        try:
            found = self.get_queryset(request).filter(pk=object_id).exists()
        except (ValueError, TypeError):
            found = False
        if not found:
            raise Http404("No such row here.")

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        self._in_scope(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        self._in_scope(request, object_id)
        return super().delete_view(request, object_id, extra_context)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: Any = None
    ) -> HttpResponse:
        self._in_scope(request, object_id)
        return super().history_view(request, object_id, extra_context)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        if self.view_only and not _superuser(request):
            return False
        return super().has_add_permission(request, *args)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if self.view_only and not _superuser(request):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if self.view_only and not _superuser(request):
            return False
        return super().has_delete_permission(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        tids = visible_tenant_ids(request.user)
        related = db_field.related_model
        if tids is not None:
            from tenancy.models import Agent, Tenant

            if related is Tenant:
                kwargs["queryset"] = Tenant.objects.filter(pk__in=tids)
            elif related is Agent:
                kwargs["queryset"] = Agent.objects.filter(tenant_id__in=tids)
            elif hasattr(related, "tenant_id"):
                kwargs["queryset"] = related._default_manager.filter(tenant_id__in=tids)
            elif isinstance(scoped := self.admin_site._registry.get(related), TenantScopedAdmin):
                # a row that reaches its tenant through others (a message: conversation,
                # agent, tenant): offered, and accepted by a raw id, only within the
                # user's tenants, along the path its own admin declares
                kwargs["queryset"] = related._default_manager.filter(
                    **{f"{scoped.tenant_path}__in": tids}
                )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadOnlyScopedAdmin(TenantScopedAdmin):
    """History is immutable: shown (within the user's tenants), never added, changed or
    deleted here, not even by a superuser."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SuperuserOnlyAdmin(admin.ModelAdmin):
    """Rows that cross tenants (tenants, memberships, shared embeddings): superusers only."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _superuser(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _superuser(request)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return _superuser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _superuser(request)
