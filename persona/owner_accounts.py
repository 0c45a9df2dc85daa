"""Owner accounts: a dashboard login linked to the person (principal) it is, so that
person can curate their own persona document on "My persona" (PRODUCT.md section 3).

A login is linked to at most one person and a person to at most one login. The link
is made only inside one tenant: the login must be a member of the person's tenant.
The command line (``manage.py persona owner link|unlink|list``) and the admin both go
through ``owner_account_link`` / ``owner_account_unlink``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction

from memory.models import Principal
from persona.errors import PersonaError
from persona.models import OwnerAccount
from personaweb.actors import TEAM_MANAGE, Actor
from tenancy.models import Membership, Tenant
from tenancy.team import (
    OWNER,
    MemberAdded,
    TeamRefusal,
    member_add,
    member_invite_send,
    set_password_link,
)

logger = logging.getLogger(__name__)


class OwnerAccountRefusal(PersonaError):
    """The link was refused; nothing changed."""


def owner_user_id(principal_id: int) -> int | None:
    """The id of the login linked to this person (None: no login is)."""
    return (
        OwnerAccount.objects.filter(principal_id=principal_id)
        .values_list("user_id", flat=True)
        .first()
    )


def owner_account_of(user: Any) -> OwnerAccount | None:
    """The link of ``user`` to the person they are, while they are still a member of that
    person's tenant (a superuser always), with the person and tenant (one query)."""
    if not getattr(user, "is_authenticated", False):
        return None
    qs = OwnerAccount.objects.filter(user_id=user.pk).select_related("principal__tenant")
    if not getattr(user, "is_superuser", False):
        qs = qs.filter(principal__tenant__memberships__user_id=user.pk)
    return qs.first()


def owner_account_check(*, user: Any, principal: Principal) -> None:
    """Refuse a link of ``user`` to ``principal`` that breaks a rule (with a sentence
    saying what to do); linking a pair that is already linked is fine."""
    username = user.get_username()
    if not user.is_active:
        raise OwnerAccountRefusal(
            f"The login {username!r} is deactivated; activate it before linking it to a person."
        )
    if not Membership.objects.filter(user=user, tenant_id=principal.tenant_id).exists():
        raise OwnerAccountRefusal(
            f"The login {username!r} is not a member of the tenant {principal.tenant.slug!r} "
            f"that {principal.external_id!r} belongs to; add the membership first."
        )
    mine = OwnerAccount.objects.filter(user=user).select_related("principal").first()
    if mine is not None and mine.principal_id != principal.pk:
        raise OwnerAccountRefusal(
            f"The login {username!r} is already linked to the person "
            f"{mine.principal.external_id!r}; unlink it first."
        )
    theirs = (
        OwnerAccount.objects.filter(principal=principal)
        .exclude(user=user)
        .select_related("user")
        .first()
    )
    if theirs is not None:
        raise OwnerAccountRefusal(
            f"The person {principal.external_id!r} is already linked to the login "
            f"{theirs.user.get_username()!r}; unlink that login first."
        )


def owner_account_link(*, user: Any, principal: Principal) -> tuple[OwnerAccount, bool]:
    """Link ``user`` to ``principal``; returns the link and whether it is new."""
    try:
        with transaction.atomic():
            owner_account_check(user=user, principal=principal)
            account, created = OwnerAccount.objects.get_or_create(user=user, principal=principal)
    except IntegrityError:
        # another link of this login or this person was made at the same moment
        raise OwnerAccountRefusal(
            "The login or the person was linked by someone else just now; look again and retry."
        ) from None
    if created:
        logger.info("login %s linked to principal %s", user.pk, principal.pk)
    return account, created


@transaction.atomic
def owner_account_unlink(*, user: Any) -> OwnerAccount | None:
    """Remove the link of ``user`` (None when there was none). The person's document
    stays; only this login can no longer edit it."""
    account = OwnerAccount.objects.select_for_update().filter(user=user).first()
    if account is None:
        return None
    account.delete()
    logger.info("login %s unlinked from principal %s", user.pk, account.principal_id)
    return account


@transaction.atomic
def owner_add(
    *,
    actor: Actor,
    tenant: Tenant,
    person: str,
    username: str,
    email: str,
    first_name: str = "",
    last_name: str = "",
) -> MemberAdded:
    """Add a login for a person the assistants of ``tenant`` serve (``person``: their id
    as the host knows it), linked to that person so they curate their own persona on
    "My persona". One transaction: a refused link adds no login."""
    actor.require(TEAM_MANAGE, tenant_id=tenant.pk, what="No tenant with that name here.")
    external_id = (person or "").strip()
    if not external_id:
        raise TeamRefusal(
            "Name the person this login is for: their id as the assistants know it (the "
            "People page lists them)."
        )
    principal = (
        Principal.objects.filter(tenant=tenant, external_id=external_id)
        .select_related("tenant")
        .first()
    )
    if principal is None:
        raise TeamRefusal(
            f"No person {external_id!r} in {tenant.name}: use their id as the People page "
            "shows it (a person appears once an assistant has talked with them)."
        )
    added = member_add(
        actor=actor,
        tenant=tenant,
        username=username,
        email=email,
        role=OWNER,
        first_name=first_name or principal.display_name,
        last_name=last_name,
    )
    try:
        owner_account_check(user=added.user, principal=principal)
    except OwnerAccountRefusal as exc:
        raise TeamRefusal(str(exc)) from None
    OwnerAccount.objects.create(user=added.user, principal=principal)
    logger.info("login %s added as the owner of principal %s", added.user.pk, principal.pk)
    return added


def team_add(
    *,
    actor: Actor,
    tenant: Tenant,
    role: str,
    username: str,
    email: str,
    first_name: str = "",
    last_name: str = "",
    person: str = "",
    base_url: str,
    added_by: str,
) -> tuple[MemberAdded, str]:
    """Add someone to ``tenant``'s team (the Team page and ``manage.py team add``): an
    owner of ``person`` (``owner_add``) or an operator or reviewer (``member_add``),
    then e-mail them the one-time link to set a password. Returns what was added and
    that link."""
    fields: dict[str, Any] = {
        "actor": actor,
        "tenant": tenant,
        "username": username,
        "email": email,
        "first_name": first_name,
        "last_name": last_name,
    }
    added = owner_add(person=person, **fields) if role == OWNER else member_add(role=role, **fields)
    link = set_password_link(added.user, base_url=base_url)
    member_invite_send(
        user=added.user, tenant=tenant, role=added.role, added_by=added_by, link=link
    )
    return added, link
