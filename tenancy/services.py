"""Writes of tenancy: creating tenants and agents."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from personaweb.errors import Refusal
from tenancy.models import Agent, Tenant
from tenancy.signals import agent_created

_SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$")


class TenancyInputError(Refusal):
    """A tenant or agent could not be created as asked; nothing was written."""


def validate_tenant_slug(slug: str) -> str:
    text = (slug or "").strip()
    if not _SLUG.match(text):
        raise TenancyInputError(
            f"{text!r} is not a valid tenant slug: use 1-100 lowercase letters, digits and "
            "hyphens, starting and ending with a letter or digit (for example 'acme-support')."
        )
    return text


def tenant_get_or_create(*, slug: str, name: str = "") -> tuple[Tenant, bool]:
    slug = validate_tenant_slug(slug)
    return Tenant.objects.get_or_create(slug=slug, defaults={"name": name.strip() or slug.title()})


@transaction.atomic
def agent_create(
    *,
    tenant: Tenant,
    name: str,
    slug: str,
    role: str = "",
    goals: str = "",
    background: str = "",
    guardrails: list[str] | None = None,
    multi_tenant: bool = False,
    created_by: str = "",
    source_type: str = "manual",
) -> Agent:
    """Create an agent; the apps above make its persona version 1 and its learning
    settings (receivers of ``agent_created``), in this same transaction."""
    slug = slugify(slug or name)
    if not slug:
        raise TenancyInputError("Give the agent a name or slug made of letters or digits.")
    if Agent.objects.filter(slug=slug).exists():
        raise TenancyInputError(f"An agent with the slug {slug!r} exists already; choose another.")
    agent = Agent.objects.create(
        tenant=tenant, name=name.strip() or slug, slug=slug, multi_tenant=multi_tenant
    )
    persona: dict[str, Any] = {
        "name": name,
        "role": role,
        "goals": goals,
        "background": background,
        "guardrails": list(guardrails or []),
    }
    agent_created.send(
        sender=Agent, agent=agent, persona=persona, created_by=created_by, source_type=source_type
    )
    return agent
