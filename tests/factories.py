from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth.models import Group, User

from memory.models import Principal
from tenancy.models import Tenant


class TenantFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tenant
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Tenant {n}")
    slug = factory.Sequence(lambda n: f"tenant-{n}")


class PrincipalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Principal

    tenant = factory.SubFactory(TenantFactory)
    external_id = factory.Sequence(lambda n: f"user-{n}")
    display_name = factory.Sequence(lambda n: f"User {n}")


def make_agent(*, tenant: Tenant | None = None, slug: str | None = None, **kwargs):
    """An agent with persona version 1, made through the real service."""
    from persona.services import agent_create

    tenant = tenant or TenantFactory()
    n = make_agent.counter = getattr(make_agent, "counter", 0) + 1
    slug = slug or f"agent-{n}"
    kwargs.setdefault("name", f"Agent {n}")
    kwargs.setdefault("role", "Assistant")
    return agent_create(tenant=tenant, slug=slug, **kwargs)


def make_user(
    username: str, *, role: str | None = None, tenants: list[Tenant] = (), superuser: bool = False
) -> User:
    from tenancy.models import Membership

    if superuser:
        user = User.objects.create_superuser(username=username, password="pw-" + username)
    else:
        user = User.objects.create_user(username=username, password="pw-" + username)
    if role:
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
    for tenant in tenants:
        Membership.objects.create(user=user, tenant=tenant)
    return user


def make_owner(principal: Any, username: str | None = None, **kwargs: Any) -> User:
    """A login linked to ``principal`` (their owner account), a member of their tenant."""
    from persona.owner_accounts import owner_account_link

    user = make_user(
        username or f"{principal.external_id}-login", tenants=[principal.tenant], **kwargs
    )
    owner_account_link(user=user, principal=principal)
    return user
