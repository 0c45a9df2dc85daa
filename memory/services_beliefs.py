"""Writes of the memory kernel: beliefs, intentions and routines (issue 11).

``belief_write`` is the one writer of beliefs a host extracted. In order it:

1. validates every field (category, lengths, confidence 0..1, source, validity window,
   sensitivity, evidence) and refuses a proactive (``console``) turn: it must not
   write facts about the person;
2. refuses secrets and text the injection scan blocks (``safety.checks.check_write``:
   word patterns and the learned layer; ``render_context`` withholds again at render);
3. computes the statement's vector once (``memory.embeddings.vectors_for_texts``:
   stored per distinct text) *before* the transaction, unless embeddings are off;
4. in one transaction, with the person's row and their active beliefs of that category
   locked, compares the statement with each of them:

   - **contradiction** (same subject, the other says the opposite: one negated, or a
     single-valued category with a different value) -> the new belief *supersedes* the
     old one, which keeps its row with status ``superseded`` and links both ways;
   - **restatement** (content-word overlap or embedding cosine above a threshold) ->
     the old belief is *corroborated*: count + 1, retention reinforced, confidence
     raised; no new row;
   - otherwise a new belief.

   A belief that has ended (``valid_until`` passed) is compared only with a new one that
   has ended too: one about the past and one about the present are never the same
   belief, and neither replaces the other.

Refusals subclass ``personaweb.errors.Refusal``; nothing is written after one.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memory.candidates import forget_blocks
from memory.models import (
    Belief,
    BeliefEvidence,
    Conversation,
    Intention,
    Message,
    Principal,
    Routine,
)
from memory.models_beliefs import (
    SENSITIVITY_BY_NAME,
    BeliefCategory,
    MemorySource,
    category_track,
    initial_stability,
)
from memory.services import (
    MESSAGE_YEARS,
    MemoryInputError,
    principal_get_or_create,
    text_sha256,
)
from memory.signals import belief_ended
from personaweb.actors import MEMORY_WRITE, Actor
from personaweb.errors import NotPermitted, NotReachable, Refusal
from safety.checks import check_write
from safety.text import content_words, normalize, word_set, words

logger = logging.getLogger(__name__)

MAX_STATEMENT_CHARS = 500
MAX_QUOTE_CHARS = 2_000
MAX_ACTION_CHARS = 500
MAX_CATEGORY_CHARS = 30  # Belief.category
#: an ISO-8601 time with an offset and microseconds is 32 characters
MAX_TIME_CHARS = 40

#: A restatement: this share of content words in common (Jaccard) ...
RESTATEMENT_OVERLAP = 0.6
#: ... or this embedding cosine (all-MiniLM-L6-v2, L2-normalised vectors).
RESTATEMENT_COSINE = 0.86
#: Same subject, for a contradiction: this share of content words in common ...
SUBJECT_OVERLAP = 0.5
#: ... or this cosine when one of the two is negated.
SUBJECT_COSINE = 0.8
#: Categories where one value holds at a time: "lives in Berlin" then "lives in Lisbon"
#: is a change, not a second fact (likes, projects, expertise ... can hold many).
SINGLE_VALUE_CATEGORIES = frozenset({"identity", "explicit_facts", "state"})
#: Words that turn a statement into its opposite (compared after normalisation).
NEGATIONS = word_set(
    """
    not no never dont doesnt didnt isnt arent wasnt werent wont cant cannot couldnt
    shouldnt wouldnt hasnt havent hadnt neither nor stopped quit none nobody nothing
    """
)


class BeliefRefusal(Refusal):
    """A belief, intention or routine was not written; the message says why."""


@dataclass(frozen=True)
class BeliefWriteResult:
    belief: Belief
    #: "created", "corroborated", "superseded" or "muted" (nothing written: it restates a
    #: muted belief, or it is the very words of a redacted one)
    outcome: str
    superseded: Belief | None = None


def embeddings_enabled() -> bool:
    """``MEMORY_BELIEF_EMBEDDINGS`` (setting, default on): compute statement vectors."""
    return bool(getattr(settings, "MEMORY_BELIEF_EMBEDDINGS", True))


# --- validation ------------------------------------------------------------------------


def validate_category(category: object) -> str:
    if not isinstance(category, str) or category not in BeliefCategory.values:
        raise BeliefRefusal(
            f"The category {category!r} is not one of the 17 memory categories "
            f"({', '.join(BeliefCategory.values)})."
        )
    return category


def validate_statement(statement: object, *, what: str = "statement") -> str:
    if not isinstance(statement, str) or not statement.strip():
        raise BeliefRefusal(f"The {what} is empty; write what is true about the person.")
    text = " ".join(statement.split())
    if len(text) > MAX_STATEMENT_CHARS:
        raise BeliefRefusal(
            f"The {what} is {len(text)} characters long; the limit is {MAX_STATEMENT_CHARS}. "
            "Keep one fact per belief."
        )
    if not words(text):
        raise BeliefRefusal(f"The {what} has no words; write what is true about the person.")
    return text


def validate_unit(value: object, *, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BeliefRefusal(f"The {what} must be a number from 0 to 1, not {value!r}.")
    number = float(value)
    if not 0.0 <= number <= 1.0 or number != number:
        raise BeliefRefusal(f"The {what} is {value}; give a number from 0 to 1.")
    return number


def validate_source(source: object, *, writes: str) -> str:
    if source not in MemorySource.values:
        raise BeliefRefusal(
            f"The source {source!r} is not one of {', '.join(MemorySource.values)}."
        )
    if source == MemorySource.CONSOLE:
        raise BeliefRefusal(
            f"A proactive (console) turn may not write {writes} about the person; only what "
            "the person said in a direct or bridged conversation is remembered."
        )
    return str(source)


def validate_sensitivity(value: object) -> int:
    if isinstance(value, str) and value in SENSITIVITY_BY_NAME:
        return SENSITIVITY_BY_NAME[value]
    raise BeliefRefusal(
        f"The sensitivity {value!r} is not one of {', '.join(SENSITIVITY_BY_NAME)}."
    )


def validate_time(value: object, *, what: str) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) > MAX_TIME_CHARS:
            raise BeliefRefusal(
                f"The {what} is longer than any time ({MAX_TIME_CHARS} characters at most); "
                "write e.g. 2026-11-29T12:00:00+00:00."
            )
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise BeliefRefusal(
                f"The {what} {value!r} is not an ISO-8601 time; write e.g. 2026-11-29T12:00:00+00:00."
            ) from None
    if not isinstance(value, datetime):
        raise BeliefRefusal(f"The {what} must be a time, not {value!r}.")
    if timezone.is_naive(value):
        raise BeliefRefusal(
            f"The {what} has no time zone; give it with an offset, e.g. 2026-11-29T12:00:00+00:00."
        )
    low, high = MESSAGE_YEARS
    if not low <= value.year <= high:
        # the ends of the calendar overflow when the database moves the time to UTC
        raise BeliefRefusal(f"The {what} is outside the years {low} to {high}; check the date.")
    return value


@dataclass(frozen=True)
class Evidence:
    message: Message | None = None
    quote: str = ""
    start: int | None = None
    end: int | None = None
    host: str = ""


def _evidence(evidence: object, *, principal: Principal | None, agent: Any) -> Evidence:
    """``{"message_id", "quote", "start"?, "end"?}`` or ``{"host": "..."}``.

    A quote must be the person's own words: a user message of one of this agent's
    conversations with this person, found word for word (the span is checked or found).
    """
    if evidence is None:
        return Evidence()
    if not isinstance(evidence, dict):
        raise BeliefRefusal('The evidence must be {"message_id", "quote"} or {"host"}.')
    if "message_id" not in evidence:
        host = evidence.get("host")
        if not isinstance(host, str) or not host.strip() or len(host) > 200:
            raise BeliefRefusal(
                'The evidence names neither a message ("message_id" and "quote") nor a host '
                '("host", up to 200 characters).'
            )
        return Evidence(host=host.strip())
    quote = evidence.get("quote")
    if not isinstance(quote, str) or not quote.strip() or len(quote) > MAX_QUOTE_CHARS:
        raise BeliefRefusal(
            f"The evidence quote must be the person's words, 1 to {MAX_QUOTE_CHARS} characters."
        )
    message = (
        Message.objects.select_related("conversation")
        .filter(
            pk=evidence["message_id"] if isinstance(evidence["message_id"], int) else -1,
            conversation__agent=agent,
        )
        .first()
    )
    if message is None or principal is None or message.conversation.principal_id != principal.id:
        raise BeliefRefusal(
            "The evidence message is not in a conversation of this assistant with this person."
        )
    if message.role != Message.Role.USER:
        raise BeliefRefusal(
            "The evidence message is not the person's own (it is the assistant's or a tool's)."
        )
    # locked (the person is already): a seal running now waits, then withdraws this too
    readable = (
        Conversation.objects.readable()
        .select_for_update()
        .filter(pk=message.conversation_id)
        .values_list("pk", flat=True)
        .first()
    )
    if readable is None:
        raise BeliefRefusal(
            "The evidence message is in a sealed conversation; sealed conversations are never "
            "evidence. Quote an unsealed message, or give the host as the evidence."
        )
    start, end = evidence.get("start"), evidence.get("end")
    if start is not None or end is not None:
        if (
            not (isinstance(start, int) and isinstance(end, int))
            or message.text[start:end] != quote
        ):
            raise BeliefRefusal("The evidence span does not hold the quote word for word.")
        return Evidence(message=message, quote=quote, start=start, end=end)
    found = message.text.find(quote)
    if found >= 0:
        return Evidence(message=message, quote=quote, start=found, end=found + len(quote))
    norm_msg, norm_quote = normalize(message.text), normalize(quote).text
    at = norm_msg.text.find(norm_quote) if norm_quote else -1
    if at < 0:
        raise BeliefRefusal("The evidence quote is not in the message word for word.")
    s, e = norm_msg.original_span(at, at + len(norm_quote))
    return Evidence(message=message, quote=message.text[s:e], start=s, end=e)


# --- comparing two statements ----------------------------------------------------------


def jaccard(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def negated(text: str) -> bool:
    return bool(NEGATIONS.intersection(words(text)))


def _different_value(a: str, b: str) -> bool:
    """Same frame, another value: "lives in Berlin" / "lives in Lisbon".

    The two share at least two words, one of them of substance, covering at least half
    of each; what differs is short (up to three words on each side).
    """
    wa, wb = words(a), words(b)
    common = set(wa) & set(wb)
    only_a = [w for w in wa if w not in common]
    only_b = [w for w in wb if w not in common]
    if not only_a or not only_b or len(only_a) > 3 or len(only_b) > 3:
        return False
    if len(common) < 2 or not (content_words(" ".join(common))):
        return False
    return len(common) / len(set(wa)) >= 0.5 and len(common) / len(set(wb)) >= 0.5


def compare(new: str, old: str, *, category: str, cosine: float | None) -> str | None:
    """``"contradicts"``, ``"restates"`` or ``None`` (a different fact)."""
    overlap = jaccard(content_words(new), content_words(old))
    cos = -1.0 if cosine is None else cosine
    if negated(new) != negated(old) and (overlap >= SUBJECT_OVERLAP or cos >= SUBJECT_COSINE):
        return "contradicts"
    if category in SINGLE_VALUE_CATEGORIES and _different_value(new, old):
        return "contradicts"
    if overlap >= RESTATEMENT_OVERLAP or cos >= RESTATEMENT_COSINE:
        return "restates"
    return None


def _vector(statement: str) -> tuple[np.ndarray | None, int | None]:
    """The statement's stored vector and its TextEmbedding id (computed once per text)."""
    if not embeddings_enabled():
        return None, None
    from memory.embeddings import bank_votes_store, vectors_for_texts
    from memory.models import TextEmbedding

    vector = vectors_for_texts([statement])[0]
    embedding_id = (
        TextEmbedding.objects.filter(sha256=text_sha256(statement))
        .values_list("id", flat=True)
        .first()
    )
    if embedding_id is not None:
        # the bank's reading of the statement, kept with its vector (not on the ranking's
        # path); skipped when the bank would have to be encoded first
        bank_votes_store([embedding_id])
    return vector, embedding_id


