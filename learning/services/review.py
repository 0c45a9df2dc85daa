"""The review: select what may be read, decide whether a proposer call is needed,
call it, verify every quote, apply the policy, and record everything.

The per-agent lock is the partial unique constraint ``review_one_running_per_agent``:
a review becomes ``running`` in its own short transaction, so a second review of the
same agent (another worker, another process) fails to take the lock and ends
``skipped`` without reading anything or calling a model.

A queued review (one the sweep or "Review now" made) runs once however often its task is
delivered: the first delivery turns it ``running``; a later one finds it done (nothing to
do), or running within its lease (``review_lease()``, from ``started_at``: the task asks to
be retried when the lease ends), or running past its lease (its worker died: this one
takes it over and runs it). The finishing write is fenced by ``started_at``, so a review
that was taken over never overwrites the record of the one that took it over.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from learning import candidates, policy
from learning.counters import next_due_at
from learning.models import LearningSettings, Mode, Proposal, Rejection, Review
from learning.proposers.base import Proposer, ProposerResult, get_proposer, proposer_kind
from learning.selection import select_corpus
from learning.services.settings import learning_settings_get
from memory.verification import ReviewCorpus, verify_quotes
from persona.selectors import persona_head
from persona.services import MAX_LEARNED_FIELD_CHARS, MAX_RULES, persona_snapshot
from personaweb.errors import Refusal
from tenancy.models import Agent

logger = logging.getLogger(__name__)

MAX_RULES_WAITING = 5


def review_lease() -> timedelta:
    """How long a review may stay ``running`` before it is taken to be from a worker that
    died (``LEARNING_REVIEW_STALE_SECONDS``, default 15 minutes)."""
    return timedelta(seconds=getattr(django_settings, "LEARNING_REVIEW_STALE_SECONDS", 15 * 60))


def lease_left(review: Review, *, now=None) -> float:
    """Seconds until a ``running`` review's lease ends (0 when it has ended)."""
    if review.status != Review.Status.RUNNING or review.started_at is None:
        return 0.0
    ends = review.started_at + review_lease()
    return max(0.0, (ends - (now or timezone.now())).total_seconds())


# outcomes of one part (sentence or rule) of a review
APPLIED, PROPOSED, REFUSED, NOTHING, ERROR = (
    "applied",
    "proposed",
    "refused",
    "nothing_to_do",
    "error",
)
_RANK = {APPLIED: 5, PROPOSED: 4, ERROR: 3, REFUSED: 2, NOTHING: 1}


@dataclass
class PartResult:
    """What one part of a review (goals/background sentence, or standing rule) did."""

    kind: str
    outcome: str = NOTHING
    reason: str = ""
    called: bool = False
    proposal: Proposal | None = None
    text: str = ""
    field: str = ""
    verdicts: list[dict[str, Any]] = dc_field(default_factory=list)
    notes: list[str] = dc_field(default_factory=list)
    #: recurring patterns seen and not proposed (``learning.candidates``)
    candidates: list[dict[str, Any]] = dc_field(default_factory=list)
    model_ms: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "called": self.called,
            "field": self.field,
            "text": self.text,
            "proposal_id": self.proposal.pk if self.proposal else None,
            "verdicts": self.verdicts,
            "notes": self.notes,
        }


# -- the lock ---------------------------------------------------------------------------
def _release_stale(agent: Agent, now) -> None:
    stale = Review.objects.filter(
        agent=agent, status=Review.Status.RUNNING, started_at__lt=now - review_lease()
    )
    stale.update(
        status=Review.Status.DONE,
        outcome=Review.Outcome.ERROR,
        finished_at=now,
        reason="This review stopped without finishing (its worker went away); the next review runs again.",
    )


