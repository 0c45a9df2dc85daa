from __future__ import annotations

from django.urls import path

from dashboard.views import conversations as views
from dashboard.views import health, muting, people, redaction

app_name = "memory"

urlpatterns = [
    path("conversations/", views.conversations, name="conversations"),
    path("conversations/<int:pk>/", views.conversation, name="conversation"),
    path("people/", people.people, name="people"),
    path("health/", health.health, name="health"),
    path("health/run/", health.health_run, name="health_run"),
    path("health/fix/", health.health_fix, name="health_fix"),
    path("people/<int:pk>/", people.person, name="person"),
    path("beliefs/<int:pk>/retire/", people.belief_retire_view, name="belief_retire"),
    path("beliefs/<int:pk>/correct/", people.belief_correct_view, name="belief_correct"),
    path("beliefs/<int:pk>/mute/", people.belief_mute_view, name="belief_mute"),
    path("beliefs/<int:pk>/redact/", redaction.belief_redact_view, name="belief_redact"),
    path("messages/<int:pk>/redact/", redaction.message_redact_view, name="message_redact"),
    path(
        "owner-entries/<int:pk>/redact/",
        redaction.owner_entry_redact_view,
        name="owner_entry_redact",
    ),
    path("people/<int:pk>/muting/", muting.person_muting, name="person_muting"),
    path("people/<int:pk>/mute/", muting.person_mute, name="person_mute"),
    path("mutes/<int:pk>/unmute/", muting.mute_undo_view, name="mute_undo"),
    path("intentions/<int:pk>/state/", people.intention_state_view, name="intention_state"),
]