# --- beliefs ---------------------------------------------------------------------------


def _record_evidence(belief: Belief, proof: Evidence, *, now: datetime) -> None:
    """Keep the message a write rests on (once per message): sealing withdraws by these."""
    if proof.message is None:
        return
    BeliefEvidence.objects.get_or_create(
        belief=belief,
        message=proof.message,
        defaults={"quote": proof.quote, "start": proof.start, "end": proof.end, "created_at": now},
    )


def beliefs_changed(principal_id: int) -> None:
    """Mark a person's beliefs as changed (inside the writer's transaction), so every
    process's ``build_context`` cache of that person reloads and their packed block
    (``memory.candidates``), if they have one, is rebuilt after the commit."""
    from memory.candidates import after_change

    Principal.objects.filter(pk=principal_id).update(beliefs_token=uuid.uuid4().hex)
    transaction.on_commit(lambda: after_change(principal_id))


def belief_write(
    *,
    agent: Any,
    principal_external_id: str,
    category: str,
    statement: str,
    confidence: float,
    source: str,
    valid_from: datetime | str | None = None,
    valid_until: datetime | str | None = None,
    due: datetime | str | None = None,
    sensitivity: str = "internal",
    evidence: dict[str, Any] | None = None,
    derivation: str = Belief.Derivation.DIRECT,
    now: datetime | None = None,
) -> BeliefWriteResult:
    """Store what the host extracted about a person (see the module docstring)."""
    now = now or timezone.now()
    category = validate_category(category)
    statement = validate_statement(statement)
    confidence = validate_unit(confidence, what="confidence")
    source = validate_source(source, writes="facts")
    level = validate_sensitivity(sensitivity)
    if derivation not in Belief.Derivation.values:
        raise BeliefRefusal(
            f"The derivation {derivation!r} is not one of {', '.join(Belief.Derivation.values)}."
        )
    start = validate_time(valid_from, what="valid_from")
    until = validate_time(valid_until, what="valid_until")
    due_at = validate_time(due, what="due time")
    if start and until and until < start:
        raise BeliefRefusal("The belief ends (valid_until) before it starts (valid_from).")
    check_write(statement, "belief")
    if evidence and isinstance(evidence.get("quote"), str):
        check_write(evidence["quote"], "quote")

    vector, embedding_id = _vector(statement)
    with transaction.atomic():
        principal = principal_get_or_create(
            tenant_id=agent.tenant_id, external_id=principal_external_id
        )
        # one writer per person at a time: the first belief of a category has no row to lock
        Principal.objects.select_for_update().filter(pk=principal.pk).values_list("pk").first()
        proof = _evidence(evidence, principal=principal, agent=agent)
        peers = list(
            Belief.objects.select_for_update(of=("self",))
            .filter(
                principal=principal,
                category=category,
                status__in=[Belief.Status.ACTIVE, Belief.Status.MUTED, Belief.Status.REDACTED],
            )
            .select_related("embedding")
            .order_by("-last_reinforced_at", "-id")
        )
        # a redacted belief keeps the hash of its words: the same words are not stored again
        sha = text_sha256(statement)
        redacted = next(
            (b for b in peers if b.status == Belief.Status.REDACTED and b.text_sha256 == sha), None
        )
        if redacted is not None:
            return BeliefWriteResult(belief=redacted, outcome="muted")
        peers = [b for b in peers if b.status != Belief.Status.REDACTED]
        verdicts: list[tuple[str, Belief]] = []
        ended = until is not None and until <= now
        for old in peers:
            if (old.valid_until is not None and old.valid_until <= now) != ended:
                # one speaks of the past, the other of the present: never the same belief,
                # and neither replaces the other (a current "drinks green tea" is not a
                # corroboration of an ended "drank green tea", nor is it ended by it)
                continue
            cosine = None
            if vector is not None and old.embedding is not None:
                from memory.embeddings import unpack_vector

                cosine = float(np.dot(vector, unpack_vector(old.embedding.vector)))
            verdict = compare(statement, old.statement, category=category, cosine=cosine)
            if verdict:
                verdicts.append((verdict, old))
        muted = next(
            (old for v, old in verdicts if v == "restates" and old.status == Belief.Status.MUTED),
            None,
        )
        if muted is not None:
            # the person asked for it not to be mentioned again: nothing is learned back
            return BeliefWriteResult(belief=muted, outcome="muted")
        verdicts = [(v, old) for v, old in verdicts if old.status == Belief.Status.ACTIVE]
        contradicted = next((old for v, old in verdicts if v == "contradicts"), None)
        restated = next((old for v, old in verdicts if v == "restates"), None)

        if contradicted is None and restated is not None:
            restated.corroboration_count += 1
            restated.reinforce(now)
            top = max(restated.confidence, confidence)
            restated.confidence = round(top + (1 - top) * 0.25, 4)
            if until and restated.valid_until and until > restated.valid_until:
                restated.valid_until = until
            if proof.message and restated.evidence_message_id is None:
                restated.evidence_message = proof.message
                restated.evidence_quote = proof.quote
                restated.evidence_start, restated.evidence_end = proof.start, proof.end
            restated.updated_at = now
            restated.save()
            _record_evidence(restated, proof, now=now)
            beliefs_changed(principal.pk)
            return BeliefWriteResult(belief=restated, outcome="corroborated")

        belief = Belief.objects.create(
            tenant_id=agent.tenant_id,
            principal=principal,
            agent=agent,
            category=category,
            statement=statement,
            confidence=confidence,
            status=Belief.Status.ACTIVE,
            derivation=derivation,
            authority=Belief.Authority.HOST,
            source=source,
            sensitivity=level,
            valid_from=start,
            valid_until=until,
            due_at=due_at,
            stability_days=initial_stability(category),
            last_reinforced_at=now,
            evidence_message=proof.message,
            evidence_quote=proof.quote,
            evidence_start=proof.start,
            evidence_end=proof.end,
            source_host=proof.host,
            supersedes=contradicted,
            text_sha256=text_sha256(statement),
            embedding_id=embedding_id,
            created_at=now,
            updated_at=now,
        )
        _record_evidence(belief, proof, now=now)
        beliefs_changed(principal.pk)
        if contradicted is not None:
            contradicted.status = Belief.Status.SUPERSEDED
            contradicted.superseded_by = belief
            if contradicted.valid_until is None or contradicted.valid_until > now:
                contradicted.valid_until = max(now, contradicted.valid_from or now)
            contradicted.updated_at = now
            contradicted.save(
                update_fields=["status", "superseded_by", "valid_until", "updated_at"]
            )
            logger.info(
                "belief %s supersedes %s (%s track)",
                belief.pk,
                contradicted.pk,
                category_track(category),
            )
            belief_ended.send(sender=Belief, belief=contradicted, reason="superseded")
            return BeliefWriteResult(belief=belief, outcome="superseded", superseded=contradicted)
        return BeliefWriteResult(belief=belief, outcome="created")


