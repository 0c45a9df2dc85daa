"""Create or refresh the local operator login and print it.

The operator is staff (so the admin opens) but not a superuser: what it may do
comes from the ``operator`` group, which holds the permissions of the project's own
apps. It is made a member of every tenant. Each run sets a new random password and
prints it with the address to log in at.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from tenancy.models import Membership, Tenant
from tenancy.team import operator_group


@transaction.atomic
def operator_ensure(*, username: str) -> tuple[User, str]:
    """Create or update ``username`` as the operator login; return it and its new password."""
    group = operator_group()

    user, _ = User.objects.get_or_create(username=username)
    password = secrets.token_urlsafe(12)
    user.set_password(password)
    user.is_staff = True
    user.is_superuser = False
    user.is_active = True
    user.full_clean(exclude=["password"])
    user.save()
    user.groups.add(group)

    have = set(Membership.objects.filter(user=user).values_list("tenant_id", flat=True))
    Membership.objects.bulk_create(
        [
            Membership(user=user, tenant_id=tid)
            for tid in Tenant.objects.values_list("id", flat=True)
            if tid not in have
        ]
    )
    return user, password


class Command(BaseCommand):
    help = (
        "Create or update the operator login (member of every tenant) and print a fresh password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="operator")
        parser.add_argument("--host", default="127.0.0.1", help="only used in the printed address")
        parser.add_argument(
            "--port", type=int, default=8000, help="only used in the printed address"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user, password = operator_ensure(username=options["username"])
        tenants = Membership.objects.filter(user=user).count()
        url = f"http://{options['host']}:{options['port']}/"
        self.stdout.write(
            self.style.SUCCESS(f"Log in at {url} as {user.get_username()} / {password}")
            + f"  (operator in {tenants} tenant{'s' if tenants != 1 else ''}; run again for a new password)"
        )