def _take_lock(
    *, agent: Agent, trigger: str, review: Review | None, requested_by: str, worker: str = ""
) -> tuple[Review, bool]:
    """(review, True) when this review now runs; (review, False) when it must not run.

    A queued ``review`` found running past its lease is taken over (``taken_over`` in its
    details); within its lease it is left alone (the caller sees it ``running``)."""
    now = timezone.now()
    running: dict[str, Any] = {"worker": worker} if worker else {}
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                if review is None:
                    return (
                        Review.objects.create(
                            agent=agent,
                            trigger=trigger,
                            status=Review.Status.RUNNING,
                            started_at=now,
                            requested_by=requested_by,
                            details=running,
                        ),
                        True,
                    )
                taken = Review.objects.filter(pk=review.pk, status=Review.Status.QUEUED).update(
                    status=Review.Status.RUNNING,
                    started_at=now,
                    details={**(review.details or {}), **running},
                )
                if not taken:
                    # delivered again: its worker died mid-review (past the lease: take it
                    # over), or it runs (within the lease) or ran already (done)
                    taken = Review.objects.filter(
                        pk=review.pk,
                        status=Review.Status.RUNNING,
                        started_at__lt=now - review_lease(),
                    ).update(
                        started_at=now,
                        details={**(review.details or {}), **running, "taken_over": True},
                    )
                review.refresh_from_db()
                return review, bool(taken)
        except IntegrityError:
            if attempt == 1:
                _release_stale(agent, now)
                continue
    reason = "Another review of this agent was running; this one was skipped (a review never runs twice at once)."
    if review is None:
        review = Review.objects.create(
            agent=agent,
            trigger=trigger,
            status=Review.Status.DONE,
            requested_by=requested_by,
            started_at=now,
            finished_at=now,
            outcome=Review.Outcome.SKIPPED,
            reason=reason,
        )
    else:
        Review.objects.filter(pk=review.pk, status=Review.Status.QUEUED).update(
            status=Review.Status.DONE,
            started_at=now,
            finished_at=now,
            outcome=Review.Outcome.SKIPPED,
            reason=reason,
        )
        review.refresh_from_db()
    return review, False


