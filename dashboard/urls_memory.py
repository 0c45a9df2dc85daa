from __future__ import annotations

from django.urls import path

from dashboard.views import conversations as views

app_name = "memory"

urlpatterns = [
    path("conversations/", views.conversations, name="conversations"),
    path("conversations/<int:pk>/", views.conversation, name="conversation"),
]
