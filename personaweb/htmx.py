"""htmx helpers shared by every page: the request type, partial detection, the
messages region sent out of band, safe ``next`` targets and query strings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (django-htmx's example app)."""

    htmx: HtmxDetails


def is_partial(request: HttpRequest) -> bool:
    """An htmx swap (not a history restore, which needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def with_messages_oob(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Append the messages region out of band to an htmx response, so Django messages
    added while handling an htmx request show at once (and are not left for the next
    full page)."""
    html = render_to_string("components/_messages_oob.html", request=request)
    response.content = response.content + html.encode()
    return response


def safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def query_without(request: HttpRequest, *drop: str) -> str:
    """The request's query string without ``drop`` keys (for links that change one)."""
    params = request.GET.copy()
    for key in drop:
        params.pop(key, None)
    return params.urlencode()