# -- the review -------------------------------------------------------------------------
def review_run(
    *,
    agent: Agent,
    trigger: str = Review.Trigger.MANUAL,
    review: Review | None = None,
    proposer: Proposer | None = None,
    requested_by: str = "",
    whole_history: bool = False,
    worker: str = "",
    redelivered: bool = False,
) -> Review:
    """Run one review of ``agent`` now and return its record.

    ``whole_history`` reads every eligible conversation (bounded by
    ``selection.WHOLE_HISTORY_MAX_CONVERSATIONS``), not only the ``max_threads`` most
    recent, even when nothing new arrived since the last review; what the persona says
    already, and what was turned down or undone, is still never proposed.

    ``review`` is a queued record to run (from ``review_enqueue``); without it a new
    record is made. When another review of the agent is running this one ends
    ``skipped`` at once. A queued ``review`` delivered again runs at most once (see the
    module's docstring): when it is done or running elsewhere within its lease the record
    is returned as it is (``running``: the caller retries when the lease ends,
    ``lease_left``). ``worker`` (the Celery node name) and ``redelivered`` (the broker
    delivered the task again) are kept in the details. Never
    raises for what a proposer answers: every failure is an outcome with a reason. Counters (turns, last review, due time) are reset when the
    review finished; ``last_seen_message_id`` only moves when it did not end in error,
    so a failed review is retried with the same messages.
    """
    review, running = _take_lock(
        agent=agent, trigger=trigger, review=review, requested_by=requested_by, worker=worker
    )
    if not running:
        return review
    lock_details = dict(review.details or {})
    fence = review.started_at
    # the caller's Agent may be stale (a decision since it was loaded moved the head
    # version): the review reads and proposes against the persona as it is now
    agent.refresh_from_db()
    # "Review the whole history" queued from a page carries its flag on the record too
    whole_history = whole_history or bool((review.details or {}).get("whole_history"))
    started = time.perf_counter()
    timings: dict[str, float] = {}
    details: dict[str, Any] = {
        k: lock_details[k] for k in ("worker", "taken_over") if k in lock_details
    }
    if redelivered:
        details["redelivered"] = True
    parts: list[PartResult] = []
    corpus: ReviewCorpus | None = None
    usage = ProposerResult()
    settings = learning_settings_get(agent)
    try:
        corpus, parts, usage = _review_body(
            agent=agent,
            settings=settings,
            trigger=trigger,
            proposer=proposer,
            review=review,
            timings=timings,
            details=details,
            whole_history=whole_history,
        )
        outcome, reason = _combine(parts)
    except Exception as exc:  # the record must say what happened, whatever it was
        logger.exception("learning review %s of agent %s failed", review.pk, agent.pk)
        outcome = Review.Outcome.ERROR
        reason = f"The review failed with {type(exc).__name__}: {exc}. Nothing was changed; see the server log."
    total_ms = (time.perf_counter() - started) * 1000
    model_ms = sum(p.model_ms for p in parts)
    timings["total_ms"] = round(total_ms, 2)
    timings["model_ms"] = round(model_ms, 2)
    timings["without_model_ms"] = round(total_ms - model_ms, 2)
    details["timings"] = timings
    details["parts"] = {p.kind: p.as_dict() for p in parts}
    details["proposer"] = proposer.name if proposer is not None else proposer_kind(settings)
    if corpus is not None:
        details["excluded"] = dict(corpus.excluded)
        details["unsafe"] = list(corpus.unsafe)
        details["conversations"] = len(corpus.conversation_ids)
        details["people"] = len({m.principal_id for m in corpus.messages})
    proposal = next((p.proposal for p in parts if p.proposal is not None), None)
    passed_over = candidates.resolve(
        [c for p in parts for c in p.candidates],
        rejected=frozenset(
            Rejection.objects.filter(agent=agent).values_list("content_key", flat=True)
        ),
    )
    now = timezone.now()
    # the record and the counters in one transaction: a worker killed between them
    # must not leave a done review whose agent still looks unreviewed
    with transaction.atomic():
        finished = Review.objects.filter(pk=review.pk, started_at=fence).update(
            status=Review.Status.DONE,
            finished_at=now,
            threads_read=corpus.threads_read if corpus else 0,
            messages_read=corpus.messages_read if corpus else 0,
            model_calls=usage.calls,
            tokens_in=usage.tokens_in,
            tokens_out=usage.tokens_out,
            outcome=outcome,
            reason=reason[:4000],
            details=details,
            passed_over=passed_over,
            proposal=proposal,
        )
        if not finished:  # taken over past its lease: the review that took over records it
            logger.warning(
                "learning review %s of agent %s ran past its lease and was taken over; "
                "its result was not recorded",
                review.pk,
                agent.pk,
            )
            review.refresh_from_db()
            return review
        _reset_counters(
            settings=settings,
            now=now,
            newest=corpus.newest_message_id if corpus and outcome != Review.Outcome.ERROR else None,
        )
    review.refresh_from_db()
    return review


def _reset_counters(*, settings: LearningSettings, now, newest: int | None) -> None:
    settings.refresh_from_db()
    settings.turns_since_review = 0
    settings.last_review_at = now
    fields = {"turns_since_review": 0, "last_review_at": now}
    if newest is not None and newest > settings.last_seen_message_id:
        fields["last_seen_message_id"] = newest
    fields["due_at"] = next_due_at(settings, now=now)
    LearningSettings.objects.filter(pk=settings.pk).update(**fields)


def _combine(parts: list[PartResult]) -> tuple[str, str]:
    best = max(parts, key=lambda p: _RANK[p.outcome])
    label = {"sentence": "Goals/background", "rule": "Standing rule"}
    if len(parts) == 1:
        return best.outcome, best.reason
    reason = " ".join(f"{label[p.kind]}: {p.reason}" for p in parts)
    return best.outcome, reason


