"""Who may decide a standing rule: the one rule, used by pages, CLI, API, services and
admin alike.

A standing rule is approved, turned down, undone or written by hand only by a named
person: an account that belongs to the agent's tenant (a superuser belongs to all)
and may review there (a reviewer or an operator). When the agent's ``rule_owners``
list is set, only the people on it; when it is empty, any such person. A name with
no account, the automatic approver, or anyone outside a non-empty list is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model

from personaweb.roles import is_reviewer
from tenancy.access import visible_tenant_ids

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from tenancy.models import Agent

AUTO = "auto"


def rule_owner_names(settings: Any) -> list[str]:
    """The names on an agent's rule_owners list (tolerant of a damaged value)."""
    raw = getattr(settings, "rule_owners", None)
    if not isinstance(raw, list):
        return []
    return [str(n).strip() for n in raw if str(n).strip()]


def owners_phrase(settings: Any) -> str:
    owners = rule_owner_names(settings)
    return ", ".join(owners) if owners else "any reviewer or operator of the agent's tenant"


def learning_settings_of(agent: Agent) -> Any:
    """The agent's LearningSettings row if present, else None (no write)."""
    from learning.models import LearningSettings

    try:
        return agent.learning  # type: ignore[attr-defined]
    except LearningSettings.DoesNotExist:
        return None


def rule_owner_refusal(
    *,
    agent: Agent,
    name: str | None = None,
    user: AbstractBaseUser | AnonymousUser | None = None,
    settings: Any = None,
) -> str | None:
    """Why this person may not decide a standing rule of ``agent``; None when they may.

    Give the signed-in ``user`` (pages, API tokens bound to a user) or a ``name`` (CLI,
    services); a name is looked up as an account.
    """
    if settings is None:
        settings = learning_settings_of(agent)
    if user is None:
        name = (name or "").strip()
        if not name or name.casefold() == AUTO:
            return (
                "A standing rule is decided by a named person, not the automatic approver; "
                "give your user name."
            )
        user = get_user_model().objects.filter(username__iexact=name, is_active=True).first()
        if user is None:
            return f"No account is called {name!r}; a standing rule is decided by a person with an account."
    if not user.is_authenticated:
        return "Sign in: a standing rule is decided by a named person."
    username = user.get_username()
    tids = visible_tenant_ids(user)
    if not is_reviewer(user) or (tids is not None and agent.tenant_id not in tids):
        return (
            f"{username} may not review for this agent's tenant; a standing rule is decided "
            "by a reviewer or operator of that tenant."
        )
    owners = rule_owner_names(settings)
    if owners and username.casefold() not in {o.casefold() for o in owners}:
        return f"Only a rule owner ({', '.join(owners)}) may decide a standing rule; {username} is not one."
    return None


def is_rule_owner(
    user: AbstractBaseUser | AnonymousUser, agent: Agent, settings: Any = None
) -> bool:
    return rule_owner_refusal(agent=agent, user=user, settings=settings) is None
