"""The form of the API tokens page. The service checks everything again; the form only
offers the choices and turns refusals into messages."""

from __future__ import annotations

from typing import Any

from django import forms

from api.models import SCOPES
from api.services import MAX_NAME_CHARS
from tenancy.models import Tenant


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=MAX_NAME_CHARS,
        help_text="Who will use it, e.g. chat-app-prod (letters, digits and . @ + - _).",
    )
    tenant = forms.ModelChoiceField(queryset=Tenant.objects.none(), empty_label=None)
    scopes = forms.MultipleChoiceField(
        choices=list(SCOPES.items()),
        widget=forms.CheckboxSelectMultiple,
        initial=["host"],
        error_messages={"required": "Tick at least one scope."},
    )
    agent = forms.CharField(
        required=False,
        max_length=100,
        help_text="An agent's slug to bind the token to that agent only; empty = every agent of the tenant.",
    )
    principal = forms.CharField(
        required=False,
        max_length=200,
        label="Person",
        help_text=(
            "A person's id (as your host names them) to bind the token to: the persona "
            "routes read and write that person's own document. Needed for persona.read and "
            "persona.write."
        ),
    )
    as_me = forms.BooleanField(
        required=False,
        label="Decisions made with this token are mine",
        help_text="Needed for learning.decide. A token acts for the person who makes it, never for someone else.",
    )

    def __init__(self, *args: Any, tenants: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants  # type: ignore[attr-defined]
