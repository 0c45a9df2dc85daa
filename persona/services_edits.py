"""A person's edits of an agent's persona: edit, revert to a version, undo a manual edit.

Every write goes through ``persona.services.persona_version_create`` (the one writer:
limits, ``safety.checks.check_write``, guardrail contradictions, version numbering).
What this module adds is who may do it and against which version:

- **Who**: an ``Actor`` with ``EDIT_CAPABILITY`` (an operator's login holds it, and a
  host token, whose PATCH writes the same fields) that reaches the agent's tenant
  (another tenant's agent is ``NotReachable``, a 404). A change of the standing rules
  alone may also come from someone who decides proposals (``RULE_CAPABILITIES``):
  whether they are on the agent's rule-owner list is learning's rule
  (``learning.owners.rule_owner_refusal``), which the rules editor asks first.
- **Against which version**: every edit names the version it was made from
  (``base_version``); a save whose base is not the head is refused with
  ``PersonaEditStale``, which carries the head (who saved it, when and why) so the page
  can show both side by side. Nothing is ever written over a version its author did
  not see.
- **Undo of a manual edit** (one rule): a new version that puts back, in the fields
  version N changed, what version N-1 held; refused when a later version changed one of
  those fields again (undo would lose that edit). A revert is a manual edit too, so it
  is undone the same way. Learned changes are undone by ``learning.services.change_undo``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from persona.models import AgentPersonaVersion, SourceType
from persona.services import (
    PERSONA_FIELDS,
    ChangeTrigger,
    PersonaError,
    PersonaInputError,
    PersonaVersionConflict,
    persona_version_create,
)
from personaweb.actors import HOST, LEARNING_DECIDE, Actor
from tenancy.models import Agent

#: what an edit of the persona needs (an operator's login has it)
EDIT_CAPABILITY = HOST
#: what a change of the standing rules alone needs (a rule owner's login has one)
RULE_CAPABILITIES = (HOST, LEARNING_DECIDE)
#: the versions a person's undo takes back (learned ones have their own undo)
MANUAL_SOURCES = frozenset({SourceType.MANUAL, SourceType.UI_FORM, SourceType.REVERT})

FIELD_LABELS = {
    "name": "name",
    "role": "role",
    "goals": "goals",
    "background": "background",
    "guardrails": "guardrails",
    "standing_rules": "standing rules",
}


def fields_phrase(fields: list[str] | tuple[str, ...]) -> str:
    names = [FIELD_LABELS.get(f, f) for f in fields]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class PersonaEditStale(PersonaVersionConflict):
    """A save from a version that is no longer the head. ``head`` is the version saved
    meanwhile (its ``approved_by``, ``created_at`` and ``reason`` say who, when, why)."""

    def __init__(self, *, expected: int, head: AgentPersonaVersion) -> None:
        who = head.approved_by or "someone"
        self.head = head
        super().__init__(expected=expected, current=head.version)
        # one sentence, said once: who saved, which version, why; what happened to yours
        self.args = (
            f"Not saved: {who} saved version {head.version} while you were editing "
            f"version {expected} (“{head.reason}”). Your edit is kept below, beside theirs; "
            f"pick what to keep and save again.",
        )

    def __str__(self) -> str:
        return str(self.args[0])


class UndoNotPossible(PersonaError):
    pass


def _authorise(by: Actor, *, agent: Agent, fields: set[str]) -> None:
    needed: str | tuple[str, ...] = (
        RULE_CAPABILITIES if fields and fields <= {"standing_rules"} else EDIT_CAPABILITY
    )
    by.require(needed, agent=agent)


def _reason(reason: str | None) -> str:
    text = (reason or "").strip()
    if not text:
        raise PersonaInputError(
            "Say why you are making this change; every version records a reason. Nothing was saved."
        )
    return text


def _head(agent: Agent) -> AgentPersonaVersion | None:
    return AgentPersonaVersion.objects.filter(
        agent_id=agent.pk, version=agent.persona_version
    ).first()


def _write(
    *,
    agent: Agent,
    changes: dict[str, Any],
    trigger: ChangeTrigger,
    base_version: int | None,
) -> AgentPersonaVersion:
    if base_version is None:
        raise PersonaInputError(
            "This page does not say which version it was made from; reload it. Nothing was saved."
        )
    try:
        return persona_version_create(
            agent=agent, changes=changes, trigger=trigger, expected_version=base_version
        )
    except PersonaEditStale:
        raise
    except PersonaVersionConflict as exc:
        fresh = Agent.objects.get(pk=agent.pk)
        head = _head(fresh)
        if head is None:
            raise
        raise PersonaEditStale(expected=base_version, head=head) from exc


def persona_edit(
    *,
    agent: Agent,
    by: Actor,
    changes: dict[str, Any],
    reason: str,
    base_version: int | None,
) -> AgentPersonaVersion:
    """An operator's edit of any persona fields (name, role, goals, background,
    guardrails, standing rules), made from ``base_version``; returns the new version.

    Refused (nothing written): no reason, a base that is not the head
    (``PersonaEditStale``), anything ``persona_version_create`` refuses (a limit, unsafe
    text, a contradicted guardrail, nothing changed); ``NotReachable`` for an agent of
    another tenant and ``NotPermitted`` for someone who may not edit.
    """
    _authorise(by, agent=agent, fields=set(changes))
    trigger = ChangeTrigger(
        source_type=SourceType.UI_FORM, reason=_reason(reason), approved_by=by.name
    )
    return _write(agent=agent, changes=changes, trigger=trigger, base_version=base_version)


def persona_version_revert(
    *,
    agent: Agent,
    by: Actor,
    version: int,
    reason: str,
    base_version: int | None,
) -> AgentPersonaVersion:
    """A new version with the whole content of ``version`` (an earlier one), made from
    ``base_version`` with a reason. It is a manual edit, so it can be undone."""
    _authorise(by, agent=agent, fields=set(PERSONA_FIELDS))
    reason = _reason(reason)
    target = AgentPersonaVersion.objects.filter(agent_id=agent.pk, version=version).first()
    if target is None:
        raise PersonaInputError(f"This persona has no version {version}. Nothing was saved.")
    if version == agent.persona_version:
        raise PersonaInputError(
            f"Version {version} is the current version already; there is nothing to revert. "
            "Nothing was saved."
        )
    head = _head(agent)
    changes = {
        f: getattr(target, f)
        for f in PERSONA_FIELDS
        if head is None or getattr(head, f) != getattr(target, f)
    }
    if not changes:
        raise PersonaInputError(
            f"Version {version} holds exactly what the current version holds; there is nothing "
            "to revert. Nothing was saved."
        )
    trigger = ChangeTrigger(
        source_type=SourceType.REVERT,
        reason=f"Reverted to version {version}: {reason}",
        approved_by=by.name,
        restores_version=version,
    )
    return _write(agent=agent, changes=changes, trigger=trigger, base_version=base_version)


def undo_refusal(version: AgentPersonaVersion, later: list[tuple[int, list[str]]]) -> str | None:
    """Why a person's undo of ``version`` is refused, or None when it may go ahead.

    ``later`` is (version, fields_changed) of every version after it. Pure, so the
    timeline can ask it for each row from one query.
    """
    if version.source_type not in MANUAL_SOURCES:
        if version.source_type in (SourceType.PERSONA_LEARNING, SourceType.STANDING_RULE):
            return (
                f"Version {version.version} is a learned change; undo it from the review queue "
                "or the agent page's learned-change undo."
            )
        return (
            f"Version {version.version} was written by {version.get_source_type_display()}, "
            "not by hand; revert to an earlier version instead."
        )
    if version.version <= 1:
        return "Version 1 is where this persona began; there is no earlier content to go back to."
    mine = set(version.fields_changed or [])
    for number, changed in sorted(later):
        again = [f for f in PERSONA_FIELDS if f in mine and f in (changed or [])]
        if again:
            return (
                f"The {fields_phrase(again)} changed again in version {number}, after version "
                f"{version.version}; undoing it would lose that change. Revert to a version "
                "from the timeline instead, or edit by hand."
            )
    return None


@transaction.atomic
def persona_edit_undo(
    *, agent: Agent, by: Actor, version: int, reason: str = ""
) -> AgentPersonaVersion:
    """Undo a manual edit (or a revert): a new version that restores, in the fields
    ``version`` changed, what the version before it held. Refused (``UndoNotPossible``)
    when a later version changed one of those fields again, or ``version`` is not a
    manual edit."""
    locked = Agent.objects.select_for_update().get(pk=agent.pk)
    target = AgentPersonaVersion.objects.filter(agent_id=locked.pk, version=version).first()
    if target is None:
        _authorise(by, agent=locked, fields=set(PERSONA_FIELDS))
        raise PersonaInputError(f"This persona has no version {version}. Nothing was changed.")
    fields = [f for f in PERSONA_FIELDS if f in (target.fields_changed or [])]
    _authorise(by, agent=locked, fields=set(fields) or set(PERSONA_FIELDS))
    later = list(
        AgentPersonaVersion.objects.filter(agent_id=locked.pk, version__gt=version).values_list(
            "version", "fields_changed"
        )
    )
    refusal = undo_refusal(target, later)
    if refusal:
        raise UndoNotPossible(f"{refusal} Nothing was changed.")
    before = AgentPersonaVersion.objects.get(agent_id=locked.pk, version=version - 1)
    why = f"Undid version {version} ({fields_phrase(fields)})"
    extra = (reason or "").strip()
    trigger = ChangeTrigger(
        source_type=SourceType.REVERT,
        reason=f"{why}: {extra}" if extra else f"{why}.",
        approved_by=by.name,
        restores_version=version - 1,
    )
    created = _write(
        agent=locked,
        changes={f: getattr(before, f) for f in fields},
        trigger=trigger,
        base_version=locked.persona_version,
    )
    agent.persona_version = locked.persona_version
    agent.name = locked.name
    return created
