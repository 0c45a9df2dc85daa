from __future__ import annotations

from django.urls import path  # noqa: F401

app_name = "learning"

urlpatterns: list = []
