from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.selectors import home_counts


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/home.html", {"counts": home_counts(user=request.user)})
