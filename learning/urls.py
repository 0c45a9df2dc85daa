from __future__ import annotations

from django.urls import path

from learning import views

app_name = "learning"

urlpatterns = [
    path("queue/", views.queue, name="queue"),
    path("log/", views.log, name="log"),
    path("proposals/<int:pk>/approve/", views.proposal_apply, name="proposal_apply"),
    path("proposals/<int:pk>/dismiss/", views.proposal_dismiss, name="proposal_dismiss"),
    path("proposals/<int:pk>/restore/", views.proposal_restore, name="proposal_restore"),
    path("proposals/<int:pk>/undo/", views.proposal_undo, name="proposal_undo"),
    path("<slug:slug>/settings/", views.settings_view, name="settings"),
    path("<slug:slug>/review-now/", views.review_now, name="review_now"),
    path("<slug:slug>/reviews/<int:pk>/", views.review_status, name="review_status"),
]
