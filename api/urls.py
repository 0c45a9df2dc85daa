"""/v1/: the ninja API, and an envelope 404 for any other path under it.

Mounted by ``personaweb.urls`` only when ``PERSONAWEB_API_ENABLED`` is set.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt

from api.errors import NOT_FOUND_MESSAGE, error_response
from api.http import api


@csrf_exempt
def unknown(request: HttpRequest, rest: str = "") -> HttpResponse:
    return error_response(request, code="not_found", message=NOT_FOUND_MESSAGE)


urlpatterns = [
    path("", api.urls),
    re_path(r"^(?P<rest>.*)$", unknown),
]