@transaction.atomic
def belief_retire(*, belief: Belief, delete: bool = False, now: datetime | None = None) -> Belief:
    """Take a belief out of recall. ``delete`` also wipes its words and quote (the row
    stays as a tombstone so history links hold)."""
    now = now or timezone.now()
    locked = Belief.objects.select_for_update().get(pk=belief.pk)
    if locked.status == Belief.Status.DELETED:
        raise BeliefRefusal("This belief was deleted already.")
    if delete:
        locked.status = Belief.Status.DELETED
        locked.statement = ""
        locked.evidence_quote = ""
        locked.evidence_start = locked.evidence_end = None
        locked.evidence_message = None
        locked.embedding = None
        locked.text_sha256 = ""
        locked.evidence_rows.all().delete()
        forget_blocks([locked.principal_id])  # the wiped words leave the packed block too
    else:
        if locked.status != Belief.Status.ACTIVE:
            raise BeliefRefusal(f"This belief is {locked.status} already, not active.")
        locked.status = Belief.Status.RETIRED
    locked.updated_at = now
    locked.save()
    beliefs_changed(locked.principal_id)
    belief_ended.send(sender=Belief, belief=locked, reason="deleted" if delete else "retired")
    return locked


def belief_correct(
    *, belief: Belief, statement: str, by: str = "", now: datetime | None = None
) -> BeliefWriteResult:
    """An operator rewords a belief: a new active belief (authority ``operator``) that
    supersedes ``belief``, which keeps its row, words and history.

    The statement passes ``belief_write``'s checks (length, words, secrets, injection).
    The new belief keeps the category, sensitivity, validity window, due time and
    evidence of the one it corrects (the quote is still what the person said; the
    correction is an operator's reading of it) and starts a fresh retention curve.
    Refused: a belief that is not active, the same words again, or words that restate
    or contradict another active belief of the category (correct or retire that one).
    """
    now = now or timezone.now()
    statement = validate_statement(statement)
    check_write(statement, "belief")
    if normalize(statement).text == normalize(belief.statement).text:
        raise BeliefRefusal(
            "The correction says the same as the belief; change the words, or retire it."
        )
    vector, embedding_id = _vector(statement)
    with transaction.atomic():
        # the same lock order as belief_write: the person, then their beliefs
        Principal.objects.select_for_update().filter(pk=belief.principal_id).values_list(
            "pk"
        ).first()
        old = Belief.objects.select_for_update().get(pk=belief.pk)
        if old.status != Belief.Status.ACTIVE:
            raise BeliefRefusal(
                f"This belief is {old.status} already; only an active belief can be corrected."
            )
        peers = (
            Belief.objects.filter(
                principal_id=old.principal_id, category=old.category, status=Belief.Status.ACTIVE
            )
            .exclude(pk=old.pk)
            .select_related("embedding")
            .order_by("-last_reinforced_at", "-id")
        )
        for peer in peers:
            cosine = None
            if vector is not None and peer.embedding is not None:
                from memory.embeddings import unpack_vector

                cosine = float(np.dot(vector, unpack_vector(peer.embedding.vector)))
            verdict = compare(statement, peer.statement, category=old.category, cosine=cosine)
            if verdict == "restates":
                raise BeliefRefusal(
                    f"Belief #{peer.pk} already says this (“{peer.statement}”); retire this "
                    "one instead of correcting it."
                )
            if verdict == "contradicts":
                raise BeliefRefusal(
                    f"The correction contradicts belief #{peer.pk} (“{peer.statement}”); "
                    "correct or retire that one first."
                )
        new = Belief.objects.create(
            tenant_id=old.tenant_id,
            principal_id=old.principal_id,
            agent_id=old.agent_id,
            category=old.category,
            statement=statement,
            confidence=old.confidence,
            status=Belief.Status.ACTIVE,
            derivation=Belief.Derivation.DIRECT,
            authority=Belief.Authority.OPERATOR,
            source=old.source,
            sensitivity=old.sensitivity,
            valid_from=old.valid_from,
            valid_until=old.valid_until,
            due_at=old.due_at,
            stability_days=initial_stability(old.category),
            last_reinforced_at=now,
            evidence_message_id=old.evidence_message_id,
            evidence_quote=old.evidence_quote,
            evidence_start=old.evidence_start,
            evidence_end=old.evidence_end,
            source_host=old.source_host,
            supersedes=old,
            text_sha256=text_sha256(statement),
            embedding_id=embedding_id,
            created_at=now,
            updated_at=now,
        )
        # the correction rests on what the old belief rested on
        BeliefEvidence.objects.bulk_create(
            BeliefEvidence(
                belief=new,
                message_id=row.message_id,
                quote=row.quote,
                start=row.start,
                end=row.end,
                created_at=row.created_at,
            )
            for row in old.evidence_rows.all()
        )
        old.status = Belief.Status.SUPERSEDED
        old.superseded_by = new
        old.updated_at = now
        old.save(update_fields=["status", "superseded_by", "updated_at"])
        beliefs_changed(old.principal_id)
        belief_ended.send(sender=Belief, belief=old, reason="corrected")
    logger.info("belief %s corrected as %s by %s", old.pk, new.pk, by or "(unnamed)")
    return BeliefWriteResult(belief=new, outcome="superseded", superseded=old)


