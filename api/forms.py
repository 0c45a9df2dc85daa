"""The form of the API tokens page. The service checks everything again; the form only
offers the choices and turns refusals into messages."""

from __future__ import annotations

from typing import Any

from django import forms

from api.models import PERSONA_SCOPES, SCOPES
from api.services import EXPIRY_HELP, MAX_NAME_CHARS
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
            "A person's id (as your host names them) to bind the token to. persona.read and "
            "persona.write need it and are offered only for your own persona document (a "
            "superuser may make one on the person's behalf, recorded as such)."
        ),
    )
    as_me = forms.BooleanField(
        required=False,
        label="Decisions made with this token are mine",
        help_text="Needed for learning.decide. A token acts for the person who makes it, never for someone else.",
    )
    expires = forms.CharField(
        required=False,
        max_length=40,
        label="Expires",
        help_text=f"When the token stops working: {EXPIRY_HELP}. Empty = never.",
    )

    def __init__(
        self, *args: Any, tenants: Any, persona_scopes: bool, own_only: bool, **kwargs: Any
    ) -> None:
        """``persona_scopes``: offer persona.read / persona.write (to the owner of a
        persona document and to superusers). ``own_only``: a person who is not an operator
        makes a token for their own persona document: only those scopes, bound to them."""
        super().__init__(*args, **kwargs)
        self.fields["tenant"].queryset = tenants  # type: ignore[attr-defined]
        scopes: Any = self.fields["scopes"]
        if own_only:
            scopes.choices = [(s, SCOPES[s]) for s in PERSONA_SCOPES]
            scopes.initial = list(PERSONA_SCOPES)
            for name in ("tenant", "agent", "principal", "as_me"):
                del self.fields[name]
        elif not persona_scopes:
            scopes.choices = [(s, d) for s, d in SCOPES.items() if s not in PERSONA_SCOPES]
