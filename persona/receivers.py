"""Persona's answers to events of the apps below it (connected in PersonaConfig.ready)."""

from __future__ import annotations

from typing import Any

from memory.signals import belief_consolidated, belief_ended, conversation_sealed, text_redacted
from tenancy.signals import agent_created


def _first_version(
    sender: Any, *, agent: Any, persona: dict, created_by: str, source_type: str, **_: Any
) -> None:
    from persona.services import persona_first_version

    persona_first_version(
        agent=agent, persona=persona, created_by=created_by, source_type=source_type
    )


def _nominate(sender: Any, *, belief: Any, now: Any, **_: Any) -> None:
    from persona.owner import nomination_consider

    nomination_consider(belief=belief, now=now)


def _belief_ended(sender: Any, *, belief: Any, reason: str, **_: Any) -> None:
    from persona.owner import on_belief_ended

    on_belief_ended(belief=belief, reason=reason)


def _conversation_sealed(sender: Any, *, conversation: Any, **_: Any) -> None:
    from persona.owner import on_conversation_sealed

    on_conversation_sealed(conversation_id=conversation.pk)


def _text_redacted(sender: Any, **kwargs: Any) -> None:
    from persona.redaction import on_text_redacted

    if sender.__name__ in ("Message", "Belief"):
        kwargs.pop("signal", None)
        on_text_redacted(**kwargs)


def _from_cascade_of(origin: Any, *models: type) -> bool:
    """Whether a deletion started at an instance or queryset of one of ``models``."""
    model = getattr(origin, "model", None) or type(origin)
    return isinstance(model, type) and issubclass(model, models)


def _agent_deleting(sender: Any, *, instance: Any, origin: Any = None, **_: Any) -> None:
    from persona.change_counts import forget_agent
    from tenancy.models import Tenant

    if not _from_cascade_of(origin, Tenant):  # a tenant's counts go with the tenant
        forget_agent(instance.pk)


def _version_deleted(sender: Any, *, instance: Any, origin: Any = None, **_: Any) -> None:
    from persona.change_counts import forget_version
    from tenancy.models import Agent, Tenant

    # an agent's whole history was taken off before it went (``_agent_deleting``)
    if not _from_cascade_of(origin, Agent, Tenant):
        forget_version(instance)


def connect() -> None:
    from django.db.models.signals import post_delete, pre_delete

    from persona.models import AgentPersonaVersion
    from tenancy.models import Agent

    pre_delete.connect(_agent_deleting, sender=Agent, dispatch_uid="persona.change_counts.agent")
    post_delete.connect(
        _version_deleted, sender=AgentPersonaVersion, dispatch_uid="persona.change_counts.version"
    )
    agent_created.connect(_first_version, dispatch_uid="persona.first_version")
    belief_consolidated.connect(_nominate, dispatch_uid="persona.nominate")
    belief_ended.connect(_belief_ended, dispatch_uid="persona.belief_ended")
    conversation_sealed.connect(_conversation_sealed, dispatch_uid="persona.conversation_sealed")
    text_redacted.connect(_text_redacted, dispatch_uid="persona.text_redacted")
