from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.selectors import home_counts
from learning.selectors import oldest_waiting
from tenancy.access import actor_for_user


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    counts = home_counts(user=request.user)
    oldest = oldest_waiting(actor_for_user(request.user)) if counts.proposals_waiting else None
    return render(request, "dashboard/home.html", {"counts": counts, "oldest": oldest})
