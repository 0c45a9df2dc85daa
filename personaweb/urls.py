from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from personaweb import views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("memory/", include("memory.urls")),
    path("persona/", include("persona.urls")),
    path("learning/", include("learning.urls")),
    path("tokens/", include("api.page_urls")),
]

# The host API (and its schema and docs) exists only when switched on; off, /v1/ is a 404.
if settings.PERSONAWEB_API_ENABLED:
    urlpatterns.append(path("v1/", include("api.urls")))
