"""``python manage.py api token create|list|revoke``: API tokens on the server.

``create`` prints the token once (only its sha256 is kept). Exit codes: 0 done, 2 bad
input or a refusal.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from api.models import SCOPES
from api.services import EXPIRY_HELP
from personaweb.cli import command_error
from personaweb.errors import Refusal


class Command(BaseCommand):
    help = "API tokens: create (printed once), list, revoke."

    def add_arguments(self, parser: CommandParser) -> None:
        groups = parser.add_subparsers(dest="group", required=True)
        token = groups.add_parser("token", help="bearer tokens for the HTTP API and MCP over HTTP")
        sub = token.add_subparsers(dest="sub", required=True)
        p = sub.add_parser("create", help="make a token and print it once")
        p.add_argument("--name", required=True)
        p.add_argument("--tenant", required=True, help="tenant slug")
        p.add_argument("--scopes", required=True, help=f"comma-separated: {', '.join(SCOPES)}")
        p.add_argument("--agent", help="bind the token to this agent (slug) only")
        p.add_argument("--user", help="decisions are this person's (needed for learning.decide)")
        p.add_argument(
            "--principal",
            metavar="EXTERNAL_ID",
            help="bind the token to this person (their id in your app): the persona routes "
            "read and write their document (needed for persona.read / persona.write)",
        )
        p.add_argument(
            "--on-behalf",
            action="store_true",
            help="with persona.read / persona.write: you make the token as a superuser on the "
            "person's behalf (recorded on the token; what it writes is marked as written on "
            "their behalf). Without it such a token is refused here: the person makes their "
            "own on the API tokens page.",
        )
        p.add_argument(
            "--expires-in",
            metavar="WHEN",
            help=f"the token stops working then: {EXPIRY_HELP}; default never",
        )
        p.add_argument("--json", action="store_true")
        p = sub.add_parser("list", help="tokens (never the token text)")
        p.add_argument("--tenant", help="tenant slug")
        p.add_argument("--all", action="store_true", help="revoked tokens too")
        p.add_argument("--json", action="store_true")
        p = sub.add_parser("revoke", help="revoke a token by name")
        p.add_argument("name")
        p.add_argument("--tenant", help="tenant slug (when several tenants have the name)")
        p.add_argument("--by", default="cli")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            getattr(self, f"do_{opts['sub']}")(opts)
        except Refusal as exc:
            raise command_error(str(exc)) from None

    def _tenant(self, slug: str) -> Any:
        from tenancy.models import Tenant

        tenant = Tenant.objects.filter(slug=slug).first()
        if tenant is None:
            raise command_error(f"No tenant with the slug {slug!r}.")
        return tenant

    def do_create(self, opts: dict[str, Any]) -> None:
        from api import selectors, services

        tenant = self._tenant(opts["tenant"])
        agent = None
        if opts.get("agent"):
            agent = selectors.agent_in_tenant(tenant_id=tenant.pk, slug=opts["agent"])
            if agent is None:
                raise command_error(f"No agent with the slug {opts['agent']!r} in {tenant.slug}.")
        user = None
        if opts.get("user"):
            user = services.user_by_username(opts["user"])
            if user is None:
                raise command_error(f"No account is called {opts['user']}.")
        principal = None
        if opts.get("principal"):
            principal = selectors.principal_in_tenant(
                tenant_id=tenant.pk, external_id=opts["principal"].strip()
            )
            if principal is None:
                raise command_error(
                    f"No person with the id {opts['principal']!r} in {tenant.slug}; a person "
                    "exists once a host recorded a turn with them."
                )
        token, raw = services.token_create(
            tenant=tenant,
            name=opts["name"],
            scopes=opts["scopes"],
            agent=agent,
            user=user,
            principal=principal,
            created_by="cli",
            on_behalf=opts["on_behalf"],
            expires_at=services.parse_expiry(opts.get("expires_in") or ""),
        )
        if opts["json"]:
            self.stdout.write(json.dumps({**self._row(token), "token": raw}, indent=2))
            return
        self.stdout.write(raw)
        self.stderr.write(
            f"Token {token.name} of {tenant.slug} ({', '.join(token.scopes)}). It is shown only "
            "now; keep it somewhere safe. Use it as: Authorization: Bearer <token>"
        )

    def _row(self, token: Any) -> dict[str, Any]:
        return {
            "name": token.name,
            "tenant": token.tenant.slug,
            "scopes": token.scopes,
            "agent": token.agent.slug if token.agent else None,
            "user": token.user.get_username() if token.user else None,
            "principal": token.principal.external_id if token.principal else None,
            "hint": token.hint,
            "created_at": token.created_at.isoformat(),
            "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
            "revoked_at": token.revoked_at.isoformat() if token.revoked_at else None,
            "expires_at": token.expires_at.isoformat() if token.expires_at else None,
            "expired": token.is_expired,
            "on_behalf": token.on_behalf,
            "created_by": token.created_by,
        }

    def do_list(self, opts: dict[str, Any]) -> None:
        from api import selectors

        tenant_ids = [self._tenant(opts["tenant"]).pk] if opts.get("tenant") else None
        qs = selectors.tokens_of_tenants(tenant_ids)
        if not opts["all"]:
            qs = qs.filter(revoked_at__isnull=True)
        rows = [self._row(t) for t in qs[:1000]]
        if opts["json"]:
            self.stdout.write(json.dumps(rows, indent=2))
            return
        if not rows:
            self.stdout.write(
                "No tokens. Make one with: api token create --name N --tenant T --scopes host"
            )
            return
        for r in rows:
            bound = f" agent={r['agent']}" if r["agent"] else ""
            who = f" user={r['user']}" if r["user"] else ""
            who += f" principal={r['principal']}" if r["principal"] else ""
            state = f" REVOKED {r['revoked_at']}" if r["revoked_at"] else ""
            if not state and r["expires_at"]:
                state = f" {'EXPIRED' if r['expired'] else 'expires'} {r['expires_at']}"
            if r["on_behalf"]:
                state += f" (made by {r['created_by']})"
            used = r["last_used_at"] or "never"
            self.stdout.write(
                f"{r['tenant']}/{r['name']}  {r['hint']}…  {','.join(r['scopes'])}{bound}{who}  "
                f"last used {used}{state}"
            )

    def do_revoke(self, opts: dict[str, Any]) -> None:
        from api import services
        from api.models import ApiToken

        qs = ApiToken.objects.select_related("tenant").filter(
            name=opts["name"], revoked_at__isnull=True
        )
        if opts.get("tenant"):
            qs = qs.filter(tenant=self._tenant(opts["tenant"]))
        found = list(qs[:10])
        if not found:
            raise command_error(
                f"No live token called {opts['name']!r}; `api token list` shows them."
            )
        if len(found) > 1:
            tenants = ", ".join(t.tenant.slug for t in found)
            raise command_error(
                f"Several tenants have a token called {opts['name']!r} ({tenants}); add --tenant."
            )
        token = services.token_revoke(token=found[0], by=opts["by"])
        self.stdout.write(f"Revoked {found[0].tenant.slug}/{token.name}.")