def _review_body(
    *,
    agent: Agent,
    settings: LearningSettings,
    trigger: str,
    proposer: Proposer | None,
    review: Review,
    timings: dict[str, float],
    details: dict[str, Any],
    whole_history: bool = False,
) -> tuple[ReviewCorpus | None, list[PartResult], ProposerResult]:
    usage = ProposerResult()
    if whole_history:
        details["whole_history"] = True
    sentence = PartResult(kind="sentence")
    if settings.mode == Mode.OFF and trigger == Review.Trigger.SCHEDULE:
        sentence.reason = "Learning is off for this agent; turn it on in the learning settings."
        return None, [sentence], usage

    t0 = time.perf_counter()
    corpus = select_corpus(agent=agent, settings=settings, whole_history=whole_history)
    timings["select_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    if corpus.skipped_reason:
        sentence.reason = corpus.skipped_reason
        return corpus, [sentence], usage

    head = persona_head(agent=agent)
    persona = persona_snapshot(head)
    base_version = agent.persona_version
    waiting = list(
        Proposal.objects.filter(agent=agent, status=Proposal.Status.WAITING).values_list(
            "kind", flat=True
        )
    )
    rejected = frozenset(
        Rejection.objects.filter(agent=agent).values_list("content_key", flat=True)
    )
    avoid = rejected | policy.persona_keys(persona, rules=True)
    people = len({m.principal_id for m in corpus.messages})
    conversations = len(corpus.conversation_ids)
    # A person's decision resets last_seen_message_id (decisions.py), so the same
    # conversations may be read again; the whole history is read on request.
    nothing_new = not whole_history and corpus.newest_message_id <= settings.last_seen_message_id
    details["read"] = {"conversations": conversations, "people": people}

    # -- goals/background ------------------------------------------------------------
    gate = _sentence_gate(
        settings=settings,
        persona=persona,
        waiting=waiting,
        conversations=conversations,
        people=people,
        nothing_new=nothing_new,
    )
    if gate:
        sentence.reason = gate
    else:
        if proposer is None:
            proposer = get_proposer(settings)
        _run_sentence(
            part=sentence,
            agent=agent,
            settings=settings,
            corpus=corpus,
            persona=persona,
            proposer=proposer,
            avoid=avoid,
            rejected=rejected,
            base_version=base_version,
            review=review,
            usage=usage,
            trigger=trigger,
        )
    if (
        sentence.called
        and sentence.proposal is None
        and not whole_history
        and corpus.excluded.get("not_recent")
    ):
        _look_back(
            part=sentence,
            agent=agent,
            settings=settings,
            persona=persona,
            proposer=proposer,
            avoid=avoid,
            timings=timings,
        )
    parts = [sentence]

    # -- standing rule ----------------------------------------------------------------
    if settings.standing_rules:
        rule = PartResult(kind="rule")
        parts.append(rule)
        if sentence.outcome == APPLIED:  # the persona moved on: read it again
            agent.refresh_from_db()
            persona = persona_snapshot(persona_head(agent=agent))
            base_version = agent.persona_version
        gate = _rule_gate(
            settings=settings,
            persona=persona,
            waiting=waiting,
            corpus=corpus,
            nothing_new=nothing_new,
        )
        if gate:
            rule.reason = gate
        else:
            if proposer is None:
                proposer = get_proposer(settings)
            _run_rule(
                part=rule,
                agent=agent,
                settings=settings,
                corpus=corpus,
                persona=persona,
                proposer=proposer,
                avoid=avoid,
                rejected=rejected,
                base_version=base_version,
                review=review,
                usage=usage,
            )
    timings["model_ms"] = round(sum(p.model_ms for p in parts), 2)
    return corpus, parts, usage


def _sentence_gate(
    *, settings, persona, waiting: list[str], conversations: int, people: int, nothing_new: bool
) -> str:
    """Why no proposer call is needed for a goals/background sentence ("" = call it)."""
    if Proposal.Kind.SENTENCE in waiting:
        return "A change is already waiting for review; decide it first."
    if conversations < settings.min_conversations:
        return (
            f"Too few conversations to learn from: {conversations} may be read, "
            f"a proposal needs {settings.min_conversations}."
        )
    if settings.across_users and people < settings.min_users:
        return (
            f"Too few people to learn from in team mode: {people} may be read, "
            f"a proposal needs {settings.min_users}."
        )
    if nothing_new:
        return "Nothing new since the last review."
    if all(
        MAX_LEARNED_FIELD_CHARS - len(persona.get(f) or "") < 20 for f in ("goals", "background")
    ):
        return f"Goals and background are full ({MAX_LEARNED_FIELD_CHARS:,} characters each); learning adds no more."
    return ""


def _rule_gate(
    *, settings, persona, waiting: list[str], corpus: ReviewCorpus, nothing_new: bool
) -> str:
    if sum(1 for kind in waiting if kind == Proposal.Kind.RULE) >= MAX_RULES_WAITING:
        return f"{MAX_RULES_WAITING} standing rules are waiting already; decide some first."
    if len(persona.get("standing_rules") or []) >= MAX_RULES:
        return f"The persona holds {MAX_RULES} standing rules, the most it may; remove one first."
    corrections = [m for m in corpus.messages if m.after_assistant]
    conversations = len({m.conversation_id for m in corrections})
    if conversations < settings.min_corrections:
        return (
            f"Too few corrections: {conversations} conversations hold a line written after a reply, "
            f"a rule needs {settings.min_corrections}."
        )
    people = len({m.principal_id for m in corrections})
    if settings.across_users and people < settings.min_users:
        return f"Corrections come from {people} people; team mode needs {settings.min_users}."
    if nothing_new:
        return "Nothing new since the last review."
    return ""


def _call(part: PartResult, usage: ProposerResult, fn, *args, **kwargs) -> ProposerResult:
    t0 = time.perf_counter()
    try:
        result = fn(*args, **kwargs)
    except Exception as exc:  # a proposer bug must not crash the review
        logger.exception("proposer failed")
        result = ProposerResult(
            error=f"The proposer failed with {type(exc).__name__}: {exc}.", calls=1
        )
    part.model_ms = (time.perf_counter() - t0) * 1000
    part.called = True
    part.notes.extend(result.notes)
    part.candidates.extend(result.candidates)
    usage.calls += result.calls
    usage.tokens_in += result.tokens_in
    usage.tokens_out += result.tokens_out
    return result


def _nothing_found(result: ProposerResult, what: str) -> str:
    """Why a part proposed nothing: none recurred, or each that did was left out (then
    the proposer's own note says why, shortened)."""
    if result.declined:
        return result.declined
    prefix = "Candidates left out: "
    for note in result.notes:
        if note.startswith(prefix):
            why = note[len(prefix) :]
            if len(why) > 300:
                why = why[:299].rstrip() + "…"
            return f"Every {what} that recurs across conversations was left out: {why}"
    if result.candidates:
        return (
            f"No {what} recurs enough to propose: each one seen is listed with the reason "
            "it was not proposed."
        )
    return f"The proposer found no {what} that recurs across the conversations read."


def _clean_text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, str) else ""


