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

from persona.services import (
    MAX_FIELD_CHARS,
    MAX_NAME_CHARS,
    MAX_REASON_CHARS,
    MAX_ROLE_CHARS,
)
from personaweb.errors import Refusal

PAGE_OUT_OF_DATE = "This page is out of date or incomplete; reload it."
MAX_VERSION = 2**31 - 1  # an IntegerField column


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
    # The version the page was made from (hidden). Missing, broken or out of range means
    # the page was edited or cut short: one sentence at the top, nothing is written.
    expected_version = forms.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        widget=forms.HiddenInput,
        error_messages={
            key: PAGE_OUT_OF_DATE for key in ("required", "invalid", "min_value", "max_value")
        },
    )

    def __init__(self, *args: Any, spec: ListSpec, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.items: list[str] = rows_from_post(self.data) if self.is_bound else []

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.has_error("expected_version"):
            # a hidden field's error would show nowhere: say it at the top of the form
            del self.errors["expected_version"]
            self.add_error(None, PAGE_OUT_OF_DATE)
        try:
            cleaned["items"] = self.spec.validate(self.items)
        except Refusal as exc:
            self.add_error(None, str(exc))
        return cleaned


def _counted(max_chars: int, **attrs: Any) -> dict[str, Any]:
    """Widget attributes for a field whose budget the page shows as you type."""
    return {"data-max-chars": max_chars, "autocomplete": "off", **attrs}


class PersonaFieldsForm(forms.Form):
    """The text fields of a persona (name, role, goals, background) with the reason and
    the version the edit was made from. The limits are the services' constants; the
    services check them again (and everything else) on save."""

    name = forms.CharField(
        max_length=MAX_NAME_CHARS,
        strip=True,
        error_messages={"required": "The name is empty; an agent needs a name."},
        widget=forms.TextInput(attrs=_counted(MAX_NAME_CHARS)),
    )
    role = forms.CharField(
        max_length=MAX_ROLE_CHARS,
        required=False,
        strip=True,
        widget=forms.Textarea(attrs=_counted(MAX_ROLE_CHARS, rows=2)),
    )
    goals = forms.CharField(
        max_length=MAX_FIELD_CHARS,
        required=False,
        strip=True,
        widget=forms.Textarea(attrs=_counted(MAX_FIELD_CHARS, rows=8)),
    )
    background = forms.CharField(
        max_length=MAX_FIELD_CHARS,
        required=False,
        strip=True,
        widget=forms.Textarea(attrs=_counted(MAX_FIELD_CHARS, rows=8)),
    )
    reason = ListEditForm.base_fields["reason"]
    expected_version = ListEditForm.base_fields["expected_version"]

    TEXT_FIELDS = ("name", "role", "goals", "background")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.has_error("expected_version"):
            del self.errors["expected_version"]
            self.add_error(None, PAGE_OUT_OF_DATE)
        return cleaned

    def changes(self) -> dict[str, str]:
        return {f: self.cleaned_data.get(f, "") for f in self.TEXT_FIELDS}