# --- intentions ------------------------------------------------------------------------


def _duration(value: object, *, what: str, default: timedelta) -> timedelta:
    if value is None:
        return default
    if isinstance(value, timedelta):
        seconds = value.total_seconds()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    else:
        raise BeliefRefusal(f"The {what} must be a number of seconds, not {value!r}.")
    if not 0 <= seconds <= 366 * 86_400:
        raise BeliefRefusal(f"The {what} must be between 0 seconds and a year.")
    return timedelta(seconds=seconds)


def intention_write(
    *,
    agent: Any,
    principal_external_id: str,
    action: str,
    due: datetime | str,
    source: str,
    lead_time: timedelta | float | None = None,
    grace: timedelta | float | None = None,
    importance: float = 0.5,
    confidence: float = 0.8,
    now: datetime | None = None,
) -> Intention:
    """Store a one-off commitment. The same open action due the same day is updated,
    not stored twice."""
    now = now or timezone.now()
    action = validate_statement(action, what="action")
    if len(action) > MAX_ACTION_CHARS:
        raise BeliefRefusal(f"The action is longer than {MAX_ACTION_CHARS} characters.")
    due_at = validate_time(due, what="due time")
    if due_at is None:
        raise BeliefRefusal("An intention needs a due time.")
    importance = validate_unit(importance, what="importance")
    confidence = validate_unit(confidence, what="confidence")
    source = validate_source(source, writes="commitments")
    lead = _duration(lead_time, what="lead time", default=timedelta(days=1))
    grace_period = _duration(grace, what="grace", default=timedelta(hours=12))
    check_write(action, "intention")
    key = normalize(action).text
    with transaction.atomic():
        principal = principal_get_or_create(
            tenant_id=agent.tenant_id, external_id=principal_external_id
        )
        same_day = (
            Intention.objects.select_for_update()
            .filter(
                principal=principal,
                state=Intention.State.OPEN,
                due_at__gte=due_at - timedelta(hours=12),
                due_at__lte=due_at + timedelta(hours=12),
            )
            .order_by("id")
        )
        for existing in same_day:
            if normalize(existing.action).text == key:
                existing.due_at = due_at
                existing.lead_time, existing.grace = lead, grace_period
                existing.importance = max(existing.importance, importance)
                existing.confidence = max(existing.confidence, confidence)
                existing.updated_at = now
                existing.save()
                return existing
        return Intention.objects.create(
            tenant_id=agent.tenant_id,
            principal=principal,
            agent=agent,
            action=action,
            due_at=due_at,
            lead_time=lead,
            grace=grace_period,
            importance=importance,
            confidence=confidence,
            source=source,
            created_at=now,
            updated_at=now,
        )


