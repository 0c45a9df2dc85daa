from __future__ import annotations

from django.urls import path

from dashboard.views import evolution as evolution_views
from dashboard.views import persona as views

app_name = "persona"

urlpatterns = [
    path("", evolution_views.evolution, name="evolution"),
    path("<slug:slug>/", views.agent_detail, name="agent"),
    path("<slug:slug>/guardrails/", views.guardrails, name="guardrails"),
    path("<slug:slug>/rules/", views.rules, name="rules"),
    path("<slug:slug>/undo/", views.undo, name="undo"),
]
