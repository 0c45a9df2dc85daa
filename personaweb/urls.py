from __future__ import annotations

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
]

handler400 = "personaweb.errorpages.bad_request"
handler403 = "personaweb.errorpages.permission_denied"
handler404 = "personaweb.errorpages.page_not_found"
handler500 = "personaweb.errorpages.server_error"
