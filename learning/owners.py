"""Who may decide a proposal and who may decide a standing rule: the one rule, used
by pages, CLI, API, services and admin alike.

A proposal is decided by a named person: an active account that belongs to the
agent's tenant (a superuser belongs to all) and may review there (a reviewer or an
operator); through a token, only one bound to such a person and carrying
``learning.decide``. A standing rule is approved, turned down, undone or written by
hand only by such a person who, when the agent's ``rule_owners`` list is set, is on
it. A name with no account, the automatic approver, or anyone outside a non-empty
list is refused.

``decide_refusal`` / ``may_decide`` answer for an ``Actor`` and a proposal; pages ask
them only to draw buttons (the services refuse on their own). They run no query when
the proposal's ``agent__learning`` is selected with it and the actor is built once per
request (``tenancy.access.actor_for_user``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model

from personaweb.actors import LEARNING_DECIDE, Actor
from personaweb.roles import is_reviewer
from tenancy.access import visible_tenant_ids

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from learning.models import Proposal
    from tenancy.models import Agent

RULE = "rule"  # Proposal.Kind.RULE (models import late: owners is imported by models' users)

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


def deciders_sentence(*, kind: str, settings: Any) -> str:
    """Who decides a proposal of ``kind``, for a page that draws no buttons."""
    owners = rule_owner_names(settings)
    if kind == RULE and owners:
        return f"Only its rule owners ({', '.join(owners)}) decide this rule."
    what = "rule" if kind == RULE else "proposal"
    return f"A reviewer or operator of the agent's tenant decides this {what}."


def yours_sentence(*, kind: str, settings: Any) -> str:
    """Why a person who may decide a proposal of ``kind`` may (said on its card)."""
    owners = rule_owner_names(settings)
    if kind == RULE and owners:
        return f"You are one of its rule owners ({', '.join(owners)})."
    return "Any reviewer or operator of the agent's tenant may decide it, you among them."


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
    refusal = reviewer_refusal(user=user, agent=agent, what="a standing rule")
    if refusal:
        return refusal
    username = user.get_username()
    owners = rule_owner_names(settings)
    if owners and username.casefold() not in {o.casefold() for o in owners}:
        return f"Only a rule owner ({', '.join(owners)}) may decide a standing rule; {username} is not one."
    return None


def reviewer_refusal(
    *, user: AbstractBaseUser | AnonymousUser, agent: Agent, what: str = "a proposal"
) -> str | None:
    """Why ``user`` may not review for ``agent``'s tenant (signed in, active, a reviewer
    or operator, a member of the tenant); None when they may."""
    if not user.is_authenticated:
        return f"Sign in: {what} is decided by a named person."
    username = user.get_username()
    if not getattr(user, "is_active", True):
        return f"{username} is not an active account; {what} is decided by an active one."
    tids = visible_tenant_ids(user)
    if not is_reviewer(user) or (tids is not None and agent.tenant_id not in tids):
        return (
            f"{username} may not review for this agent's tenant; {what} is decided "
            "by a reviewer or operator of that tenant."
        )
    return None


def decide_refusal(
    actor: Actor, *, agent: Agent, kind: str | None, settings: Any = None
) -> str | None:
    """Why ``actor`` may not decide a proposal of ``kind`` for ``agent`` (approve, turn
    down, undo); None when they may. The one rule (see the module docstring)."""
    if actor.kind == "system":
        # beat's automatic approval; a standing rule still needs a named person
        return rule_owner_refusal(agent=agent, name="", settings=settings) if kind == RULE else None
    if actor.user is None:
        return "Decisions need a token bound to a person (--user); this one is not."
    if not actor.reaches_agent(agent):
        return f"{actor.name} may not decide for this agent: it belongs to another tenant."
    if not actor.may(LEARNING_DECIDE):
        return actor.missing_sentence((LEARNING_DECIDE,))
    if kind == RULE:
        return rule_owner_refusal(agent=agent, user=actor.user, settings=settings)
    return reviewer_refusal(user=actor.user, agent=agent)


def may_decide(actor: Actor, proposal: Proposal) -> bool:
    """Whether ``actor`` may decide ``proposal``: what pages ask to draw its buttons."""
    return (
        decide_refusal(
            actor,
            agent=proposal.agent,
            kind=proposal.kind,
            settings=learning_settings_of(proposal.agent),
        )
        is None
    )


def is_rule_owner(
    user: AbstractBaseUser | AnonymousUser, agent: Agent, settings: Any = None
) -> bool:
    return rule_owner_refusal(agent=agent, user=user, settings=settings) is None
