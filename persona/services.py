"""Writes to agent personas. Every change, whoever makes it, goes through
``persona_version_create``: one rule, one place."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from persona.change_counts import count_version
from persona.errors import PersonaError
from persona.guardrails import guardrail_contradiction
from persona.models import GUARDRAIL_WRITERS, AgentPersonaVersion, SourceType
from persona.signals import persona_changed
from persona.tasks import schedule_scan_warmup
from safety.checks import KINDS, SecretFound, check_write
from tenancy.models import Agent
from tenancy.services import agent_create as tenancy_agent_create

__all__ = ["PersonaError", "SecretFound"]

MAX_GUARDRAILS = 12
MAX_GUARDRAIL_CHARS = 240
MAX_RULES = 8
MAX_RULE_CHARS = 200
MAX_LEARNED_FIELD_CHARS = 1_500  # goals/background stop growing by learning here
MAX_FIELD_CHARS = 6_000  # an operator's own edit of goals/background
MAX_NAME_CHARS = 200
MAX_ROLE_CHARS = 500
MAX_REASON_CHARS = 500
WRITE_ATTEMPTS = 3  # for writers without expected_version (see persona_version_create)

PERSONA_FIELDS = ("name", "role", "goals", "background", "guardrails", "standing_rules")
TEXT_FIELDS = ("name", "role", "goals", "background")
LIST_FIELDS = ("guardrails", "standing_rules")
#: Sources that may write standing rules (approval of a rule proposal, or by hand).
RULE_WRITERS = frozenset(
    {
        SourceType.HOST,
        SourceType.MANUAL,
        SourceType.UI_FORM,
        SourceType.STANDING_RULE,
        SourceType.REVERT,
    }
)
LEARNING_SOURCES = frozenset({SourceType.PERSONA_LEARNING, SourceType.UPDATE_PERSONA})


class PersonaInputError(PersonaError):
    pass


class GuardrailWriteRefused(PersonaError):
    def __init__(self, source_type: str) -> None:
        super().__init__(
            f"Guardrails can only be changed by host code or an operator (sources host, manual, ui_form); "
            f"a {source_type} change may not write them. Nothing was saved."
        )


class GuardrailContradicted(PersonaInputError):
    """A persona field says what a guardrail forbids (``persona.guardrails``)."""

    def __init__(self, *, field: str, reason: str) -> None:
        self.field = field
        super().__init__(
            f"The {field} field {reason}. Change the {field} or the guardrail; nothing was saved."
        )


class PersonaVersionConflict(PersonaError):
    def __init__(self, *, expected: int | None, current: int) -> None:
        self.expected = expected
        self.current = current
        if expected is None:
            msg = f"Someone else saved this persona at the same moment (it is now at version {current}). Reload and try again."
        else:
            msg = f"This persona changed since you loaded it (you edited version {expected}, it is now at version {current}). Reload and apply your change again."
        super().__init__(msg)


@dataclass(frozen=True)
class ChangeTrigger:
    source_type: str
    reason: str
    approved_by: str = ""
    evidence: list[dict[str, Any]] = field(default_factory=list)
    proposal_id: int | None = None
    #: for a learned goals/background sentence: {"field", "sentence", "note"}, where the
    #: note is a reason with no user words in it (rendered in the prompt)
    learned: dict[str, str] | None = None
    #: a revert or undo: the version whose content this change restores
    restores_version: int | None = None


_SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)\s+\S")


def is_one_sentence(text: str) -> bool:
    return _SENTENCE_END.search(text.strip()) is None


def _clean_list(value: Any, *, what: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise PersonaInputError(f"The {what} must be a list of texts.")
    items = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, str):
            raise PersonaInputError(f"{what.capitalize()} {i} is not text.")
        item = " ".join(item.split())
        if not item:
            raise PersonaInputError(f"{what.capitalize()} {i} is empty; remove it or write it out.")
        items.append(item)
    lowered = [i.casefold() for i in items]
    if len(set(lowered)) != len(lowered):
        raise PersonaInputError(f"The same {what[:-1]} appears twice; keep one.")
    return items


def _validate_items(
    value: Any, *, what: str, one: str, max_items: int, max_chars: int, advice: str
) -> list[str]:
    """A list field: at most ``max_items`` items of at most ``max_chars`` characters."""
    count = len(value) if isinstance(value, list | tuple) else 0
    if count > max_items:  # checked first: the count is the limit a person hit
        raise PersonaInputError(
            f"A persona holds at most {max_items} {what}; this change has {count}. {advice}"
        )
    items = _clean_list(value, what=what)
    for i, item in enumerate(items, start=1):
        if len(item) > max_chars:
            raise PersonaInputError(
                f"{one} {i} is {len(item)} characters long; the limit is {max_chars}. Shorten it."
            )
    return items


def validate_guardrails(value: Any) -> list[str]:
    return _validate_items(
        value,
        what="guardrails",
        one="Guardrail",
        max_items=MAX_GUARDRAILS,
        max_chars=MAX_GUARDRAIL_CHARS,
        advice="Remove or merge some.",
    )


def validate_rules(value: Any) -> list[str]:
    items = _validate_items(
        value,
        what="standing rules",
        one="Standing rule",
        max_items=MAX_RULES,
        max_chars=MAX_RULE_CHARS,
        advice="Remove one first.",
    )
    for i, item in enumerate(items, start=1):
        if not is_one_sentence(item):
            raise PersonaInputError(
                f"Standing rule {i} is more than one sentence; a rule is one sentence."
            )
    return items


def _validate_text(name: str, value: Any, *, source_type: str) -> str:
    if not isinstance(value, str):
        raise PersonaInputError(f"The {name} must be text.")
    value = value.strip()
    if name == "name":
        if not value:
            raise PersonaInputError("The name is empty; an agent needs a name.")
        limit = MAX_NAME_CHARS
    elif name == "role":
        limit = MAX_ROLE_CHARS
    elif source_type in LEARNING_SOURCES:
        limit = MAX_LEARNED_FIELD_CHARS
    else:
        limit = MAX_FIELD_CHARS
    if len(value) > limit:
        raise PersonaInputError(
            f"The {name} is {len(value):,} characters long; the limit is {limit:,}."
        )
    return value


def validate_changes(*, changes: dict[str, Any], trigger: ChangeTrigger) -> dict[str, Any]:
    """Check a change against every limit and safety rule; returns cleaned values."""
    if trigger.source_type not in SourceType.values:
        raise PersonaInputError(f"Unknown source type {trigger.source_type!r}.")
    if not trigger.reason or not trigger.reason.strip():
        raise PersonaInputError(
            "Give a reason for this change; every version records why it was made."
        )
    if len(trigger.reason) > MAX_REASON_CHARS:
        raise PersonaInputError(
            f"The reason is {len(trigger.reason)} characters long; the limit is {MAX_REASON_CHARS}."
        )
    unknown = sorted(set(changes) - set(PERSONA_FIELDS))
    if unknown:
        raise PersonaInputError(
            f"Unknown persona field(s): {', '.join(unknown)}. Fields are {', '.join(PERSONA_FIELDS)}."
        )
    if "guardrails" in changes and trigger.source_type not in GUARDRAIL_WRITERS:
        raise GuardrailWriteRefused(trigger.source_type)
    if "standing_rules" in changes and trigger.source_type not in RULE_WRITERS:
        raise PersonaInputError(
            f"Standing rules are written by a rule owner (approving a proposal or by hand); a {trigger.source_type} change may not write them."
        )
    cleaned: dict[str, Any] = {}
    for name, value in changes.items():
        if name == "guardrails":
            cleaned[name] = validate_guardrails(value)
        elif name == "standing_rules":
            cleaned[name] = validate_rules(value)
        else:
            cleaned[name] = _validate_text(name, value, source_type=trigger.source_type)
    # Every text of the change passes the one write check (secrets, the word patterns
    # and the learned layer, waited for): a guardrail or field the scan would block at
    # render is refused here, with the reason, on every surface.
    for name, value in cleaned.items():
        if isinstance(value, list):
            kind = "guardrail" if name == "guardrails" else "standing_rule"
            for i, text in enumerate(value, start=1):
                check_write(text, kind, field=f"{KINDS[kind].label} {i}")
        else:
            check_write(value, name)
    check_write(trigger.reason, "reason")
    return cleaned


def persona_snapshot(version: AgentPersonaVersion | None) -> dict[str, Any]:
    if version is None:
        return {
            "name": "",
            "role": "",
            "goals": "",
            "background": "",
            "guardrails": [],
            "standing_rules": [],
        }
    return {f: getattr(version, f) for f in PERSONA_FIELDS}


def persona_version_create(
    *,
    agent: Agent,
    changes: dict[str, Any],
    trigger: ChangeTrigger,
    expected_version: int | None = None,
) -> AgentPersonaVersion:
    """Write the next persona version of ``agent`` with ``changes`` applied.

    ``expected_version`` (when given) must be the current head, else
    ``PersonaVersionConflict`` and nothing is written. Two concurrent writers can never
    both make version N: the agent row is locked for the write and the
    (agent, version) unique constraint backs it up. A writer that still collides is
    retried (up to ``WRITE_ATTEMPTS``) when it gave no ``expected_version``, and gets
    ``PersonaVersionConflict`` when it did. Waiting learning proposals are dropped (the persona
    they were made against is gone), except the proposal this change applies.
    """
    cleaned = validate_changes(changes=changes, trigger=trigger)
    # A writer without expected_version applies its fields to whatever head it finds,
    # so a unique-constraint collision (possible only where the row lock is not
    # honoured) is safe to retry; a writer with expected_version gets the conflict.
    attempts = WRITE_ATTEMPTS if expected_version is None else 1
    for attempt in range(1, attempts + 1):
        try:
            return _persona_version_write(
                agent=agent, cleaned=cleaned, trigger=trigger, expected_version=expected_version
            )
        except PersonaVersionConflict:
            if attempt == attempts or expected_version is not None:
                raise
    raise AssertionError("unreachable")


def _persona_version_write(
    *,
    agent: Agent,
    cleaned: dict[str, Any],
    trigger: ChangeTrigger,
    expected_version: int | None,
) -> AgentPersonaVersion:
    try:
        with transaction.atomic():
            locked = Agent.objects.select_for_update().get(pk=agent.pk)
            current = locked.persona_version
            if expected_version is not None and expected_version != current:
                raise PersonaVersionConflict(expected=expected_version, current=current)
            head = (
                AgentPersonaVersion.objects.filter(agent=locked, version=current).first()
                if current
                else None
            )
            state = persona_snapshot(head)
            if not state["name"]:
                state["name"] = locked.name
            changed = [f for f in PERSONA_FIELDS if f in cleaned and cleaned[f] != state[f]]
            if not changed and head is not None:
                raise PersonaInputError(
                    "Nothing changed: every field is already as given. Nothing was saved."
                )
            state.update(cleaned)
            learned = _learned_still_standing(head, state, trigger)
            if head is None:
                changed = [f for f in PERSONA_FIELDS if state[f]]
            _refuse_guardrail_contradictions(state, changed)
            version = AgentPersonaVersion(
                agent=locked,
                version=current + 1,
                source_type=trigger.source_type,
                reason=trigger.reason.strip(),
                approved_by=trigger.approved_by,
                evidence=trigger.evidence,
                proposal_id=trigger.proposal_id,
                fields_changed=changed,
                restores_version=trigger.restores_version,
                learned=learned,
                **state,
            )
            version.full_clean(validate_unique=False, validate_constraints=False)
            version.save()
            count_version(version, tenant_id=locked.tenant_id)
            Agent.objects.filter(pk=locked.pk).update(
                persona_version=version.version, name=state["name"]
            )
            agent.persona_version = version.version
            agent.name = state["name"]
            persona_changed.send(
                sender=AgentPersonaVersion,
                agent=locked,
                version=version.version,
                trigger=trigger,
                fields_changed=changed,
            )
            transaction.on_commit(lambda: schedule_scan_warmup(version.pk))
            return version
    except IntegrityError as exc:
        current = (
            Agent.objects.filter(pk=agent.pk).values_list("persona_version", flat=True).first() or 0
        )
        raise PersonaVersionConflict(expected=expected_version, current=current) from exc


def _refuse_guardrail_contradictions(state: dict[str, Any], changed: list[str]) -> None:
    """Every text field this change writes, from any source, against the guardrails the
    new version holds. A change of guardrails alone is not refused: an operator
    tightening the guardrails is told by the next write of the field that contradicts one."""
    for name in TEXT_FIELDS:
        if name in changed:
            reason = guardrail_contradiction(state[name], list(state["guardrails"] or []))
            if reason:
                raise GuardrailContradicted(field=name, reason=reason)


def _learned_still_standing(
    head: AgentPersonaVersion | None, state: dict[str, Any], trigger: ChangeTrigger
) -> list[dict[str, str]]:
    """The learned-sentence notes that still apply after this change (an edit or undo
    that removes a sentence removes its note), plus the one this change adds."""
    kept = [
        entry
        for entry in (head.learned if head is not None else [])
        if entry.get("sentence") and entry["sentence"] in (state.get(entry.get("field", "")) or "")
    ]
    if trigger.learned:
        entry = {k: str(trigger.learned.get(k, "")) for k in ("field", "sentence", "note")}
        if entry["field"] not in ("goals", "background") or entry["sentence"] not in state.get(
            entry["field"], ""
        ):
            raise PersonaInputError("A learned note must name a goals/background sentence it adds.")
        kept.append(entry)
    return kept


def persona_first_version(
    *, agent: Agent, persona: dict[str, Any], created_by: str, source_type: str
) -> None:
    """Version 1 of a new agent (receiver of tenancy's ``agent_created``)."""
    persona_version_create(
        agent=agent,
        changes=persona,
        trigger=ChangeTrigger(
            source_type=source_type, reason="Agent created", approved_by=created_by
        ),
        expected_version=0,
    )


#: Agents are created by tenancy; this name stays for the callers that create one
#: with its first persona.
agent_create = tenancy_agent_create
