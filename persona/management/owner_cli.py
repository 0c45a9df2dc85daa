"""``manage.py persona owner ...``: which login is which person (for "My persona").

``link USERNAME --tenant T --principal P`` links a login to a person of tenant T (the
login must be a member of T); ``unlink USERNAME`` removes its link; ``list [--tenant
T]`` prints the links. A refusal exits 2 with one sentence; nothing changes.
"""

from __future__ import annotations

from typing import Any

from personaweb.cli import command_error


def add_parser(sub: Any) -> None:
    owner = sub.add_parser(
        "owner", help="Link a login to the person it is (their My persona page), or unlink it."
    )
    actions = owner.add_subparsers(dest="owner_action", required=True, metavar="ACTION")
    p = actions.add_parser("link", help="Link USERNAME to a person of the tenant.")
    p.add_argument("username")
    p.add_argument("--tenant", required=True, help="tenant slug")
    p.add_argument("--principal", required=True, help="the person's external id")
    p = actions.add_parser("unlink", help="Remove the link of USERNAME.")
    p.add_argument("username")
    p = actions.add_parser("list", help="Every link, or those of one tenant.")
    p.add_argument("--tenant", default="", help="tenant slug")


def _tenant(slug: str) -> Any:
    from tenancy.models import Tenant

    tenant = Tenant.objects.filter(slug=slug).first()
    if tenant is None:
        raise command_error(f"No tenant with the slug {slug!r}.")
    return tenant


def run(out: Any, options: dict[str, Any]) -> None:
    from django.contrib.auth import get_user_model

    from persona.models import OwnerAccount
    from persona.owner_accounts import owner_account_link, owner_account_unlink

    def write(text: str) -> None:
        out.write(text, ending="\n")

    action = options["owner_action"]
    if action == "list":
        rows = OwnerAccount.objects.select_related("user", "principal__tenant").order_by(
            "principal__tenant__slug", "principal__external_id"
        )
        if options.get("tenant"):
            rows = rows.filter(principal__tenant=_tenant(options["tenant"]))
        for row in rows:
            write(
                f"{row.user.get_username()}  ->  {row.principal.external_id} "
                f"in {row.principal.tenant.slug}"
            )
        return
    username = options["username"]
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise command_error(f"No login {username!r}; create it first (admin, Users).")
    if action == "unlink":
        if owner_account_unlink(user=user) is None:
            write(f"{username} was not linked to a person; nothing changed.")
        else:
            write(f"{username} is no longer linked to a person.")
        return
    tenant = _tenant(options["tenant"])
    principal = tenant.principals.filter(external_id=options["principal"]).first()
    if principal is None:
        raise command_error(
            f"No person {options['principal']!r} in the tenant {tenant.slug!r}; "
            "check the external id (the People page lists them)."
        )
    _, created = owner_account_link(user=user, principal=principal)
    verb = "is now linked" if created else "was already linked"
    write(
        f"{username} {verb} to {principal.external_id} in {tenant.slug}; "
        "they edit their persona document on My persona."
    )
