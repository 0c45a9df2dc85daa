"""The limits of the learning settings, in one place: model field validators, so the
form, the CLI, the API and the admin all refuse the same values with the same words.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator

#: (lowest, highest) of each whole-number setting (PRODUCT.md section 5 floors).
INT_LIMITS: dict[str, tuple[int, int]] = {
    "every_n_turns": (1, 100_000),
    "every_hours": (0, 8_760),
    "min_conversations": (2, 50),
    "max_threads": (1, 50),
    "max_messages_per_thread": (1, 200),
    "min_users": (2, 50),
    "min_corrections": (2, 50),
}
MAX_RULE_OWNERS = 50
_USERNAME = re.compile(r"^[\w.@+-]{1,150}$")


def int_limit_validators(key: str) -> list[Any]:
    low, high = INT_LIMITS[key]
    return [
        MinValueValidator(
            low, message=f"{key} is %(show_value)s; the lowest allowed value is %(limit_value)s."
        ),
        MaxValueValidator(
            high, message=f"{key} is %(show_value)s; the highest allowed value is %(limit_value)s."
        ),
    ]


def parse_rule_owners(value: Any) -> list[str]:
    """rule_owners from a list or a comma-separated text: names checked for shape, no
    duplicates, at most MAX_RULE_OWNERS. Raises ValidationError."""
    if value is None:
        return []
    if isinstance(value, str):
        items = [part.strip() for part in value.replace("\n", ",").split(",")]
    elif isinstance(value, list | tuple):
        if not all(isinstance(part, str) for part in value):
            raise ValidationError("rule_owners must be a list of user names (text).")
        items = [part.strip() for part in value]
    else:
        raise ValidationError(
            "rule_owners must be a list of user names (or a comma-separated text)."
        )
    owners: list[str] = []
    for item in items:
        if not item:
            continue
        if item.casefold() == "auto":
            raise ValidationError(
                "rule_owners cannot hold 'auto': a standing rule is approved by a named person."
            )
        if not _USERNAME.match(item):
            raise ValidationError(
                f"rule_owners: {item!r} is not a user name (letters, digits and . @ + - _ only)."
            )
        if item.casefold() not in {o.casefold() for o in owners}:
            owners.append(item)
    if len(owners) > MAX_RULE_OWNERS:
        raise ValidationError(
            f"rule_owners holds {len(owners)} names; the limit is {MAX_RULE_OWNERS}."
        )
    return owners


def validate_rule_owners(value: Any) -> None:
    """A list of names of existing accounts (the model field's validator)."""
    from django.contrib.auth import get_user_model

    if not isinstance(value, list):
        raise ValidationError(
            "rule_owners must be a list of user names (or a comma-separated text)."
        )
    names = parse_rule_owners(value)
    if not names:
        return
    from django.db.models.functions import Lower

    known = set(
        get_user_model()
        .objects.annotate(folded=Lower("username"))
        .filter(folded__in=[n.lower() for n in names])
        .values_list("folded", flat=True)
    )
    unknown = [n for n in names if n.lower() not in known]
    if unknown:
        raise ValidationError(
            f"No account is called {', '.join(unknown)}. Rule owners are user names of people who log in here."
        )


def _normal_url(url: str) -> str:
    return url.strip().rstrip("/")


def allowed_model_urls() -> list[str]:
    return [
        _normal_url(u) for u in getattr(django_settings, "LEARNING_MODEL_ALLOWED_URLS", []) if u
    ]


def validate_model_base_url(value: str) -> None:
    """A per-agent model endpoint must be on the server's allow-list: the server's model
    key and conversation text go there."""
    text = (value or "").strip()
    if not text:
        return
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValidationError(
            f"model_base_url must start with http:// or https://; {text!r} does not."
        )
    allowed = allowed_model_urls()
    if _normal_url(text) not in allowed:
        listed = ", ".join(allowed) if allowed else "empty, so per-agent endpoints are refused"
        raise ValidationError(
            f"model_base_url {text!r} is not on the allow-list of model endpoints "
            f"(LEARNING_MODEL_ALLOWED_URLS: {listed}). Ask the server's administrator to add it, "
            "or leave it empty to use the server's own endpoint."
        )