def _run_sentence(
    *,
    part: PartResult,
    agent: Agent,
    settings: LearningSettings,
    corpus: ReviewCorpus,
    persona: dict[str, Any],
    proposer: Proposer,
    avoid: frozenset[str],
    rejected: frozenset[str],
    base_version: int,
    review: Review,
    usage: ProposerResult,
    trigger: str,
) -> None:
    result = _call(part, usage, proposer.propose_sentence, corpus, persona, settings, avoid=avoid)
    if result.error or result.data is None:
        part.outcome, part.reason = ERROR, result.error or "The proposer answered nothing."
        return
    data = result.data
    field_name = data.get("field")
    text = _clean_text(data.get("sentence"))
    if field_name is None or not text:
        part.reason = _nothing_found(result, "pattern")
        return
    part.field, part.text = field_name, text
    quotes = data.get("evidence") or []
    verification = verify_quotes(
        text=text,
        quotes=quotes,
        corpus=corpus,
        min_conversations=settings.min_conversations,
        min_users=settings.min_users if settings.across_users else None,
    )
    part.verdicts = [_verdict_dict(v) for v in verification.verdicts]
    key = policy.content_key(text)
    current = persona.get(field_name) or ""
    refusal = ""
    if key in rejected:
        refusal = "This sentence was turned down or undone before; it is never proposed again."
    elif key in avoid:
        refusal = "The persona says this already."
    else:
        refusal = (
            policy.sentence_refusal(
                sentence=text, field=field_name, persona=persona, known_names=corpus.known_names
            )
            or ""
        )
    if not refusal and len(current) + 1 + len(text) > MAX_LEARNED_FIELD_CHARS:
        refusal = f"The {field_name} would pass {MAX_LEARNED_FIELD_CHARS:,} characters; learning adds no more to it."
    if not refusal and not verification.ok:
        refusal = verification.reason
    if not refusal:
        refusal = _shared_evidence_refusal(
            agent=agent, evidence=verification.evidence, other=Proposal.Kind.RULE
        )
    if refusal:
        part.outcome, part.reason = REFUSED, refusal
        part.candidates.insert(0, _refused_candidate(part, key, verification, refusal, rejected))
        return
    proposal = Proposal.objects.create(
        agent=agent,
        review=review,
        kind=Proposal.Kind.SENTENCE,
        field=field_name,
        text=text,
        content_key=key,
        evidence=verification.evidence,
        base_version=base_version,
    )
    part.proposal = proposal
    n = verification.conversations
    if settings.mode == Mode.ON:
        from learning.services.decisions import proposal_apply

        try:
            proposal_apply(proposal=proposal, by="auto")
        except Refusal as exc:
            Proposal.objects.filter(pk=proposal.pk, status=Proposal.Status.WAITING).update(
                status=Proposal.Status.DROPPED,
                status_reason=f"Could not be applied automatically: {exc}",
            )
            part.outcome = ERROR
            part.reason = f"The sentence could not be applied automatically: {exc}"
            return
        part.outcome = APPLIED
        part.reason = (
            f"Added a {field_name} sentence backed by {n} conversations (applied automatically)."
        )
    else:
        part.outcome = PROPOSED
        part.reason = (
            f"Proposed a {field_name} sentence backed by {n} conversations; it waits for review."
        )


