"""The root URLconf: the composition root that mounts every app's pages (it is the
one module of the floor allowed to import the top layer; see docs/architecture.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from dashboard.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("memory/", include("dashboard.urls_memory")),
    path("persona/", include("dashboard.urls_persona")),
    path("me/", include("dashboard.urls_owner")),
    path("learning/", include("learning.urls")),
    path("tokens/", include("api.page_urls")),
]

handler400 = "personaweb.errorpages.bad_request"
handler403 = "personaweb.errorpages.permission_denied"
handler404 = "personaweb.errorpages.page_not_found"
handler500 = "personaweb.errorpages.server_error"

# The host API (and its schema and docs) exists only when switched on; off, /v1/ is a 404.
if settings.PERSONAWEB_API_ENABLED:
    urlpatterns.append(path("v1/", include("api.urls")))
