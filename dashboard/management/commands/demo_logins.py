"""Give the demo's people (``dashboard.demo_data.DEMO_USERS``: the reviewers of both
desks, Maya also the owner of her persona) fresh random passwords and print them, so a
local ``make run`` can be tried as each of them. Local demo only: it touches only the
demo's usernames, and only logins ``seed_demo`` made (members of the demo tenants)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from dashboard.demo_data import DEMO_USERS
from persona.models import OwnerAccount
from tenancy.models import Membership


@transaction.atomic
def demo_logins_set() -> list[tuple[str, str, str]]:
    """A new password for each demo login that exists: (username, password, what it is)."""
    users = {
        u.username: u
        for u in get_user_model().objects.filter(
            username__in=[spec.username for spec in DEMO_USERS], is_superuser=False
        )
    }
    members = set(
        Membership.objects.filter(
            user__username__in=list(users), tenant__slug__in={s.tenant_slug for s in DEMO_USERS}
        ).values_list("user__username", "tenant__slug")
    )
    owners = set(
        OwnerAccount.objects.filter(user__username__in=list(users)).values_list(
            "user__username", flat=True
        )
    )
    out = []
    for spec in DEMO_USERS:
        user = users.get(spec.username)
        if user is None or (spec.username, spec.tenant_slug) not in members:
            continue
        password = secrets.token_urlsafe(9)
        user.set_password(password)
        user.save(update_fields=["password"])
        what = spec.group + (
            ", owner of their persona (My persona)" if spec.username in owners else ""
        )
        out.append((spec.username, password, f"{what}; tenant {spec.tenant_slug}"))
    return out


class Command(BaseCommand):
    help = "Set and print fresh passwords for the demo's people (local demo only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="only used in the printed address")
        parser.add_argument(
            "--port", type=int, default=8000, help="only used in the printed address"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        logins = demo_logins_set()
        if not logins:
            self.stdout.write("No demo logins to set (run `manage.py seed_demo` first).")
            return
        url = f"http://{options['host']}:{options['port']}/"
        self.stdout.write(f"The demo's people, at {url} (new passwords each run; local demo only):")
        width = max(len(name) for name, _, _ in logins)
        for name, password, what in logins:
            self.stdout.write(f"  {name:<{width}} / {password}   {what}")