def _run_rule(
    *,
    part: PartResult,
    agent: Agent,
    settings: LearningSettings,
    corpus: ReviewCorpus,
    persona: dict[str, Any],
    proposer: Proposer,
    avoid: frozenset[str],
    rejected: frozenset[str],
    base_version: int,
    review: Review,
    usage: ProposerResult,
) -> None:
    result = _call(part, usage, proposer.propose_rule, corpus, persona, settings, avoid=avoid)
    if result.error or result.data is None:
        part.outcome, part.reason = ERROR, result.error or "The proposer answered nothing."
        return
    text = _clean_text(result.data.get("rule"))
    if not text:
        part.reason = _nothing_found(result, "correction")
        return
    part.field, part.text = "standing_rules", text
    verification = verify_quotes(
        text=text,
        quotes=result.data.get("evidence") or [],
        corpus=corpus,
        min_conversations=settings.min_corrections,
        min_users=settings.min_users if settings.across_users else None,
        corrections_only=True,
    )
    part.verdicts = [_verdict_dict(v) for v in verification.verdicts]
    key = policy.content_key(text)
    waiting_same = Proposal.objects.filter(
        agent=agent, kind=Proposal.Kind.RULE, status=Proposal.Status.WAITING, content_key=key
    ).exists()
    if key in rejected:
        refusal = "This rule was turned down or undone before; it is never proposed again."
    elif key in avoid:
        refusal = "The persona holds this rule already."
    elif waiting_same:
        refusal = "The same rule is already waiting for a rule owner."
    else:
        refusal = (
            policy.rule_refusal(rule=text, persona=persona, known_names=corpus.known_names) or ""
        )
    if not refusal and not verification.ok:
        refusal = verification.reason
    if not refusal:
        texts = {m.id: m.text for m in corpus.messages}
        refusal = (
            policy.corrections_disagree(
                rule=text,
                quoted=[
                    (texts[v.message_id], v.start, v.end)
                    for v in verification.verdicts
                    if v.ok and v.message_id in texts and v.start is not None and v.end is not None
                ],
            )
            or ""
        )
    if not refusal:
        refusal = _shared_evidence_refusal(
            agent=agent, evidence=verification.evidence, other=Proposal.Kind.SENTENCE
        )
    if refusal:
        part.outcome, part.reason = REFUSED, refusal
        part.candidates.insert(0, _refused_candidate(part, key, verification, refusal, rejected))
        return
    part.proposal = Proposal.objects.create(
        agent=agent,
        review=review,
        kind=Proposal.Kind.RULE,
        field="standing_rules",
        text=text,
        content_key=key,
        evidence=verification.evidence,
        base_version=base_version,
    )
    part.outcome = PROPOSED
    owners = ", ".join(settings.rule_owners or []) or "any named person"
    part.reason = (
        f"Proposed a standing rule from corrections in {verification.conversations} conversations; "
        f"it waits for a rule owner ({owners})."
    )


