"""Persona's part of the memory health check (registered in ``PersonaConfig.ready``):
beliefs that restate the assistant's own persona or a guardrail, and persona lines or
owner-document entries that today's safety scan blocks."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.db.models import F

from memory.audit import (
    EDIT_PERSONA,
    MAX_FINDINGS_PER_KIND,
    RETIRE,
    AuditContext,
    Finding,
    register_check,
)
from memory.models_beliefs import Belief
from persona.models import AgentPersonaVersion
from persona.models_owner import OwnerDocument, OwnerEntry
from safety.text import content_words

#: a belief sharing this much of a persona line's content words restates it
RESTATES_OVERLAP = 0.75
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def persona_lines(version: AgentPersonaVersion) -> list[tuple[str, str]]:
    """``(field, line)`` for every line of a persona version a host reads."""
    lines: list[tuple[str, str]] = []
    for name in ("goals", "background"):
        for sentence in _SENTENCE_END.split(getattr(version, name) or ""):
            if sentence.strip():
                lines.append((name, sentence.strip()))
    for name in ("guardrails", "standing_rules"):
        for item in getattr(version, name) or []:
            text = item.get("text", "") if isinstance(item, dict) else str(item)
            if text.strip():
                lines.append((name, text.strip()))
    return lines


def _heads(ctx: AuditContext) -> list[AgentPersonaVersion]:
    return list(
        AgentPersonaVersion.objects.filter(
            ctx.tenant_filter("agent__tenant_id"), version=F("agent__persona_version")
        ).select_related("agent")
    )


def _overlap(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def restates_persona(ctx: AuditContext) -> Iterable[Finding]:
    """A belief about a person that says what the assistant's persona already says (a
    guardrail or a line of its goals or background): memory learned the prompt back."""
    heads = {v.agent_id: v for v in _heads(ctx)}
    lines = {
        agent_id: [(f, line, content_words(line)) for f, line in persona_lines(v)]
        for agent_id, v in heads.items()
    }
    beliefs = (
        Belief.objects.filter(
            ctx.tenant_filter(), status=Belief.Status.ACTIVE, agent_id__in=list(heads)
        )
        .order_by("id")
        .values_list("id", "tenant_id", "principal_id", "agent_id", "statement")
    )
    for bid, tenant_id, principal_id, agent_id, statement in beliefs.iterator():
        words = content_words(statement)
        if len(words) < 2:
            continue
        for name, line, line_words in lines.get(agent_id, []):
            if len(line_words) >= 2 and _overlap(words, line_words) >= RESTATES_OVERLAP:
                what = "a guardrail" if name == "guardrails" else f"its {name.replace('_', ' ')}"
                yield Finding(
                    kind="restates_persona",
                    subject="belief",
                    subject_id=bid,
                    tenant_id=tenant_id,
                    principal_id=principal_id,
                    agent_id=agent_id,
                    text=statement,
                    detail=f"Restates {what} of {heads[agent_id].agent.name}: “{line[:120]}”.",
                    remedies=(RETIRE,),
                )
                break


def blocked_persona_text(ctx: AuditContext) -> Iterable[Finding]:
    """Persona lines and owner-document entries stored before the scan changed that
    today's scan blocks (the renders already withhold them; this says where they are)."""
    if not ctx.scan:
        return
    from safety.checks import verdicts

    items: list[tuple[str, int, int, int | None, int | None, str]] = []
    for head in _heads(ctx):
        for _name, line in persona_lines(head):
            items.append(("persona_line", head.pk, head.agent.tenant_id, None, head.agent_id, line))
    documents = OwnerDocument.objects.filter(ctx.tenant_filter(), version__gt=0)
    entries = OwnerEntry.objects.filter(
        version__document__in=documents,
        version__version=F("version__document__version"),
    ).values_list("id", "version__document__tenant_id", "version__document__principal_id", "text")
    for eid, entry_tenant, entry_principal, text in entries[: MAX_FINDINGS_PER_KIND * 50]:
        items.append(("owner_entry", eid, entry_tenant, entry_principal, None, text))
    results = verdicts([item[5] for item in items], wait=True)
    for (subject, sid, tenant_id, principal_id, agent_id, _text), verdict in zip(
        items, results, strict=True
    ):
        if verdict.blocked:
            yield Finding(
                kind="blocked_persona",
                subject=subject,
                subject_id=sid,
                tenant_id=tenant_id,
                principal_id=principal_id,
                agent_id=agent_id,
                text=verdict.placeholder,
                detail="Today's safety scan blocks this line: " + ", ".join(verdict.ids) + ".",
                remedies=(EDIT_PERSONA,) if subject == "persona_line" else (),
            )


def register() -> None:
    register_check(
        "restates_persona",
        title="Beliefs that restate the persona",
        remedy="Retire them: the assistant's own persona already says it.",
        run=restates_persona,
    )
    register_check(
        "blocked_persona",
        title="Persona and owner lines today's scan blocks",
        remedy="Edit the line; until then no prompt carries it.",
        run=blocked_persona_text,
    )
