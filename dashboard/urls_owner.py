from __future__ import annotations

from django.urls import path

from dashboard.views import muting
from dashboard.views import owner as views

app_name = "owner"

# No URL names a person: every view works on the logged-in user's own document.
urlpatterns = [
    path("", views.my_persona, name="persona"),
    path("save/", views.save, name="save"),
    path("reinforce/", views.reinforce, name="reinforce"),
    path("demote/", views.demote, name="demote"),
    path("remove/", views.remove, name="remove"),
    path("preview/", views.preview, name="preview"),
    path("mute/", muting.owner_mute, name="mute"),
    path("unmute/", muting.owner_unmute, name="unmute"),
    path("beliefs/mute/", muting.owner_belief_mute, name="belief_mute"),
    path("nominations/<int:pk>/affirm/", views.affirm, name="affirm"),
    path("nominations/<int:pk>/decline/", views.decline, name="decline"),
]
