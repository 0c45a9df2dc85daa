"""Conventions of every /v1/ answer, whoever made it (a route, ninja, or Django itself):

* ``X-Request-ID``: the caller's, echoed when it is a sane token, or a new one;
* ``Cache-Control: private, no-store`` (on every answer, so on every success);
* an error that is not already the JSON envelope (Django's 404 for an unknown path, a
  405, a 500 page) is replaced by the envelope with the matching code.

Requests outside /v1/, and every request while the API is off, pass untouched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from api.errors import REQUEST_ID_HEADER, STATUS_CODES, error_response, request_id_of

logger = logging.getLogger(__name__)

PREFIX = "/v1/"
CACHE_CONTROL = "private, no-store"
_MESSAGES = {
    400: "The request could not be read; check the method, the JSON body and the parameters.",
    401: "Send a valid API token: Authorization: Bearer <token>.",
    403: "This API token may not do this.",
    404: "Nothing with that name or id here.",
    405: "This method is not allowed here; the API's schema is at /v1/openapi.json.",
    409: "This conflicts with the current state; reload and try again.",
    413: "The request body is too large.",
    429: "Too many requests; wait a little and try again.",
    500: "Something went wrong on the server; it was logged with this request id.",
    503: "The service is not available right now; try again shortly.",
}


def _code_for(status: int) -> str:
    if status in STATUS_CODES:
        return STATUS_CODES[status]
    if status >= 500:
        return "internal" if status != 503 else "unavailable"
    return "malformed_request"


class ApiConventionsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(PREFIX) or not settings.PERSONAWEB_API_ENABLED:
            return self.get_response(request)
        rid = request_id_of(request)
        response = self.get_response(request)
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith(
            "application/json"
        ):
            status = response.status_code
            if status >= 500:
                logger.error("API request %s answered %s", rid, status)
            message = _MESSAGES.get(status, _MESSAGES[400 if status < 500 else 500])
            allow = response.get("Allow")
            response = error_response(request, code=_code_for(status), message=message)
            if status in (405, 413):
                # keep the real status (the envelope's code is the closest of the set)
                response.status_code = status
            if allow:
                response["Allow"] = allow
        response[REQUEST_ID_HEADER] = rid
        response["Cache-Control"] = CACHE_CONTROL
        return response
