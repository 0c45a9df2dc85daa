from __future__ import annotations

from django.urls import path

from memory import views

app_name = "memory"

urlpatterns = [
    path("conversations/", views.conversations, name="conversations"),
    path("conversations/<int:pk>/", views.conversation, name="conversation"),
]
