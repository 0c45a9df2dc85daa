from __future__ import annotations

from django.http import HttpRequest

from personaweb.roles import is_operator, is_reviewer


def roles(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_operator": False, "is_reviewer": False}
    return {"is_operator": is_operator(user), "is_reviewer": is_reviewer(user)}
