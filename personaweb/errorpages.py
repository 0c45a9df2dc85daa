"""Error pages: 400, 403, 404 and 500 as styled pages with the navigation, each saying
what happened and what to do.

A 403 shows the reason the view gave (``PermissionDenied("sentence")``); a 400 shows the
sentence of a ``BadRequest`` (other suspicious requests, such as a wrong Host header, get
a general sentence: their details are for the log). A 404 shows the sentence of an
``Http404`` raised by our code (the URL resolver's own detail is never shown).

The 500 page is rendered without the request: no session, no database, no context
processors, so that it still renders when one of those is what failed. If even that
fails, a plain page is sent.

``locked_out`` is the page django-axes shows when the login throttle refuses a login.

``ClientErrorLogFilter`` (set on ``django.request`` in settings) keeps a 4xx answer in
the log as one line with the reason, without the traceback Django attaches: a refusal
is not a fault of the program.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404

logger = logging.getLogger(__name__)

# The last resort when the 500 template cannot be rendered: no template, no static.
PLAIN_500 = (
    "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
    "<title>Something went wrong · personaweb</title></head><body>"
    "<h1>Something went wrong on our side</h1>"
    "<p>The error was logged. Try again in a minute; if it keeps happening, tell the "
    "person who runs this server what you did.</p><p><a href='/'>Home</a></p></body></html>"
)


def reason_of(exception: BaseException | None) -> str:
    """The exception's message when our code gave it a sentence for a person, else ''."""
    if exception is None or isinstance(exception, Resolver404):
        return ""
    args: tuple[object, ...] = exception.args
    if len(args) == 1 and isinstance(args[0], str):
        return args[0].strip()
    return ""


def bad_request(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    # Only a BadRequest (or a subclass) carries a sentence meant for the person; a
    # SuspiciousOperation's message describes the server's configuration: log only.
    reason = reason_of(exception) if isinstance(exception, BadRequest) else ""
    return render(request, "400.html", {"reason": reason}, status=400)


def permission_denied(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    reason = reason_of(exception) if isinstance(exception, PermissionDenied) else ""
    return render(request, "403.html", {"reason": reason}, status=403)


def page_not_found(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    reason = reason_of(exception) if isinstance(exception, Http404) else ""
    return render(request, "404.html", {"reason": reason}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    try:
        body = loader.get_template("500.html").render({})
    except Exception:
        logger.exception("The 500 page could not be rendered; sent the plain one")
        body = PLAIN_500
    return HttpResponseServerError(body)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: Django's ``reason`` is technical and already logged."""
    return render(
        request,
        "403.html",
        {
            "reason": (
                "This form's security check failed: the page was open too long, or you "
                "logged in or out in another tab."
            ),
            "csrf": True,
        },
        status=403,
    )


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the styled page for a login refused by the throttle."""
    from axes.helpers import get_client_username, get_cool_off, get_failure_limit

    cool_off = get_cool_off(request) or settings.AXES_COOLOFF_TIME
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "username": get_client_username(request, credentials) or "",
        "minutes": max(1, math.ceil(cool_off.total_seconds() / 60)),
    }
    return render(request, "registration/locked_out.html", context, status=429)


class ClientErrorLogFilter(logging.Filter):
    """On ``django.request``: a 4xx record becomes one line with the reason, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500 and record.exc_info:
            reason = reason_of(record.exc_info[1])
            if reason:
                record.msg = f"{record.getMessage()}: {reason}"
                record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True