@transaction.atomic
def intention_set_state(
    *, intention: Intention, state: str, now: datetime | None = None
) -> Intention:
    if state not in Intention.State.values:
        raise BeliefRefusal(
            f"The state {state!r} is not one of {', '.join(Intention.State.values)}."
        )
    locked = Intention.objects.select_for_update().get(pk=intention.pk)
    locked.state = state
    locked.updated_at = now or timezone.now()
    locked.save(update_fields=["state", "updated_at"])
    return locked


# --- routines --------------------------------------------------------------------------


def routine_label(
    *,
    agent: Any,
    principal_external_id: str,
    action: str,
    weekdays: list[int],
    time: Any,
    anchor_date: Any,
    valid_until: Any = None,
    status: str = Routine.Status.CONFIRMED,
    now: datetime | None = None,
) -> Routine:
    """Name a weekly routine. An explicit label makes it ``confirmed`` unless told
    ``candidate`` (one observation); the same action again updates it and counts the
    observation (a second observation of a candidate confirms it)."""
    from datetime import date as date_type
    from datetime import time as time_type

    now = now or timezone.now()
    action = validate_statement(action, what="action")
    check_write(action, "routine")
    if (
        not isinstance(weekdays, list)
        or not weekdays
        or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 7 for d in weekdays)
    ):
        raise BeliefRefusal("The weekdays must be a list of 1 (Monday) to 7 (Sunday).")
    try:
        at = time if isinstance(time, time_type) else time_type.fromisoformat(str(time))
        anchor = (
            anchor_date
            if isinstance(anchor_date, date_type)
            else date_type.fromisoformat(str(anchor_date))
        )
        until = (
            None
            if valid_until is None
            else valid_until
            if isinstance(valid_until, date_type)
            else date_type.fromisoformat(str(valid_until))
        )
    except ValueError:
        raise BeliefRefusal(
            "The time must be HH:MM and the dates YYYY-MM-DD (e.g. 19:00, 2026-10-20)."
        ) from None
    if until is not None and until < anchor:
        raise BeliefRefusal("The routine ends (valid_until) before its anchor date.")
    if status not in Routine.Status.values:
        raise BeliefRefusal(
            f"The status {status!r} is not one of {', '.join(Routine.Status.values)}."
        )
    key = normalize(action).text
    with transaction.atomic():
        principal = principal_get_or_create(
            tenant_id=agent.tenant_id, external_id=principal_external_id
        )
        for existing in Routine.objects.select_for_update().filter(principal=principal):
            if normalize(existing.action).text == key:
                existing.weekdays = sorted(set(weekdays))
                existing.time, existing.anchor_date, existing.valid_until = at, anchor, until
                existing.observations += 1
                if (
                    existing.status == Routine.Status.CANDIDATE
                    or status != Routine.Status.CANDIDATE
                ):
                    existing.status = (
                        Routine.Status.CONFIRMED if status == Routine.Status.CANDIDATE else status
                    )
                existing.updated_at = now
                existing.save()
                return existing
        return Routine.objects.create(
            tenant_id=agent.tenant_id,
            principal=principal,
            agent=agent,
            action=action,
            weekdays=sorted(set(weekdays)),
            time=at,
            anchor_date=anchor,
            valid_until=until,
            status=status,
            created_at=now,
            updated_at=now,
        )


