"""The learning settings form: every setting of PRODUCT.md section 5, with the
limits of the model's own validators (``learning.validators``)."""

from __future__ import annotations

from typing import Any

from django import forms

from learning.models import LearningSettings
from learning.validators import (
    INT_LIMITS,
    parse_rule_owners,
    validate_model_base_url,
    validate_rule_owners,
)


def _limits(key: str) -> dict[str, Any]:
    """The model field's validators (the same limits and words as the CLI and admin),
    and the bounds as HTML attributes so the browser says so before sending."""
    low, high = INT_LIMITS[key]
    return {
        "validators": LearningSettings._meta.get_field(key).validators,  # type: ignore[union-attr]
        "widget": forms.NumberInput(attrs={"min": low, "max": high}),
    }


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
        names = parse_rule_owners(raw)
        validate_rule_owners(names)
        return names

    def clean_model_base_url(self) -> str:
        url = (self.cleaned_data.get("model_base_url") or "").strip()
        validate_model_base_url(url)
        return url

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("proposer") == "openai" and not cleaned.get("model_base_url"):
            self.add_error(
                "model_base_url", "An OpenAI-compatible model needs its endpoint's base URL."
            )
        return cleaned
