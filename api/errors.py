"""The error envelope of /v1 and the closed set of its codes.

Every error answer is ``{"error": {"code", "message", "request_id"}}`` with one of
``CODES``; the message is a sentence for a person (what is wrong, what to do).
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse

from personaweb.errors import Refusal

#: code -> HTTP status. Closed: nothing else is ever sent.
CODES: dict[str, int] = {
    "malformed_request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "rate_limited": 429,
    "unavailable": 503,
    "internal": 500,
}
STATUS_CODES: dict[int, str] = {status: code for code, status in CODES.items()}

REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
NOT_FOUND_MESSAGE = "Nothing with that name or id here."
#: Another tenant's person or memory reads exactly like an unknown one.
NO_PERSON_MESSAGE = "No person with that id here."
NO_MEMORY_MESSAGE = "No memory with that id here."
#: Another person's nomination reads exactly like an unknown one.
NO_NOMINATION_MESSAGE = "No nomination with that id here."


class ApiError(Exception):
    """An error answer of the API: a code of ``CODES`` and a sentence."""

    code = "internal"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        assert self.code in CODES, self.code
        self.message = message

    @property
    def status(self) -> int:
        return CODES[self.code]


class Unauthorized(ApiError):
    code = "unauthorized"


class Forbidden(ApiError):
    code = "forbidden"


class NotFound(ApiError):
    """Absent, or another tenant's, or out of the token's agent: the same answer."""

    code = "not_found"

    def __init__(self, message: str = NOT_FOUND_MESSAGE) -> None:
        super().__init__(message)


class Conflict(ApiError):
    code = "conflict"


class Malformed(ApiError):
    code = "malformed_request"


class RateLimited(ApiError):
    """Too many calls with one token this minute; ``retry_after``: seconds until the next
    minute starts (the ``Retry-After`` header of the 429)."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def refusal_code(exc: Refusal) -> str:
    """``conflict`` for a refusal about the state of things (someone decided first, the
    persona changed, a conversation belongs to another person), else ``malformed_request``."""
    from learning.services.errors import DecisionRefused
    from persona.plans import PlanError
    from persona.services import PersonaVersionConflict

    if getattr(exc, "api_code", None) in CODES:
        return str(exc.api_code)  # type: ignore[attr-defined]
    if isinstance(exc, DecisionRefused | PersonaVersionConflict | PlanError):
        return "conflict"
    return "malformed_request"


def request_id_of(request: HttpRequest) -> str:
    """The request's id: the caller's ``X-Request-ID`` when it is a sane token, else a
    new one. Stored on the request, so every answer to it carries the same id."""
    rid = getattr(request, "request_id", None)
    if rid:
        return rid
    given = request.headers.get(REQUEST_ID_HEADER, "")
    rid = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
    request.request_id = rid  # type: ignore[attr-defined]
    return rid


def envelope(request: HttpRequest, *, code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "request_id": request_id_of(request)}}


def error_response(request: HttpRequest, *, code: str, message: str) -> HttpResponse:
    body = json.dumps(envelope(request, code=code, message=message), ensure_ascii=False)
    return HttpResponse(body, status=CODES[code], content_type="application/json; charset=utf-8")