@transaction.atomic
def routine_feedback(*, routine: Routine, feedback: str, now: datetime | None = None) -> Routine:
    """Record what the person answered to a probe. ``confirmed`` moves a candidate to
    confirmed and a confirmed routine (after three observations) to trusted;
    ``skipped_today`` silences today's probe only; ``denied`` pauses the routine;
    ``silence`` changes nothing but is kept apart from the others."""
    now = now or timezone.now()
    if feedback not in Routine.Feedback.values or not feedback:
        raise BeliefRefusal(
            f"The feedback {feedback!r} is not one of confirmed, skipped_today, denied, silence."
        )
    locked = Routine.objects.select_for_update().get(pk=routine.pk)
    if feedback == Routine.Feedback.CONFIRMED:
        locked.observations += 1
        if locked.status == Routine.Status.CANDIDATE:
            locked.status = Routine.Status.CONFIRMED
        elif locked.status == Routine.Status.CONFIRMED and locked.observations >= 3:
            locked.status = Routine.Status.TRUSTED
    elif feedback == Routine.Feedback.DENIED:
        locked.status = Routine.Status.PAUSED
    locked.last_feedback = feedback
    locked.last_feedback_on = now.date()
    locked.updated_at = now
    locked.save()
    return locked


__all__ = [
    "BeliefRefusal",
    "BeliefWriteResult",
    "MemoryInputError",
    "belief_correct",
    "belief_retire",
    "belief_write",
    "intention_set_state",
    "intention_write",
    "routine_feedback",
    "routine_label",
]


