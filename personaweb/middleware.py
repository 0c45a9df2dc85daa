from __future__ import annotations

import ipaddress
import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers


class UserTimezoneMiddleware:
    """Shows times in the browser's time zone (set in a ``tz`` cookie by base.html)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = request.COOKIES.get("tz", "")
        try:
            timezone.activate(zoneinfo.ZoneInfo(name)) if name else timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        return self.get_response(request)


class VaryOnHtmxMiddleware:
    """Every page answers an htmx request with a partial and a plain one with the whole
    page, so every response says it varies on HX-Request (caches must not mix them)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


class PrivatePagesMiddleware:
    """Every answer to a signed-in person is ``Cache-Control: private, no-store``: their
    pages show what only they may see (and a new API token once), so neither a shared
    cache nor the browser's keeps a copy. Static files never reach it (whitenoise answers
    them earlier); pages for no one signed in (the login page) are left as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for django-axes (``AXES_CLIENT_IP_CALLABLE``).

    With ``TRUSTED_PROXY_COUNT`` = N > 0, N proxies stand in front of the server and each
    appends the address it received from to X-Forwarded-For: the client is the N-th
    address from the right (anything left of it the client could have written itself).
    With 0, or a header shorter than N (a request that did not pass the proxies), the
    header is ignored: REMOTE_ADDR.
    """
    remote = request.META.get("REMOTE_ADDR") or None
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) < count:
        return remote
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
