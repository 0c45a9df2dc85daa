"""``python manage.py team add|list``: the Team page on the command line.

``team add USERNAME --tenant SLUG --role reviewer --email ADDRESS`` makes the login
(no password), e-mails its person the one-time link to set one (``EMAIL_BACKEND``; the
console by default) and prints the link too, for a local run. ``--role owner`` needs
``--person``: the person's id as the assistants know it. ``team list`` shows who logs in
to each tenant. Errors are one sentence, exit code 2.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from persona.models import OwnerAccount
from persona.owner_accounts import team_add
from personaweb.actors import Actor
from personaweb.cli import EXIT_BAD_INPUT, command_error
from personaweb.errors import Refusal
from tenancy.models import Tenant
from tenancy.team import (
    TEAM_ROLES,
    members_of,
    roles_of,
)


class Command(BaseCommand):
    help = "Add a person to a tenant's team with a role (they set their password by e-mail), or list the team."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")
        p = sub.add_parser("add", help="Add a login with a role; its person sets a password.")
        p.add_argument("username")
        p.add_argument("--tenant", required=True, help="the tenant's slug")
        p.add_argument("--role", required=True, choices=list(TEAM_ROLES))
        p.add_argument("--email", required=True, help="where the set-password link goes")
        p.add_argument("--person", default="", help="for --role owner: the person's id")
        p.add_argument("--first-name", default="")
        p.add_argument("--last-name", default="")
        p.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="the dashboard's address, for the link (default http://127.0.0.1:8000)",
        )
        p = sub.add_parser("list", help="Who logs in to each tenant, with their roles.")
        p.add_argument("--tenant", default="", help="one tenant's slug (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["sub"] == "list":
            self._list(options["tenant"])
            return
        tenant = Tenant.objects.filter(slug=options["tenant"]).first()
        if tenant is None:
            raise CommandError(
                f"No tenant {options['tenant']!r}; `team list` shows the tenants.",
                returncode=EXIT_BAD_INPUT,
            )
        try:
            added, link = team_add(
                actor=Actor.system("team"),
                tenant=tenant,
                role=options["role"],
                person=options["person"] or "",
                username=options["username"],
                email=options["email"],
                first_name=options["first_name"],
                last_name=options["last_name"],
                base_url=options["base_url"],
                added_by="An operator",
            )
        except Refusal as exc:
            raise command_error(exc) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Added {added.user.get_username()} to {tenant.name} as {added.role}."
            )
            + f" The link to set a password went to {added.user.email}; it works once:\n{link}"
        )

    def _list(self, slug: str) -> None:
        tenants = Tenant.objects.filter(slug=slug) if slug else Tenant.objects.all()
        ids = list(tenants.values_list("id", flat=True))
        if slug and not ids:
            raise CommandError(f"No tenant {slug!r}.", returncode=EXIT_BAD_INPUT)
        memberships = members_of(ids)
        owners = dict(
            OwnerAccount.objects.filter(user_id__in={m.user_id for m in memberships}).values_list(
                "user_id", "principal__external_id"
            )
        )
        current = None
        for m in memberships:
            if m.tenant_id != current:
                current = m.tenant_id
                self.stdout.write(f"{m.tenant.name} ({m.tenant.slug})")
            roles = roles_of(m.user) + (
                [f"owner of {owners[m.user_id]}"] if m.user_id in owners else []
            )
            password = "password set" if m.user.has_usable_password() else "no password yet"
            self.stdout.write(
                f"  {m.user.get_username():<20} {', '.join(roles) or 'member'}; {password}"
            )
