from __future__ import annotations

from django.contrib import admin

from api.models import ApiToken
from persona.admin import ReadOnlyAdmin


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    tenant_path = "tenant_id"
    """Read only: tokens are made (and shown once) and revoked on the API tokens page or
    with `manage.py api token`; the admin never sees a token, only its sha256."""

    list_display = [
        "name",
        "tenant",
        "agent",
        "user",
        "principal",
        "hint",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = ["tenant"]
    search_fields = ["name", "hint"]
    list_select_related = ["tenant", "agent", "user", "principal"]
    exclude = ["sha256"]