def _refused_candidate(
    part: PartResult, key: str, verification: Any, refusal: str, rejected: frozenset[str]
) -> dict[str, Any]:
    """The proposer's pick the review refused, as a passed-over pattern."""
    conversations = getattr(verification, "conversations", 0) or 0
    people = getattr(verification, "users", 0) or 0
    if key in rejected:
        reason = candidates.TURNED_DOWN
    elif refusal.startswith("The persona "):
        reason = candidates.IN_PERSONA
    else:
        reason = candidates.REFUSED
    return candidates.candidate(
        kind=part.kind,
        text=part.text,
        reason=reason,
        conversations=conversations,
        people=people,
        key=key,
        detail=refusal,
    )


def _look_back(
    *,
    part: PartResult,
    agent: Agent,
    settings: LearningSettings,
    persona: dict[str, Any],
    proposer: Proposer | None,
    avoid: frozenset[str],
    timings: dict[str, float],
) -> None:
    """Nothing was proposed from the recent conversations and older ones were not read:
    read the whole history (``WHOLE_HISTORY_MAX_CONVERSATIONS`` at most, words only, no
    model call) for themes that recur enough there, and record each one the recent
    conversations did not show as "outside the recent conversations". Only a proposer
    that can look without a model call (``recurring_sentences``) is asked."""
    look = getattr(proposer, "recurring_sentences", None)
    if look is None:
        return
    t0 = time.perf_counter()
    whole = select_corpus(agent=agent, settings=settings, whole_history=True)
    short = (candidates.TOO_FEW_CONVERSATIONS, candidates.TOO_FEW_PEOPLE)
    known = {c.get("key"): i for i, c in enumerate(part.candidates)}
    for item in look(whole, persona, settings):
        at = known.get(item.get("key"))
        if at is not None and part.candidates[at]["reason"] not in short:
            continue  # the recent conversations explain it already
        item["reason"] = (
            candidates.AVOIDED if item.get("key") in avoid else candidates.OUTSIDE_WINDOW
        )
        if at is not None:  # too few in the recent conversations, enough over the history
            part.candidates[at] = item
        else:
            part.candidates.append(item)
    timings["look_back_ms"] = round((time.perf_counter() - t0) * 1000, 2)


def _evidence_messages(evidence: Any) -> set[int]:
    return {
        e["message_id"]
        for e in evidence or []
        if isinstance(e, dict) and isinstance(e.get("message_id"), int)
    }


def _shared_evidence_refusal(*, agent: Agent, evidence: Any, other: str) -> str:
    """One piece of evidence never backs a sentence and a rule waiting side by side:
    refuse this proposal when a waiting proposal of the ``other`` kind quotes one of
    the same messages ("" when none does)."""
    mine = _evidence_messages(evidence)
    if not mine:
        return ""
    for pk, theirs in Proposal.objects.filter(
        agent=agent, kind=other, status=Proposal.Status.WAITING
    ).values_list("pk", "evidence"):
        if mine & _evidence_messages(theirs):
            what = "standing rule" if other == Proposal.Kind.RULE else "goals/background sentence"
            return (
                f"A message it quotes already backs the waiting {what} (proposal {pk}); one piece "
                "of evidence never backs a sentence and a rule side by side. Decide that one first."
            )
    return ""


def _verdict_dict(verdict) -> dict[str, Any]:
    return {
        "quote": verdict.quote,
        "ok": verdict.ok,
        "reason": verdict.reason,
        "message_id": verdict.message_id,
        "conversation_id": verdict.conversation_id,
        "conversation": verdict.conversation_label,
        "principal_id": verdict.principal_id,
        "user": verdict.principal_external_id,
        "start": verdict.start,
        "end": verdict.end,
        "counted": verdict.counted,
    }