def belief_set_promoted(*, belief_id: int, promoted: bool) -> None:
    """Mark (or clear) a belief as standing in its owner's persona document. The
    caller (the owner-document service) holds the transaction; the belief is never
    superseded or deleted by this."""
    updated = Belief.objects.filter(pk=belief_id).update(promoted=promoted)
    if updated:
        principal_id = Belief.objects.filter(pk=belief_id).values_list("principal_id", flat=True)[0]
        beliefs_changed(principal_id)


#: a belief given to a host is marked at most this often (one UPDATE that usually matches
#: nothing: the health check needs days, not seconds)
GIVEN_MARK_EVERY = timedelta(hours=12)


def beliefs_mark_given(belief_ids: Iterable[int], *, now: datetime | None = None) -> int:
    """Record that a host's context pack carried these beliefs (one query)."""
    ids = list(dict.fromkeys(belief_ids))
    if not ids:
        return 0
    now = now or timezone.now()
    return (
        Belief.objects.filter(pk__in=ids)
        .filter(Q(last_given_at__isnull=True) | Q(last_given_at__lt=now - GIVEN_MARK_EVERY))
        .update(last_given_at=now)
    )


@transaction.atomic
def belief_merge(*, keep: Belief, duplicate: Belief, now: datetime | None = None) -> Belief:
    """Fold ``duplicate`` into ``keep`` (the health check's near twins): its evidence
    moves to ``keep``, which counts its corroborations, and it ends as superseded by
    ``keep``. Nothing is deleted. Both must be active beliefs about the same person."""
    now = now or timezone.now()
    if keep.pk == duplicate.pk:
        raise BeliefRefusal("A belief cannot be merged into itself.")
    rows = {
        b.pk: b for b in Belief.objects.select_for_update().filter(pk__in=[keep.pk, duplicate.pk])
    }
    kept, dup = rows.get(keep.pk), rows.get(duplicate.pk)
    if kept is None or dup is None:
        raise BeliefRefusal("One of these beliefs no longer exists; run the health check again.")
    if kept.principal_id != dup.principal_id or kept.tenant_id != dup.tenant_id:
        raise BeliefRefusal("Only beliefs about the same person can be merged.")
    for b in (kept, dup):
        if b.status != Belief.Status.ACTIVE:
            raise BeliefRefusal(
                f"This belief is {b.status} already, not active; run the health check again."
            )
    held = set(kept.evidence_rows.values_list("message_id", flat=True))
    BeliefEvidence.objects.filter(belief=dup).exclude(message_id__in=held).update(belief=kept)
    kept.corroboration_count += dup.corroboration_count
    kept.confidence = max(kept.confidence, dup.confidence)
    kept.updated_at = now
    kept.save(update_fields=["corroboration_count", "confidence", "updated_at"])
    dup.status = Belief.Status.SUPERSEDED
    dup.superseded_by = kept
    dup.updated_at = now
    dup.save(update_fields=["status", "superseded_by", "updated_at"])
    beliefs_changed(kept.principal_id)
    belief_ended.send(sender=Belief, belief=dup, reason="merged")
    return kept


