"""Decisions on proposals: apply, turn down, edit-then-approve (rules), undo.

Every decision locks the agent row, then the proposal row, and checks the proposal's
status under the lock: two people deciding the same proposal at once get exactly one
effect, and the other a ``ProposalNotWaiting`` saying who decided first. The lock
order (agent, then proposals) is the one ``persona_version_create`` uses when it drops
waiting proposals, so decisions never deadlock with each other.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from learning import policy
from learning.models import LearningSettings, Proposal, Rejection
from learning.owners import AUTO, decide_refusal, rule_owner_refusal
from learning.services.errors import (
    DecisionNotPermitted,
    DecisionRefused,
    ProposalNotWaiting,
    UndoRefused,
)
from memory.models import EntityFact, Principal
from memory.sealing import sealed_ids
from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from persona.services import (
    MAX_LEARNED_FIELD_CHARS,
    MAX_RULES,
    ChangeTrigger,
    persona_snapshot,
    persona_version_create,
)
from personaweb.actors import Actor
from personaweb.marks import evidence_conversation_ids
from tenancy.models import Agent


def _authorised(by: str | Actor, *, agent: Agent, kind: str) -> str:
    """Who decides, as a name for the records. An ``Actor`` (a page's login, a host's
    token) is authorised here, once, by the one rule (``learning.owners.decide_refusal``);
    a plain name is the command line's or the automatic approver's, whose rule-owner check
    follows as before."""
    if not isinstance(by, Actor):
        return by
    refusal = decide_refusal(by, agent=agent, kind=kind)
    if refusal:
        raise DecisionNotPermitted(f"{refusal} Nothing was changed.")
    return by.name


def _named(by: str | None, *, action: str) -> str:
    name = (by or "").strip()
    if not name:
        raise DecisionRefused(f"Say who {action}: give your user name. Nothing was changed.")
    return name


def _human(by: str | None, *, action: str) -> str:
    name = _named(by, action=action)
    if name.casefold() == AUTO:
        raise DecisionRefused(
            f"Only a named person {action}, not the automatic approver; give your user name. Nothing was changed."
        )
    return name


def _lock(proposal: Proposal) -> tuple[Agent, Proposal]:
    agent = Agent.objects.select_for_update().get(pk=proposal.agent_id)
    locked = Proposal.objects.select_for_update().get(pk=proposal.pk)
    return agent, locked


def _must_wait(proposal: Proposal) -> None:
    if proposal.status != Proposal.Status.WAITING:
        who = f" by {proposal.decided_by}" if proposal.decided_by else ""
        label = Proposal.Status(proposal.status).label
        extra = f" ({proposal.status_reason})" if proposal.status_reason else ""
        raise ProposalNotWaiting(
            f"Proposal {proposal.pk} is no longer waiting: it was {label}{who}{extra}. Nothing was changed."
        )


def _decision_is_news(agent: Agent) -> None:
    """A person's decision counts as something new for the next review.

    Called inside the decision's transaction: forgetting the last message seen lets the
    next review read the same conversations again and propose the next theme (what was
    applied, turned down or undone is never proposed again: content keys).
    """
    LearningSettings.objects.filter(agent=agent).update(last_seen_message_id=0)


def known_names_of(agent: Agent) -> set[str]:
    """Names of the people and companies memory knows for the agent's tenant (to keep
    them out of an edited sentence, as a review keeps them out of a proposed one)."""
    names = {
        n.strip()
        for n in Principal.objects.filter(conversations__agent=agent)
        .values_list("display_name", flat=True)
        .distinct()
        if n and n.strip()
    }
    names |= {
        n.strip()
        for n in EntityFact.objects.filter(
            tenant_id=agent.tenant_id,
            kind__in=[EntityFact.Kind.PERSON, EntityFact.Kind.COMPANY],
        ).values_list("entity", flat=True)
        if n and n.strip()
    }
    return names


def _reason(proposal: Proposal, verb: str) -> str:
    # no user words in a reason: the quotes stay in the version's evidence only
    what = "standing rule" if proposal.kind == Proposal.Kind.RULE else f"{proposal.field} sentence"
    n = len({e.get("conversation_id") for e in proposal.evidence or []})
    return f"Persona learning: {verb} a learned {what} (proposal {proposal.pk}, backed by {n} conversations)."


@transaction.atomic
def proposal_apply(*, proposal: Proposal, by: str | Actor, text: str | None = None) -> Proposal:
    """Apply a waiting proposal and return it (with ``applied_version``).

    Goals/background: the sentence is appended to its field (``by`` may be ``auto``
    for auto-apply). Standing rules: only a named person in the agent's rule_owners
    (empty list = any named person); ``text`` applies the rule in the owner's own words.
    A refusal raises ``DecisionRefused`` and the proposal keeps waiting.
    """
    agent, proposal = _lock(proposal)
    by = _authorised(by, agent=agent, kind=proposal.kind)
    _must_wait(proposal)
    if sealed_ids(evidence_conversation_ids(proposal.evidence)):
        raise DecisionRefused(
            "A conversation this proposal quotes has been sealed; it cannot be approved. Nothing was changed."
        )
    head = persona_head(agent=agent)
    persona = persona_snapshot(head)
    if proposal.kind == Proposal.Kind.RULE:
        refusal = rule_owner_refusal(agent=agent, name=by)
        if refusal:
            raise DecisionRefused(f"{refusal} The proposal keeps waiting.")
        name = by.strip()
        rule = " ".join((text if text is not None else proposal.text).split())
        if not rule:
            raise DecisionRefused("The rule is empty; write the rule or apply it as proposed.")
        # Checked again at approval: other rules may have been approved since it was
        # proposed (approving one rule leaves the other waiting rules in place).
        why = policy.rule_refusal(rule=rule, persona=persona, known_names=set())
        if why:
            edited = "edited " if text is not None and rule != proposal.text else ""
            raise DecisionRefused(
                f"The {edited}rule was refused: {why} The proposal keeps waiting."
            )
        rules = list(persona["standing_rules"])
        if len(rules) >= MAX_RULES:
            raise DecisionRefused(
                f"The persona holds {MAX_RULES} standing rules already, the most it may; remove one first. The proposal keeps waiting."
            )
        if rule.casefold() in {r.casefold() for r in rules}:
            raise DecisionRefused(
                "The persona holds this rule already; turn the proposal down instead."
            )
        changes: dict[str, Any] = {"standing_rules": [*rules, rule]}
        source, applied_text = SourceType.STANDING_RULE, rule
        learned: dict[str, str] | None = None
    else:
        name = _named(by, action="applies a proposal")
        sentence = proposal.text
        if text is not None:
            sentence = " ".join(text.split())
            if not sentence:
                raise DecisionRefused(
                    "The sentence is empty; write the sentence or approve it as proposed."
                )
        reworded = sentence != proposal.text
        moved = head is not None and head.version != proposal.base_version
        if reworded or moved:
            # an edited sentence passes the same checks as a proposed one; so does one
            # the persona moved under since it was proposed (a learned decision on
            # another field leaves it waiting, as an approved rule leaves the other rules)
            key = policy.content_key(sentence)
            why = ""
            if Rejection.objects.filter(agent=agent, content_key=key).exists():
                why = "this sentence was turned down or undone before."
            elif policy.content_key(sentence) in policy.persona_keys(persona):
                why = "the persona says this already."
            else:
                why = (
                    policy.sentence_refusal(
                        sentence=sentence,
                        field=proposal.field,
                        persona=persona,
                        known_names=known_names_of(agent),
                    )
                    or ""
                )
            if why:
                what = "edited sentence" if reworded else "sentence"
                raise DecisionRefused(f"The {what} was refused: {why} The proposal keeps waiting.")
        current = persona[proposal.field] or ""
        new = policy.append_sentence(current, sentence)
        if len(new) > MAX_LEARNED_FIELD_CHARS:
            raise DecisionRefused(
                f"The {proposal.field} would pass {MAX_LEARNED_FIELD_CHARS:,} characters with this sentence; "
                "learning adds no more to it. Turn the proposal down or shorten the field by hand."
            )
        changes = {proposal.field: new}
        source, applied_text = SourceType.PERSONA_LEARNING, sentence
        n = len({e.get("conversation_id") for e in proposal.evidence or []})
        approver = "applied automatically" if name == "auto" else f"approved by {name}"
        learned = {
            "field": proposal.field,
            "sentence": sentence,
            "note": f"recurring in {n} conversations, {approver}",
        }
    version = persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(
            source_type=source,
            reason=_reason(proposal, "applied"),
            approved_by=name,
            evidence=list(proposal.evidence or []),
            proposal_id=proposal.pk,
            learned=learned,
        ),
        expected_version=agent.persona_version,
    )
    proposal.status = Proposal.Status.APPLIED
    proposal.applied_version = version.version
    proposal.applied_text = applied_text
    proposal.decided_by = name
    proposal.decided_at = timezone.now()
    if applied_text == proposal.text:
        proposal.status_reason = ""
    elif proposal.kind == Proposal.Kind.RULE:
        proposal.status_reason = "Applied in the rule owner's words."
    else:
        proposal.status_reason = f"Applied in {name}'s words."
    proposal.save(
        update_fields=[
            "status",
            "applied_version",
            "applied_text",
            "decided_by",
            "decided_at",
            "status_reason",
        ]
    )
    if name != AUTO:  # an automatic approval is part of the review that proposed it
        _decision_is_news(agent)
    return proposal


def _reject(*, agent: Agent, text: str, reason: str, by: str) -> None:
    key = policy.content_key(text)
    Rejection.objects.get_or_create(
        agent=agent, content_key=key, defaults={"text": text, "reason": reason, "by": by}
    )


@transaction.atomic
def proposal_dismiss(*, proposal: Proposal, by: str | Actor) -> Proposal:
    """Turn a waiting proposal down: it is never proposed again (content-keyed)."""
    agent, proposal = _lock(proposal)
    by = _authorised(by, agent=agent, kind=proposal.kind)
    _must_wait(proposal)
    if proposal.kind == Proposal.Kind.RULE:
        refusal = rule_owner_refusal(agent=agent, name=by)
        if refusal:
            raise DecisionRefused(f"{refusal} The proposal keeps waiting.")
        name = by.strip()
    else:
        name = _human(by, action="turns a proposal down")
    _reject(agent=agent, text=proposal.text, reason="dismissed", by=name)
    proposal.status = Proposal.Status.DISMISSED
    proposal.decided_by = name
    proposal.decided_at = timezone.now()
    proposal.status_reason = "Turned down; it will not be proposed again."
    proposal.save(update_fields=["status", "decided_by", "decided_at", "status_reason"])
    _decision_is_news(agent)
    return proposal


@transaction.atomic
def change_undo(
    *, agent: Agent, by: str | Actor, proposal: Proposal | None = None, kind: str | None = None
) -> AgentPersonaVersion:
    """Take back a learned change with a new version; return that version.

    Without ``proposal`` the latest applied one (of ``kind`` when given) is undone.
    Refused when the field was edited since it was applied (undo would lose that
    edit). The undone text is never proposed again.
    """
    agent = Agent.objects.select_for_update().get(pk=agent.pk)
    if proposal is None:
        qs = Proposal.objects.filter(agent=agent, status=Proposal.Status.APPLIED)
        if kind:
            qs = qs.filter(kind=kind)
        proposal = qs.order_by("-applied_version", "-id").first()
        if proposal is None:
            raise UndoRefused("There is no learned change to undo for this agent.")
    proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
    if proposal.agent_id != agent.pk:
        raise UndoRefused(f"Proposal {proposal.pk} belongs to another agent.")
    if proposal.status != Proposal.Status.APPLIED or not proposal.applied_version:
        label = Proposal.Status(proposal.status).label
        raise UndoRefused(
            f"Proposal {proposal.pk} is {label}, not applied; there is nothing to undo."
        )
    by = _authorised(by, agent=agent, kind=proposal.kind)
    if proposal.kind == Proposal.Kind.RULE:
        refusal = rule_owner_refusal(agent=agent, name=by)
        if refusal:
            raise UndoRefused(refusal + " Nothing was changed.")
        name = by.strip()
    else:
        name = _human(by, action="undoes a change")
    field = proposal.field
    later = AgentPersonaVersion.objects.filter(
        agent=agent, version__gt=proposal.applied_version
    ).values_list("version", "fields_changed")
    edited = [v for v, changed in later if field in (changed or [])]
    what = "standing rules" if field == "standing_rules" else field
    if edited:
        raise UndoRefused(
            f"The {what} changed in version {edited[0]} after this was applied; undo would lose that edit. "
            f"Edit the {what} by hand instead."
        )
    before = AgentPersonaVersion.objects.get(agent=agent, version=proposal.applied_version - 1)
    source = proposal.persona_source_type
    version = persona_version_create(
        agent=agent,
        changes={field: getattr(before, field)},
        trigger=ChangeTrigger(
            source_type=source,
            reason=_reason(proposal, "undid"),
            approved_by=name,
            evidence=[],
            proposal_id=proposal.pk,
        ),
        expected_version=agent.persona_version,
    )
    for text in dict.fromkeys([proposal.text, proposal.applied_text or proposal.text]):
        _reject(agent=agent, text=text, reason="undone", by=name)
    proposal.status = Proposal.Status.UNDONE
    proposal.status_reason = (
        f"Undone by {name} in version {version.version}; it will not be proposed again."
    )
    proposal.save(update_fields=["status", "status_reason"])
    _decision_is_news(agent)
    return version


@transaction.atomic
def proposal_restore(*, proposal: Proposal, by: str | Actor) -> Proposal:
    """Take back a turn-down: the proposal waits again and may be proposed again.

    Only a turned-down proposal is restored; its "never proposed again" key is removed
    (unless another applied or undone proposal of the agent holds the same text).
    """
    agent, proposal = _lock(proposal)
    if proposal.status != Proposal.Status.DISMISSED:
        label = Proposal.Status(proposal.status).label
        raise UndoRefused(
            f"Proposal {proposal.pk} is {label}, not turned down; there is no turn-down to undo."
        )
    by = _authorised(by, agent=agent, kind=proposal.kind)
    if proposal.kind == Proposal.Kind.RULE:
        refusal = rule_owner_refusal(agent=agent, name=by)
        if refusal:
            raise UndoRefused(refusal + " Nothing was changed.")
        name = by.strip()
    else:
        name = _human(by, action="undoes a turn-down")
    if sealed_ids(evidence_conversation_ids(proposal.evidence)):
        raise UndoRefused(
            "A conversation this proposal quotes has been sealed since; it cannot wait again. Nothing was changed."
        )
    if Proposal.objects.filter(
        agent=agent, status=Proposal.Status.WAITING, content_key=proposal.content_key
    ).exists():
        raise UndoRefused(
            "The same text is waiting for review again already; decide that one. Nothing was changed."
        )
    other = Proposal.Kind.SENTENCE if proposal.kind == Proposal.Kind.RULE else Proposal.Kind.RULE
    mine = _message_ids(proposal.evidence)
    for pk, theirs in Proposal.objects.filter(
        agent=agent, kind=other, status=Proposal.Status.WAITING
    ).values_list("pk", "evidence"):
        if mine & _message_ids(theirs):
            raise UndoRefused(
                f"A message it quotes backs the waiting proposal {pk} now; one piece of evidence "
                "never backs a sentence and a rule side by side. Decide that one first. Nothing was changed."
            )
    undone_elsewhere = Proposal.objects.filter(
        agent=agent, content_key=proposal.content_key, status=Proposal.Status.UNDONE
    ).exists()
    if not undone_elsewhere:
        Rejection.objects.filter(
            agent=agent, content_key=policy.content_key(proposal.text)
        ).delete()
    proposal.status = Proposal.Status.WAITING
    proposal.decided_by = ""
    proposal.decided_at = None
    proposal.status_reason = f"Turn-down undone by {name}; it waits for review again."
    proposal.save(update_fields=["status", "decided_by", "decided_at", "status_reason"])
    _decision_is_news(agent)
    return proposal


def _message_ids(evidence: Any) -> set[int]:
    return {
        e["message_id"]
        for e in evidence or []
        if isinstance(e, dict) and isinstance(e.get("message_id"), int)
    }


def proposal_undo(*, proposal: Proposal, by: str | Actor) -> AgentPersonaVersion:
    """Undo an approval from the queue: only while it is the agent's latest learned
    change (``change_undo`` does the work and its checks)."""
    latest = (
        Proposal.objects.filter(agent_id=proposal.agent_id, status=Proposal.Status.APPLIED)
        .order_by("-applied_version", "-id")
        .values_list("pk", "applied_version")
        .first()
    )
    still_applied = Proposal.objects.filter(pk=proposal.pk, status=Proposal.Status.APPLIED)
    if latest and latest[0] != proposal.pk and still_applied.exists():
        raise UndoRefused(
            f"A later learned change (persona version {latest[1]}) was approved after this one; "
            "undo that one first, or edit the persona by hand. Nothing was changed."
        )
    return change_undo(agent=proposal.agent, by=by, proposal=proposal)
