"""Learning's answers to events of the apps below it (connected in LearningConfig.ready).

The way ``django.contrib.auth`` connects ``update_last_login`` to ``user_logged_in``:
memory, persona and tenancy never import learning; learning listens.
"""

from __future__ import annotations

from typing import Any

from memory.signals import conversation_sealed, text_redacted, turns_recorded
from persona.signals import persona_changed
from personaweb.marks import evidence_conversation_ids
from tenancy.signals import agent_created


def _settings_for_new_agent(sender: Any, *, agent: Any, **_: Any) -> None:
    """Learning settings exist from the start (mode off), so turns are counted and the
    schedule works as soon as an operator turns learning on."""
    from learning.models import LearningSettings

    LearningSettings.objects.get_or_create(agent=agent)


def _count_turns(sender: Any, *, agent_id: int, turns: int, **_: Any) -> None:
    from learning.counters import note_turns

    note_turns(agent_id=agent_id, turns=turns)


def _drop_waiting_proposals(
    sender: Any,
    *,
    agent: Any,
    version: int,
    trigger: Any,
    fields_changed: list[str] | None = None,
    **_: Any,
) -> None:
    """A proposal waiting while the persona changes is dropped (seed 004), and records
    why: who changed the persona, in which version and which fields, and their reason.
    The review that made it says so too (the review log).

    A learned decision (an approval or an undo) drops only the waiting sentences of the
    field it writes: the standing rules, and a sentence of another field, stay waiting
    and are checked again against the persona of the moment when approved, so a
    recurring rule is not proposed again after every approved sentence
    (``proposals_a_change_drops``).
    """
    from django.db.models import F, TextField, Value
    from django.db.models.functions import Concat
    from django.utils import timezone

    from learning.models import Proposal, Review
    from learning.selectors import proposals_a_change_drops

    dropped = list(
        proposals_a_change_drops(
            agent=agent, source_type=trigger.source_type, proposal_id=trigger.proposal_id
        ).values_list("pk", flat=True)
    )
    if not dropped:
        return
    who = (trigger.approved_by or "").strip()
    what = ", ".join(f.replace("_", " ") for f in fields_changed or []) or "the persona"
    by = f" by {who}" if who else ""
    reason = " ".join((trigger.reason or "").split())
    # who is ``decided_by`` (the queue shows "Dropped by NAME · this sentence")
    sentence = (
        f"The persona changed in version {version} ({what}) while this proposal waited; "
        f"the reason given: “{reason}”."
    )
    Proposal.objects.filter(pk__in=dropped).update(
        status=Proposal.Status.DROPPED,
        status_reason=sentence,
        decided_by=who[:150],
        decided_at=timezone.now(),
    )
    # the review log's row of the review that proposed it says so too (one update)
    note = f" Later its proposal was dropped: the persona changed{by} in version {version} ({what}): “{reason}”."
    Review.objects.filter(proposal_id__in=dropped).update(
        reason=Concat(F("reason"), Value(note), output_field=TextField())
    )


def _drop_proposals_quoting(sender: Any, *, conversation: Any, **_: Any) -> None:
    """Sealed wins: a waiting proposal that quotes a conversation sealed afterwards is
    dropped (its quote can no longer be shown or approved)."""
    from learning.models import Proposal

    waiting = Proposal.objects.filter(
        agent_id=conversation.agent_id, status=Proposal.Status.WAITING
    )
    drop = [p.pk for p in waiting if conversation.pk in evidence_conversation_ids(p.evidence)]
    if drop:
        Proposal.objects.filter(pk__in=drop).update(
            status=Proposal.Status.DROPPED,
            status_reason="A conversation it quotes was sealed; sealed conversations are never evidence.",
        )


def _blank_redacted_words(
    sender: Any,
    *,
    redaction: Any,
    text: str,
    agent_id: int | None,
    message_ids: list[int],
    **_: Any,
) -> None:
    """No proposal quotes redacted words: a quote of a redacted message is blanked, and
    a persona passage redacted is blanked in proposals' sentences, quotes and the
    turned-down list and what reviews passed over, and is never proposed again (a
    ``Rejection`` by key, reason ``redacted``); a waiting proposal that held either is
    dropped."""
    from learning.models import Proposal, Rejection, Review
    from learning.policy import content_key
    from memory.redaction import REDACTED
    from persona.redaction import holds, scrub

    if agent_id is None:
        return
    wanted = set(message_ids)
    passage = text if redaction.kind == "persona_version" else ""
    if not wanted and not passage:
        return  # a belief: no proposal quotes beliefs

    def blank(item: Any) -> Any:
        if not isinstance(item, dict):
            return item
        if item.get("message_id") in wanted:
            return {**item, "quote": REDACTED, "start": None, "end": None}
        quote = item.get("quote")
        if passage and isinstance(quote, str) and passage in quote:
            return {**item, "quote": quote.replace(passage, REDACTED)}
        return item

    keys: set[str] = set()
    for proposal in Proposal.objects.filter(agent_id=agent_id).order_by("id"):
        evidence = [blank(e) for e in proposal.evidence or []]
        changed = evidence != proposal.evidence
        if passage and (passage in proposal.text or passage in proposal.applied_text):
            keys.add(proposal.content_key)
            proposal.text = proposal.text.replace(passage, REDACTED)
            proposal.applied_text = proposal.applied_text.replace(passage, REDACTED)
            changed = True
        if not changed:
            continue
        proposal.evidence = evidence
        fields = ["evidence", "text", "applied_text"]
        if proposal.status == Proposal.Status.WAITING:
            proposal.status = Proposal.Status.DROPPED
            proposal.status_reason = (
                "Words it quotes or proposes were redacted; redacted words are never evidence."
            )
            fields += ["status", "status_reason"]
        proposal.save(update_fields=fields)
    if passage:
        for rejection in Rejection.objects.filter(agent_id=agent_id, text__contains=passage):
            rejection.text = rejection.text.replace(passage, REDACTED)
            rejection.save(update_fields=["text"])
        # what reviews said they passed over (sentences, never quotes) and why
        for review in Review.objects.filter(agent_id=agent_id).only("reason", "passed_over"):
            if holds(review.passed_over, passage) or passage in review.reason:
                review.passed_over = scrub(review.passed_over, passage)
                review.reason = review.reason.replace(passage, REDACTED)
                review.save(update_fields=["passed_over", "reason"])
        # never proposed again: the passage, and each proposal that held it, by key only
        for key in {content_key(passage), *keys}:
            Rejection.objects.get_or_create(
                agent_id=agent_id,
                content_key=key,
                defaults={"text": REDACTED, "reason": "redacted", "by": redaction.redacted_by},
            )


def connect() -> None:
    agent_created.connect(_settings_for_new_agent, dispatch_uid="learning.settings_for_new_agent")
    turns_recorded.connect(_count_turns, dispatch_uid="learning.count_turns")
    persona_changed.connect(_drop_waiting_proposals, dispatch_uid="learning.drop_waiting")
    conversation_sealed.connect(_drop_proposals_quoting, dispatch_uid="learning.drop_sealed")
    text_redacted.connect(_blank_redacted_words, dispatch_uid="learning.blank_redacted")
