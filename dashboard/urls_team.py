from __future__ import annotations

from django.urls import path

from dashboard.views import team as views

app_name = "team"

urlpatterns = [
    path("", views.team, name="team"),
]
