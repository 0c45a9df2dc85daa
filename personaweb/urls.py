"""The root URLconf: the composition root that mounts every app's pages (it is the
one module of the floor allowed to import the top layer; see docs/architecture.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

from dashboard.forms import SetOrResetPasswordForm
from dashboard.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # everyone logged in changes their own password here (the admin's form is for staff)
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
    # setting a first password (the link a new team member is sent) and resetting one
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(form_class=SetOrResetPasswordForm),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # browsers ask for /favicon.ico whatever the page links; the icon is a static file
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("memory/", include("dashboard.urls_memory")),
    path("persona/", include("dashboard.urls_persona")),
    path("me/", include("dashboard.urls_owner")),
    path("learning/", include("learning.urls")),
    path("tokens/", include("api.page_urls")),
    path("team/", include("dashboard.urls_team")),
]

handler400 = "personaweb.errorpages.bad_request"
handler403 = "personaweb.errorpages.permission_denied"
handler404 = "personaweb.errorpages.page_not_found"
handler500 = "personaweb.errorpages.server_error"

# The host API (and its schema and docs) exists only when switched on; off, /v1/ is a 404.
if settings.PERSONAWEB_API_ENABLED:
    urlpatterns.append(path("v1/", include("api.urls")))
