"""API tokens: bearer tokens for hosts (HTTP API and MCP over HTTP).

Only the sha256 of a token is stored; the token itself is shown once, when it is made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

#: Scopes a token may carry. ``persona.*`` are the owner-document routes under
#: /v1/persona (mounted with ``AGENT_PERSONA_API_ENABLED``) and need a token bound to a
#: person.
SCOPES: dict[str, str] = {
    "host": "record turns, fetch prompt prefixes, read the persona, MCP over HTTP",
    "learning.read": "read learning settings, counters, proposals and reviews",
    "learning.decide": "approve, turn down and undo (needs a named user)",
    "memory.read": "read what is remembered about a person: beliefs, evidence, context packs",
    "memory.write": "write beliefs, retire them, mark intentions done, label routines",
    "persona.read": "read the persona document and nominations of the person the token is bound to",
    "persona.write": "edit that document, affirm or decline its nominations (needs the person)",
}
#: The scopes of the owner-document routes: a token with one of them is bound to a person.
PERSONA_SCOPES = ("persona.read", "persona.write")


class ApiToken(models.Model):
    """A bearer token of one tenant, optionally bound to one agent, one user and one
    person.

    ``agent`` set: the token reaches that agent only (any other is a 404). ``user`` set:
    decisions made with the token are that person's, under the dashboard's rules
    (reviewer of the tenant, rule owner for standing rules); ``learning.decide`` needs it.
    ``principal`` set: the person (of the tenant) whose own persona document the token
    reads and writes on the /v1/persona routes; ``persona.*`` need it. It does not narrow
    the other routes (those name their person in the request).

    A ``persona.*`` token is made by that person's own login (then ``user`` is that login:
    the token stops when the login is deactivated, and what it writes is theirs) or by a
    superuser on their behalf (``on_behalf``; ``created_by`` says who). ``expires_at``
    set: from then on the token is refused with a 401 saying it expired.
    """

    tenant = models.ForeignKey(
        "tenancy.Tenant", on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    # "tenancy.Agent" until Agent moves to memory (then "memory.Agent", one line here)
    agent = models.ForeignKey(
        "tenancy.Agent", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    principal = models.ForeignKey(
        "memory.Principal",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        help_text="the person whose persona document the token reads and writes",
    )
    scopes = models.JSONField(default=list)
    sha256 = models.CharField(max_length=64, unique=True, help_text="sha256 of the token")
    hint = models.CharField(max_length=12, help_text="the first characters, to recognise it")
    created_by = models.CharField(max_length=150, blank=True)
    on_behalf = models.BooleanField(
        default=False,
        help_text="made by a superuser (or the server's command line) on the bound person's "
        "behalf, not by the person themself",
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering = ["tenant", "name", "id"]
        constraints = [
            # a name is one live token per tenant; a revoked name may be used again
            models.UniqueConstraint(
                fields=["tenant", "name"],
                condition=Q(revoked_at__isnull=True),
                name="apitoken_unique_live_name",
            ),
        ]
        indexes = [
            # the token page and `api token list`: a tenant's tokens, newest first
            models.Index(fields=["tenant", "-created_at", "-id"], name="apitoken_tenant_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None and not self.is_expired
