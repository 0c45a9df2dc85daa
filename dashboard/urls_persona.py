from __future__ import annotations

from django.urls import path

from dashboard.views import editors, redaction
from dashboard.views import evolution as evolution_views
from dashboard.views import persona as views

app_name = "persona"

urlpatterns = [
    path("", evolution_views.evolution, name="evolution"),
    path("<slug:slug>/", views.agent_detail, name="agent"),
    path("<slug:slug>/edit/", editors.edit_fields, name="edit"),
    path("<slug:slug>/guardrails/", editors.guardrails, name="guardrails"),
    path("<slug:slug>/rules/", editors.rules, name="rules"),
    path("<slug:slug>/versions/<int:version>/revert/", editors.revert, name="revert"),
    path("<slug:slug>/versions/<int:version>/undo/", editors.undo_edit, name="undo_edit"),
    path(
        "<slug:slug>/versions/<int:version>/redact/",
        redaction.version_redact,
        name="version_redact",
    ),
    path("<slug:slug>/undo/", views.undo, name="undo"),
]