def belief_mute_authorise(actor: Actor, belief: Belief) -> str:
    """Who mutes or unmutes ``belief`` for an ``actor`` (the command line's named login):
    an operator reaching the person (``memory.write``); another tenant's belief is not
    found. The pages ask ``require_operator`` or the owner's link before they call."""
    actor.require(tenant_id=belief.tenant_id, what=f"No belief {belief.pk} here.")
    if not actor.reaches_principal(belief.principal_id):
        raise NotReachable(f"No belief {belief.pk} here.")
    if not actor.may(MEMORY_WRITE):
        raise NotPermitted(
            f"Only an operator of the person's team mutes or unmutes a belief (or the person "
            f"on My persona); {actor.name or 'this login'} is neither. Nothing changed."
        )
    return actor.name


@transaction.atomic
def belief_mute(
    *,
    belief: Belief,
    by: str = "",
    actor: Actor | None = None,
    reason: str = "",
    now: datetime | None = None,
) -> Belief:
    """ "Don't mention this again": the belief stays (with who muted it, when and why) but
    no host is given it and no write or consolidation brings it back (``belief_write``
    answers ``muted``). Undone by ``belief_unmute``. With ``actor`` (the command line) who
    may is checked here (``belief_mute_authorise``) and the actor is ``by``."""
    if actor is not None:
        by = belief_mute_authorise(actor, belief)
    now = now or timezone.now()
    reason = " ".join((reason or "").split())[:500]
    locked = Belief.objects.select_for_update().get(pk=belief.pk)
    if locked.status == Belief.Status.MUTED:
        raise BeliefRefusal("This belief is muted already.")
    if locked.status != Belief.Status.ACTIVE:
        raise BeliefRefusal(f"This belief is {locked.status}, not active: no host is given it.")
    if reason:
        check_write(reason, "reason")
    locked.status = Belief.Status.MUTED
    locked.muted_at = now
    locked.muted_by = by
    locked.mute_reason = reason
    locked.updated_at = now
    locked.save(update_fields=["status", "muted_at", "muted_by", "mute_reason", "updated_at"])
    logger.info("belief %s muted by %s", locked.pk, by or "(unnamed)")
    beliefs_changed(locked.principal_id)
    belief_ended.send(sender=Belief, belief=locked, reason="muted")
    return locked


@transaction.atomic
def belief_unmute(
    *, belief: Belief, by: str = "", actor: Actor | None = None, now: datetime | None = None
) -> Belief:
    """Undo ``belief_mute``: the belief is active again (who muted it stays recorded
    until it is muted again; the log says who unmuted it). ``actor``: as ``belief_mute``."""
    if actor is not None:
        by = belief_mute_authorise(actor, belief)
    now = now or timezone.now()
    locked = Belief.objects.select_for_update().get(pk=belief.pk)
    if locked.status != Belief.Status.MUTED:
        raise BeliefRefusal(f"This belief is {locked.status}, not muted.")
    locked.status = Belief.Status.ACTIVE
    locked.updated_at = now
    locked.save(update_fields=["status", "updated_at"])
    logger.info("belief %s unmuted by %s", locked.pk, by or "(unnamed)")
    beliefs_changed(locked.principal_id)
    return locked
