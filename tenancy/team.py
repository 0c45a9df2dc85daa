"""The people of a tenant's team: operators and reviewers (the groups of
``personaweb.roles``), and the logins linked to a person (owners, made in
``persona.owner_accounts.owner_add`` on top of ``member_add`` here).

An operator adds someone with a role from the Team page or ``manage.py team add``; the
new login has no password until its person sets one through Django's password reset
flow (``set_password_link``, sent by ``member_invite_send``), so nobody else ever
knows it. Roles are groups and apply in every tenant a login belongs to, so a login
that exists already is never given a role here: a role granted for one tenant would
reach the login's other tenants too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from personaweb.actors import TEAM_MANAGE, Actor
from personaweb.errors import Refusal
from personaweb.roles import OPERATOR, REVIEWER
from tenancy.models import Membership, Tenant

logger = logging.getLogger(__name__)

#: the roles a person can be given on the Team page and by ``manage.py team add``
OWNER = "owner"
TEAM_ROLES: dict[str, str] = {
    OPERATOR: "operator: edits the assistants, their guardrails and memory, and the team",
    REVIEWER: "reviewer: approves or turns down what the assistants learn",
    OWNER: "owner: a person the assistants serve, who curates their own persona",
}
#: the apps whose permissions the operator group holds (the admin opens for operators)
PROJECT_APPS = ("tenancy", "memory", "persona", "learning", "personaweb")
MAX_USERNAME_CHARS = 150


class TeamRefusal(Refusal):
    """Nobody was added; the sentence says what to change."""


def operator_group() -> Group:
    """The ``operator`` group with the permissions of the project's own apps."""
    group, _ = Group.objects.get_or_create(name=OPERATOR)
    group.permissions.add(*Permission.objects.filter(content_type__app_label__in=PROJECT_APPS))
    return group


@dataclass(frozen=True)
class MemberAdded:
    user: Any
    tenant: Tenant
    role: str


def _clean_username(username: str) -> str:
    user_model = get_user_model()
    name = (username or "").strip()
    if not name:
        raise TeamRefusal("Give the new person a username (letters, digits and @ . + - _).")
    if len(name) > MAX_USERNAME_CHARS:
        raise TeamRefusal(f"A username is at most {MAX_USERNAME_CHARS} characters; shorten it.")
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    try:
        for validator in getattr(field, "validators", ()):
            validator(name)
    except ValidationError:
        raise TeamRefusal(
            f"{name!r} is not a valid username: use letters, digits and @ . + - _ only."
        ) from None
    if user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": name}).exists():
        raise TeamRefusal(
            f"The login {name!r} exists already; choose another username. (Roles apply in "
            "every tenant of a login, so an existing login gets a new tenant or role only "
            "from a superuser, in the admin.)"
        )
    return name


def _clean_email(email: str) -> str:
    address = (email or "").strip()
    if not address:
        raise TeamRefusal(
            "Give the new person's e-mail address: the link to set their password goes there."
        )
    try:
        validate_email(address)
    except ValidationError:
        raise TeamRefusal(
            f"{address!r} is not an e-mail address; write it as name@example.org."
        ) from None
    return address


@transaction.atomic
def member_add(
    *,
    actor: Actor,
    tenant: Tenant,
    username: str,
    email: str,
    role: str,
    first_name: str = "",
    last_name: str = "",
) -> MemberAdded:
    """Make a login for a new person in ``tenant`` with ``role`` (operator, reviewer, or
    owner: a plain member here; ``persona.owner_accounts.owner_add`` links it to the
    person). It has no usable password until its person sets one (``set_password_link``).

    Refuses (``TeamRefusal``) a missing or taken username, a missing e-mail address or an
    unknown role; ``NotReachable`` (404) for a tenant the actor does not reach, then
    ``NotPermitted`` (403) when the actor may not manage the team."""
    actor.require(TEAM_MANAGE, tenant_id=tenant.pk, what="No tenant with that name here.")
    if role not in TEAM_ROLES:
        raise TeamRefusal(f"Choose a role: {', '.join(TEAM_ROLES)}.")
    name = _clean_username(username)
    address = _clean_email(email)
    user_model = get_user_model()
    user = user_model(username=name, email=address)
    user.first_name = (first_name or "").strip()[:150]
    user.last_name = (last_name or "").strip()[:150]
    user.set_unusable_password()
    # the admin opens for operators (its pages are tenant-scoped: tenancy.admin_base)
    user.is_staff = role == OPERATOR
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        raise TeamRefusal(" ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        raise TeamRefusal(
            f"The login {name!r} was made by someone else just now; choose another username."
        ) from None
    if role == OPERATOR:
        user.groups.add(operator_group())
    elif role == REVIEWER:
        user.groups.add(Group.objects.get_or_create(name=REVIEWER)[0])
    Membership.objects.create(user=user, tenant=tenant)
    logger.info("login %s added to tenant %s as %s by %s", user.pk, tenant.pk, role, actor.name)
    return MemberAdded(user=user, tenant=tenant, role=role)


def set_password_link(user: Any, *, base_url: str) -> str:
    """The one-time address where ``user`` sets a password: Django's password reset
    confirmation (valid for ``PASSWORD_RESET_TIMEOUT``, used up once a password is set)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
    return base_url.rstrip("/") + path


def member_invite_send(*, user: Any, tenant: Tenant, role: str, added_by: str, link: str) -> None:
    """E-mail ``user`` the link to set their password (``EMAIL_BACKEND``; the console by
    default, so a local run prints it)."""
    context = {
        "user": user,
        "tenant": tenant,
        "role": role,
        "added_by": added_by,
        "link": link,
        "days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86_400),
    }
    subject = f"You were added to {tenant.name} on personaweb"
    body = render_to_string("registration/invite_email.txt", context)
    send_mail(subject, body, None, [user.email])


def members_of(tenant_ids: list[int] | None) -> list[Membership]:
    """The memberships of these tenants (None: every tenant) with their login and its
    groups, by tenant then username (three queries)."""
    qs = Membership.objects.select_related("user", "tenant").prefetch_related("user__groups")
    if tenant_ids is not None:
        qs = qs.filter(tenant_id__in=tenant_ids)
    return list(qs.order_by("tenant__name", "tenant_id", "user__username"))


def roles_of(user: Any) -> list[str]:
    """The roles of a login, from its prefetched groups."""
    names = {g.name for g in user.groups.all()}
    return [r for r in (OPERATOR, REVIEWER) if r in names]
