"""Learning settings per agent: PRODUCT.md section 5 defaults and lowest allowed values."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from learning.counters import next_due_at
from learning.models import LearningSettings, Mode, ProposerKind
from learning.services.errors import LearningInputError
from learning.validators import INT_LIMITS, parse_rule_owners

BOOL_KEYS = ("across_users", "standing_rules", "auto_apply")
TEXT_KEYS = ("model_base_url", "model_name")
SETTING_KEYS = (
    "mode",
    "proposer",
    *INT_LIMITS,
    *BOOL_KEYS,
    "rule_owners",
    *TEXT_KEYS,
)
#: Changing one of these can make old messages learnable: the next review rereads them.
_REREAD_KEYS = frozenset(
    {
        "min_conversations",
        "max_threads",
        "max_messages_per_thread",
        "across_users",
        "min_users",
        "standing_rules",
        "min_corrections",
        "proposer",
        "model_base_url",
        "model_name",
    }
)
_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n", ""}


def learning_settings_get(agent) -> LearningSettings:
    """The agent's learning settings, created with PRODUCT.md's defaults on first use."""
    settings, _ = LearningSettings.objects.get_or_create(agent=agent)
    return settings


def _field_clean(key: str, value: Any) -> Any:
    """Run the model field's own validators (the same limits the form and admin use)."""
    field = LearningSettings._meta.get_field(key)
    try:
        field.run_validators(value)  # type: ignore[union-attr]
    except ValidationError as exc:
        raise LearningInputError(" ".join(exc.messages)) from None
    return value


_FAR = 10**18


def _as_int(key: str, value: Any) -> int:
    if isinstance(value, bool):
        raise LearningInputError(f"{key} must be a whole number, not {value!r}.")
    low, high = INT_LIMITS[key]
    far = LearningInputError(
        f"{key} is far outside its limits; give a whole number from {low} to {high}."
    )
    if isinstance(value, int):
        if abs(value) > _FAR:  # also keeps a huge number out of the message
            raise far
        return _field_clean(key, value)
    text = str(value).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise LearningInputError(f"{key} must be a whole number; {shown} is not one.")
    if len(text.lstrip("+-").lstrip("0")) > 18:  # beyond every limit and any database column
        raise far
    return _field_clean(key, int(text))


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise LearningInputError(f"{key} must be true or false; {value!r} is neither.")


def _as_owners(value: Any) -> list[str]:
    try:
        owners = parse_rule_owners(value)
    except ValidationError as exc:
        raise LearningInputError(" ".join(exc.messages)) from None
    return _field_clean("rule_owners", owners)


def clean_setting(key: str, value: Any) -> Any:
    """One setting, parsed from text or a Python value and checked against its limits."""
    if key == "mode":
        text = str(value).strip().lower()
        if text not in Mode.values:
            raise LearningInputError(
                f"mode must be one of {', '.join(Mode.values)}; {value!r} is not."
            )
        return text
    if key == "proposer":
        text = str(value).strip().lower()
        if text not in ProposerKind.values:
            raise LearningInputError(
                f"proposer must be one of {', '.join(ProposerKind.values)}; {value!r} is not."
            )
        return text
    if key in INT_LIMITS:
        return _as_int(key, value)
    if key in BOOL_KEYS:
        return _as_bool(key, value)
    if key == "rule_owners":
        return _as_owners(value)
    if key == "model_base_url":
        return _field_clean("model_base_url", str(value or "").strip())
    if key == "model_name":
        text = str(value or "").strip()
        if len(text) > 200:
            raise LearningInputError("model_name is longer than 200 characters.")
        return text
    raise LearningInputError(
        f"Unknown learning setting {key!r}; settings are {', '.join(SETTING_KEYS)}."
    )


@transaction.atomic
def learning_settings_update(*, agent, values: dict[str, Any], by: str) -> LearningSettings:
    """Change some learning settings of ``agent``; all are checked before any is saved.

    ``auto_apply`` is another way to say the mode: true = ``on``, false =
    ``on-with-review`` (it leaves ``off`` alone). The counters are kept; ``due_at`` is
    recomputed, and a change that can make old messages learnable lets the next review
    reread them. Raises ``LearningInputError`` (with ``errors`` per key) and saves nothing.
    """
    errors: dict[str, str] = {}
    cleaned: dict[str, Any] = {}
    for key, value in values.items():
        try:
            cleaned[key] = clean_setting(key, value)
        except LearningInputError as exc:
            errors[key] = str(exc)
    if errors:
        raise LearningInputError(" ".join(errors.values()), errors=errors)
    learning_settings_get(agent)  # make sure the row exists before locking it
    settings = LearningSettings.objects.select_for_update().get(agent=agent)
    if "auto_apply" in cleaned:
        auto = cleaned.pop("auto_apply")
        mode = cleaned.get("mode", settings.mode)
        if mode != Mode.OFF:
            cleaned["mode"] = Mode.ON if auto else Mode.REVIEW
    changed = [key for key, value in cleaned.items() if getattr(settings, key) != value]
    for key in changed:
        setattr(settings, key, cleaned[key])
    if any(key in _REREAD_KEYS for key in changed) or (
        "mode" in changed and settings.mode != Mode.OFF
    ):
        settings.last_seen_message_id = 0
        changed.append("last_seen_message_id")
    settings.due_at = next_due_at(settings)
    settings.full_clean()
    settings.save(update_fields=[*changed, "due_at", "updated_at"])
    return settings


def settings_as_dict(settings: LearningSettings) -> dict[str, Any]:
    """The settings a person sets, plus the counters, as plain values (CLI, API)."""
    from django.conf import settings as django_settings

    return {
        "mode": settings.mode,
        "auto_apply": settings.auto_apply,
        "proposer": settings.proposer or django_settings.LEARNING_PROPOSER,
        "model_base_url": settings.model_base_url,
        "model_name": settings.model_name,
        **{key: getattr(settings, key) for key in INT_LIMITS},
        "across_users": settings.across_users,
        "standing_rules": settings.standing_rules,
        "rule_owners": list(settings.rule_owners or []),
        "turns_since_review": settings.turns_since_review,
        "last_review_at": settings.last_review_at.isoformat() if settings.last_review_at else None,
        "last_seen_message_id": settings.last_seen_message_id,
        "due_at": settings.due_at.isoformat() if settings.due_at else None,
    }
