"""Learning's part of the memory health check (registered in ``LearningConfig.ready``):
learned persona lines still in the prompt whose evidence is gone (every quoted message
sealed or deleted). Without provenance a line cannot be defended; the remedy is to undo
the proposal that added it, from the review log."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F

from learning.models import Proposal
from memory.audit import EDIT_PERSONA, AuditContext, Finding, register_check
from memory.models import Message
from persona.models import AgentPersonaVersion


def _message_ids(evidence: object) -> list[int]:
    if not isinstance(evidence, list):
        return []
    return [
        e["message_id"]
        for e in evidence
        if isinstance(e, dict) and isinstance(e.get("message_id"), int)
    ]


def learned_lines_without_evidence(ctx: AuditContext) -> Iterable[Finding]:
    applied = list(
        Proposal.objects.filter(
            ctx.tenant_filter("agent__tenant_id"), status=Proposal.Status.APPLIED
        ).select_related("agent")
    )
    if not applied:
        return
    heads = {
        v.agent_id: v
        for v in AgentPersonaVersion.objects.filter(
            agent_id__in={p.agent_id for p in applied}, version=F("agent__persona_version")
        )
    }
    wanted = {mid for p in applied for mid in _message_ids(p.evidence)}
    readable = set(Message.objects.readable().filter(pk__in=wanted).values_list("pk", flat=True))
    for proposal in applied:
        head = heads.get(proposal.agent_id)
        line = (proposal.applied_text or proposal.text).strip()
        if head is None or not line:
            continue
        if proposal.field == "standing_rules":
            rules = [
                r.get("text", "") if isinstance(r, dict) else str(r) for r in head.standing_rules
            ]
            still_there = line in rules
        else:
            still_there = line in (getattr(head, proposal.field, "") or "")
        ids = _message_ids(proposal.evidence)
        if not still_there or not ids or any(mid in readable for mid in ids):
            continue
        yield Finding(
            kind="learned_without_evidence",
            subject="persona_line",
            subject_id=head.pk,
            tenant_id=proposal.agent.tenant_id,
            agent_id=proposal.agent_id,
            other_id=proposal.pk,
            text=line,
            detail=(
                f"Learned for {proposal.agent.name} from {len(ids)} message(s), all sealed "
                "or deleted since: nothing proves it any more."
            ),
            remedies=(EDIT_PERSONA,),
        )


def register() -> None:
    register_check(
        "learned_without_evidence",
        title="Learned lines whose evidence is gone",
        remedy="Undo the proposal in the review log, or keep the line by editing it as your own.",
        run=learned_lines_without_evidence,
    )
