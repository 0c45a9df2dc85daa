"""What a learning review may read (PRODUCT.md section 5, seed 004).

``select_corpus`` returns the user messages a review may read and nothing else:

- user messages only; assistant, system and tool messages are never read;
- sealed conversations never; other agents' conversations never (only this agent's
  conversations are queried);
- a multi-tenant agent is not read at all unless team mode (``across_users``) is on;
- single-person mode (``across_users`` False) learns from the *first person*: the
  principal of the agent's first stored conversation (lowest id, sealed or not). The
  choice is stable: new conversations, imports of older ones or sealing one never
  change it. Everyone else's conversations are skipped and counted;
- team mode reads every person's conversations round-robin by recency: each person's
  most recent conversation, ordered by recency, then each person's second most recent,
  and so on, so one busy person cannot fill the list;
- at most ``max_threads`` conversations and, of each, its ``max_messages_per_thread``
  most recent *user* messages (what a review reads);
- a message telling the agent who to be ("your goal is…", "add this to your
  persona", "you are now…"), holding a secret or hit by the injection scan is never
  read, not even its harmless part (``safety.evidence``), and counted by kind
  (``directive``, ``secret``, ``injection``); the first ``MAX_UNSAFE_LISTED`` are listed
  with their conversation and what the check found (the kinds of credential, the
  scan's pattern ids; never a word of the message), for the review log.

Summaries of the read conversations are context (left out in team mode, where they are
one person's); entity facts are context, never evidence (in team mode only facts not
tied to one person). Names of people and companies known to memory are collected only
to keep them out of the persona.

The number of queries does not depend on the amount of data: at most five.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, Min, OuterRef, Q, Window
from django.db.models.functions import RowNumber

from memory.models import Conversation, ConversationSummary, EntityFact, Message
from memory.redaction import REDACTED
from memory.verification import ReadMessage, ReviewCorpus
from safety.evidence import why_unsafe

MAX_CONTEXT_FACTS = 50
#: At most this many unread messages are listed one by one (``ReviewCorpus.unsafe``); all
#: are counted.
MAX_UNSAFE_LISTED = 20
#: "Review the whole history" reads at most this many conversations (the same
#: per-conversation message cap as any review).
WHOLE_HISTORY_MAX_CONVERSATIONS = 200


def select_corpus(*, agent: Any, settings: Any, whole_history: bool = False) -> ReviewCorpus:
    """Everything a review of ``agent`` with learning ``settings`` may read.

    ``settings`` is a ``LearningSettings`` (or anything with ``across_users``,
    ``max_threads`` and ``max_messages_per_thread``). ``whole_history`` reads every
    eligible conversation (at most ``WHOLE_HISTORY_MAX_CONVERSATIONS``) instead of the
    ``max_threads`` most recent ones. At most five queries.
    """
    team = bool(settings.across_users)
    corpus = ReviewCorpus(agent_id=agent.id, team_mode=team)
    if getattr(agent, "multi_tenant", False) and not team:
        corpus.skipped_reason = (
            "This agent serves people of several tenants (multi-tenant); it learns only in "
            "team mode (across_users), so nothing was read."
        )
        corpus.excluded["multi_tenant"] = 1
        return corpus
    max_threads = (
        WHOLE_HISTORY_MAX_CONVERSATIONS if whole_history else max(int(settings.max_threads), 0)
    )
    max_messages = max(int(settings.max_messages_per_thread), 0)

    # 1. the people this agent talks with: conversations, sealed ones, first conversation
    people = list(
        Conversation.objects.filter(agent_id=agent.id)
        .values(
            "principal_id",
            "principal__external_id",
            "principal__display_name",
            "principal__tenant_id",
        )
        .annotate(
            total=Count("id"),
            sealed_n=Count("id", filter=Q(sealed=True)),
            first_id=Min("id"),
        )
        .order_by()
    )
    external = {p["principal_id"]: p["principal__external_id"] for p in people}
    tenants = {agent.tenant_id} | {p["principal__tenant_id"] for p in people}
    for p in people:
        if p["principal__display_name"].strip():
            corpus.known_names.add(p["principal__display_name"].strip())
    sealed = sum(p["sealed_n"] for p in people)
    if sealed:
        corpus.excluded["sealed"] = sealed

    # 2. the conversations to read (the (agent, -last_message_at) indexes)
    base = Conversation.objects.readable().filter(agent_id=agent.id)
    if team:
        eligible = sum(p["total"] - p["sealed_n"] for p in people)
        rows = list(
            base.annotate(
                person_rank=Window(
                    RowNumber(),
                    partition_by=[F("principal_id")],
                    order_by=[F("last_message_at").desc(), F("id").desc()],
                )
            )
            .filter(person_rank__lte=max_threads)
            .order_by("person_rank", "-last_message_at", "-id")
            .values("id", "external_id", "principal_id")[:max_threads]
        )
    else:
        first = min(people, key=lambda p: p["first_id"]) if people else None
        learner = first["principal_id"] if first else None
        corpus.learner_principal_id = learner
        others = sum(p["total"] - p["sealed_n"] for p in people if p["principal_id"] != learner)
        if others:
            corpus.excluded["other_person"] = others
        eligible = (first["total"] - first["sealed_n"]) if first else 0
        rows = (
            list(
                base.filter(principal_id=learner)
                .order_by("-last_message_at", "-id")
                .values("id", "external_id", "principal_id")[:max_threads]
            )
            if learner is not None
            else []
        )
    if eligible > len(rows):
        corpus.excluded["not_recent"] = eligible - len(rows)
    conv_ids = [r["id"] for r in rows]
    labels = {r["id"]: r["external_id"] for r in rows}
    owners = {r["id"]: r["principal_id"] for r in rows}

    # 3. the most recent user messages of each chosen conversation, in one query
    if conv_ids and max_messages:
        assistant_before = Message.objects.filter(
            conversation_id=OuterRef("conversation_id"),
            role=Message.Role.ASSISTANT,
            seq__lt=OuterRef("seq"),
        )
        msgs = list(
            Message.objects.filter(conversation_id__in=conv_ids, role=Message.Role.USER)
            # a redacted message has no words left to read or quote
            .exclude(text=REDACTED)
            .annotate(
                recent_rank=Window(
                    RowNumber(), partition_by=[F("conversation_id")], order_by=F("seq").desc()
                ),
                after_assistant=Exists(assistant_before),
            )
            .filter(recent_rank__lte=max_messages)
            .values("id", "conversation_id", "seq", "text", "created_at", "after_assistant")
            .order_by()
        )
    else:
        msgs = []
    order = {cid: i for i, cid in enumerate(conv_ids)}
    msgs.sort(key=lambda m: (order[m["conversation_id"]], m["seq"]))
    unsafe: dict[str, int] = {}
    for m in msgs:
        cid = m["conversation_id"]
        found = why_unsafe(m["text"])
        if found:
            unsafe[found.kind] = unsafe.get(found.kind, 0) + 1
            if len(corpus.unsafe) < MAX_UNSAFE_LISTED:
                corpus.unsafe.append(
                    {"conversation": labels[cid], "kind": found.kind, "found": list(found.found)}
                )
            continue
        corpus.messages.append(
            ReadMessage(
                id=m["id"],
                conversation_id=cid,
                conversation_label=labels[cid],
                principal_id=owners[cid],
                principal_external_id=external.get(owners[cid], ""),
                seq=m["seq"],
                text=m["text"],
                created_at=m["created_at"],
                after_assistant=bool(m["after_assistant"]),
            )
        )
    corpus.excluded.update(unsafe)
    read = {m.conversation_id for m in corpus.messages}
    corpus.conversation_ids = [cid for cid in conv_ids if cid in read]
    corpus.threads_read = len(corpus.conversation_ids)
    corpus.messages_read = len(corpus.messages)
    corpus.newest_message_id = max((m.id for m in corpus.messages), default=0)

    # 4. summaries of the read conversations: context, and one person's, so not in team mode
    if corpus.conversation_ids and not team:
        latest = (
            ConversationSummary.objects.filter(conversation_id__in=corpus.conversation_ids)
            .annotate(
                newest_rank=Window(
                    RowNumber(),
                    partition_by=[F("conversation_id")],
                    order_by=[F("created_at").desc(), F("id").desc()],
                )
            )
            .filter(newest_rank=1)
            .values("conversation_id", "text")
            .order_by()
        )
        by_conv = {s["conversation_id"]: s["text"] for s in latest}
        corpus.summaries = [by_conv[c] for c in corpus.conversation_ids if c in by_conv]

    # 5. entity facts: names of people and companies (to keep out), and context facts
    kinds = [EntityFact.Kind.PERSON, EntityFact.Kind.COMPANY]
    personal = Q(principal_id__isnull=True)
    if not team and corpus.learner_principal_id is not None:
        personal |= Q(principal_id=corpus.learner_principal_id)
    facts = EntityFact.objects.filter(Q(kind__in=kinds) | personal, tenant_id__in=tenants).values(
        "principal_id", "entity", "kind", "fact"
    )
    for f in facts:
        if f["kind"] in kinds and f["entity"].strip():
            corpus.known_names.add(f["entity"].strip())
        context_ok = f["principal_id"] is None or (
            not team and f["principal_id"] == corpus.learner_principal_id
        )
        if context_ok and len(corpus.context_facts) < MAX_CONTEXT_FACTS:
            corpus.context_facts.append(f"{f['entity']}: {f['fact']}")
    return corpus
