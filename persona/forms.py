"""Dashboard forms: the guardrail / standing-rule list editor and learning settings.

The list editor posts its rows as parallel lists (``item`` and ``pos``) plus the row
indexes to ``remove``, so it works without JavaScript (type a position number, tick
"remove"); with JavaScript the up/down/remove buttons maintain the same fields.
The services validate again: the form only turns their refusals into messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from learning.services.settings import INT_LIMITS
from persona.services import MAX_REASON_CHARS
from personaweb.errors import Refusal


@dataclass(frozen=True)
class ListSpec:
    """What one list editor edits: the persona field, its limits and its validator."""

    field: str
    title: str
    singular: str
    max_items: int
    max_chars: int
    validate: Callable[[Any], list[str]]
    url_name: str


def rows_from_post(data: Any) -> list[str]:
    """The list as posted: rows in position order, removed and blank rows left out."""
    items = data.getlist("item") if hasattr(data, "getlist") else list(data.get("item", []))
    positions = data.getlist("pos") if hasattr(data, "getlist") else list(data.get("pos", []))
    removed = set(data.getlist("remove") if hasattr(data, "getlist") else data.get("remove", []))
    rows: list[tuple[float, int, str]] = []
    for idx, text in enumerate(items):
        if str(idx) in removed or not str(text).strip():
            continue
        try:
            pos = float(positions[idx])
        except (IndexError, TypeError, ValueError):
            pos = float(idx + 1)
        rows.append((pos, idx, str(text)))
    rows.sort()
    return [" ".join(text.split()) for _, _, text in rows]


class ListEditForm(forms.Form):
    reason = forms.CharField(
        max_length=MAX_REASON_CHARS,
        strip=True,
        error_messages={
            "required": "Say why you are making this change; every version records a reason."
        },
        widget=forms.TextInput(attrs={"data-max-chars": MAX_REASON_CHARS, "autocomplete": "off"}),
    )
    expected_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args: Any, spec: ListSpec, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.items: list[str] = rows_from_post(self.data) if self.is_bound else []

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            cleaned["items"] = self.spec.validate(self.items)
        except Refusal as exc:
            self.add_error(None, str(exc))
        return cleaned


def _limits(key: str) -> dict[str, Any]:
    """min_value / max_value of a learning setting, from the service's own table."""
    low, high = INT_LIMITS[key]
    return {"min_value": low} if high is None else {"min_value": low, "max_value": high}


class LearningSettingsForm(forms.Form):
    """Every learning setting of PRODUCT.md section 5, with its limits."""

    MODE_CHOICES = [
        ("off", "Off: never review"),
        ("on", "On: apply a learned sentence at once"),
        ("on-with-review", "On, with review: a person approves each change"),
    ]
    PROPOSER_CHOICES = [
        ("", "Server default"),
        ("local", "Local (offline, extractive)"),
        ("openai", "OpenAI-compatible endpoint"),
    ]

    mode = forms.ChoiceField(choices=MODE_CHOICES, label="Learning")
    every_n_turns = forms.IntegerField(
        **_limits("every_n_turns"), label="Review after this many turns"
    )
    every_hours = forms.IntegerField(
        **_limits("every_hours"),
        label="Or after this many hours",
        help_text="0 turns the hours rule off.",
    )
    min_conversations = forms.IntegerField(
        **_limits("min_conversations"),
        label="Conversations a proposal must quote",
        help_text="The lowest allowed is 2.",
    )
    max_threads = forms.IntegerField(
        **_limits("max_threads"), label="Recent conversations a review reads"
    )
    max_messages_per_thread = forms.IntegerField(
        **_limits("max_messages_per_thread"), label="Messages read from each conversation"
    )
    across_users = forms.BooleanField(
        required=False, label="Learn from a team (read every user's conversations)"
    )
    min_users = forms.IntegerField(
        **_limits("min_users"),
        label="People a team proposal must quote",
        help_text="The lowest allowed is 2.",
    )
    standing_rules = forms.BooleanField(
        required=False, label="Propose standing rules from repeated corrections"
    )
    min_corrections = forms.IntegerField(
        **_limits("min_corrections"),
        label="Conversations a rule's corrections must come from",
        help_text="The lowest allowed is 2.",
    )
    rule_owners = forms.CharField(
        required=False,
        label="Rule owners",
        help_text="Usernames, separated by commas. Empty means any reviewer or operator of this tenant.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    proposer = forms.ChoiceField(choices=PROPOSER_CHOICES, required=False, label="Proposer")
    model_base_url = forms.URLField(
        required=False, label="Model endpoint (base URL)", assume_scheme="https"
    )
    model_name = forms.CharField(required=False, max_length=200, label="Model name")

    FIELDS = (
        "mode",
        "every_n_turns",
        "every_hours",
        "min_conversations",
        "max_threads",
        "max_messages_per_thread",
        "across_users",
        "min_users",
        "standing_rules",
        "min_corrections",
        "rule_owners",
        "proposer",
        "model_base_url",
        "model_name",
    )

    @classmethod
    def initial_from(cls, settings: Any) -> dict[str, Any]:
        if settings is None:
            return {
                "mode": "off",
                "every_n_turns": 20,
                "every_hours": 24,
                "min_conversations": 3,
                "max_threads": 8,
                "max_messages_per_thread": 40,
                "across_users": False,
                "min_users": 2,
                "standing_rules": False,
                "min_corrections": 2,
                "rule_owners": "",
                "proposer": "",
                "model_base_url": "",
                "model_name": "",
            }
        initial = {name: getattr(settings, name) for name in cls.FIELDS}
        initial["rule_owners"] = ", ".join(settings.rule_owners or [])
        return initial

    def clean_rule_owners(self) -> list[str]:
        raw = self.cleaned_data.get("rule_owners") or ""
        names = list(
            dict.fromkeys(n.strip() for n in raw.replace("\n", ",").split(",") if n.strip())
        )
        if not names:
            return []
        known = set(
            get_user_model().objects.filter(username__in=names).values_list("username", flat=True)
        )
        unknown = [n for n in names if n not in known]
        if unknown:
            raise forms.ValidationError(
                "No account is called %(names)s. Rule owners are usernames of people who log in here.",
                params={"names": ", ".join(unknown)},
            )
        return names

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("proposer") == "openai" and not cleaned.get("model_base_url"):
            self.add_error(
                "model_base_url", "An OpenAI-compatible model needs its endpoint's base URL."
            )
        return cleaned
