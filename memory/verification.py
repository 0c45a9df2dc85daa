"""Word-for-word quote verification (PRODUCT.md section 5), shared by persona learning
and memory consolidation (both sit above ``memory``, so it lives here).

The model proposes; this code decides. Each quote is searched for by the code in every
user message the review could read (the model's conversation label is only a hint used
to break ties) and is verified only when:

- it has at least ``MIN_QUOTE_WORDS`` words;
- after normalisation (``safety.text``: NFKC, case, white space, typographic
  quotes and dashes, invisible characters, punctuation between words) its words, in
  order, sit inside ONE user message of the corpus, starting and ending on word
  boundaries;
- with ``corrections_only`` (standing rules), that message was written after an
  assistant reply in its conversation;
- it shares a content word with the proposed text;
- each quote counts for at most one conversation and each conversation at most once;
  when a quote is found in several conversations, the assignment that counts the most
  conversations (and, in team mode, the most people) is chosen. A valid quote whose
  conversation another quote already counts is still verified (``ok``) but not
  ``counted``: it does not count twice, and it does not sink the proposal either.

A proposal passes when every quote is verified, the counted quotes cover at least
``min_conversations`` different conversations (seed 004: "found word for word in
different conversations") and, in team mode (``min_users`` not None), at least
``min_users`` different people.

Anything the review may not read (sealed conversations, other agents' or other
people's conversations, directive messages, assistant messages) is simply not in the
corpus, so a quote from there is "not found".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from safety.text import NormText, content_words, normalize, share_a_word


@dataclass(frozen=True)
class ReadMessage:
    """A user message a review (or a consolidation run) may read."""

    id: int
    conversation_id: int
    conversation_label: str
    principal_id: int
    principal_external_id: str
    seq: int
    text: str
    created_at: datetime
    # written after an assistant reply in the same conversation: a correction candidate
    after_assistant: bool


@dataclass
class ReviewCorpus:
    agent_id: int
    messages: list[ReadMessage] = field(default_factory=list)  # in reading order
    conversation_ids: list[int] = field(default_factory=list)  # threads read, in order
    threads_read: int = 0
    messages_read: int = 0
    excluded: dict[str, int] = field(default_factory=dict)  # reason -> count
    # messages never read as evidence, each as {conversation, kind, found} (no words of it)
    unsafe: list[dict[str, Any]] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)  # context only; none in team mode
    context_facts: list[str] = field(default_factory=list)  # context, never evidence
    known_names: set[str] = field(default_factory=set)  # used ONLY to keep names out
    newest_message_id: int = 0  # newest message read: "nothing new since the last review"
    skipped_reason: str = ""  # non-empty when the agent may not learn at all
    team_mode: bool = False
    learner_principal_id: int | None = None  # single-person mode: the first person

    def by_conversation(self) -> dict[int, list[ReadMessage]]:
        out: dict[int, list[ReadMessage]] = {cid: [] for cid in self.conversation_ids}
        for m in self.messages:
            out.setdefault(m.conversation_id, []).append(m)
        return out

    @property
    def correction_conversations(self) -> int:
        """Conversations holding a user line written after an assistant reply."""
        return len({m.conversation_id for m in self.messages if m.after_assistant})


MIN_QUOTE_WORDS = 4
MAX_QUOTES = 20  # more is not evidence, it is noise (and bounds the matching's recursion)

NOT_FOUND = "not found word for word in any conversation this review could read"
TOO_SHORT = f"shorter than {MIN_QUOTE_WORDS} words"
MID_WORD = "starts or ends in the middle of a word"
ACROSS_MESSAGES = "runs across two messages; a quote must sit inside one user message"
NOT_CORRECTION = (
    "found only in a message that was not a correction (a user line written after an "
    "assistant reply)"
)
NO_SHARED_WORD = "shares no word with the sentence"
#: not a rejection: the note on a verified quote that is not counted a second time
ALREADY_COUNTED = "its conversation already counted by another quote"
EMPTY = "the quote is empty"


@dataclass(frozen=True)
class QuoteVerdict:
    quote: str
    ok: bool
    reason: str  # why it was rejected; for a verified quote "" or ALREADY_COUNTED
    message_id: int | None = None
    conversation_id: int | None = None
    conversation_label: str = ""
    principal_id: int | None = None
    principal_external_id: str = ""
    start: int | None = None  # span in the ORIGINAL message text
    end: int | None = None
    counted: bool = False  # counted towards a distinct conversation

    def as_evidence(self) -> dict[str, Any]:
        """The stored form of a verified quote (what the dashboard highlights)."""
        return {
            "quote": self.quote,
            "message_id": self.message_id,
            "conversation_id": self.conversation_id,
            "conversation": self.conversation_label,
            "principal_id": self.principal_id,
            "user": self.principal_external_id,
            "start": self.start,
            "end": self.end,
        }


@dataclass
class Verification:
    ok: bool
    reason: str
    verdicts: list[QuoteVerdict] = field(default_factory=list)
    conversations: int = 0  # distinct conversations counted
    users: int = 0  # distinct people among them

    @property
    def evidence(self) -> list[dict[str, Any]]:
        return [v.as_evidence() for v in self.verdicts if v.ok]


@dataclass(frozen=True)
class _Hit:
    message: ReadMessage
    start: int
    end: int


def _find_in(norm: NormText, needle: str) -> tuple[int, int] | None:
    """First occurrence of ``needle`` on word boundaries, as a normalised span."""
    hay = f" {norm.text} "
    i = hay.find(f" {needle} ")
    if i < 0:
        return None
    return i, i + len(needle)  # hay offset i+1 is text offset i


def _hits(needle: str, corpus: ReviewCorpus, norms: dict[int, NormText]) -> list[_Hit]:
    hits = []
    for m in corpus.messages:
        norm = norms[m.id]
        span = _find_in(norm, needle)
        if span is not None:
            start, end = norm.original_span(*span)
            hits.append(_Hit(message=m, start=start, end=end))
    return hits


def _miss_reason(needle: str, corpus: ReviewCorpus, norms: dict[int, NormText]) -> str:
    if any(needle in norms[m.id].text for m in corpus.messages):
        return MID_WORD
    joined: dict[int, list[str]] = {}
    for m in corpus.messages:
        joined.setdefault(m.conversation_id, []).append(norms[m.id].text)
    for texts in joined.values():
        if len(texts) > 1 and f" {needle} " in f" {' '.join(texts)} ":
            return ACROSS_MESSAGES
    return NOT_FOUND


def _match(
    candidates: dict[int, list[int]], owner: dict[int, int], preferred: dict[int, int | None]
) -> dict[int, int]:
    """quote index -> conversation id, counting the most conversations (and people).

    Phase 1 matches quotes to distinct *people* (the most possible); phase 2 starts from
    that matching and grows it with augmenting paths. An augmenting path never unmatches
    a conversation, so the final matching is maximum in conversations and still covers
    the most people possible.
    """

    # the model's hint is tried first; it never decides whether a quote counts
    options: dict[int, list[int]] = {}
    for q, cs in candidates.items():
        hint = preferred.get(q)
        options[q] = [c for c in cs if c == hint] + [c for c in cs if c != hint]
    # phase 1: quotes -> people
    people_of = {q: list(dict.fromkeys(owner[c] for c in cs)) for q, cs in options.items()}
    by_person: dict[int, int] = {}

    def augment_person(q: int, seen: set[int]) -> bool:
        for p in people_of[q]:
            if p in seen:
                continue
            seen.add(p)
            if p not in by_person or augment_person(by_person[p], seen):
                by_person[p] = q
                return True
        return False

    for q in candidates:
        augment_person(q, set())
    by_conv: dict[int, int] = {}
    for p, q in by_person.items():
        conv = next(c for c in options[q] if owner[c] == p)
        by_conv[conv] = q

    # phase 2: quotes -> conversations, from that start
    def augment_conv(q: int, seen: set[int]) -> bool:
        for c in options[q]:
            if c in seen:
                continue
            seen.add(c)
            if c not in by_conv or augment_conv(by_conv[c], seen):
                by_conv[c] = q
                return True
        return False

    matched = set(by_conv.values())
    for q in candidates:
        if q not in matched:
            augment_conv(q, set())
    return {q: c for c, q in by_conv.items()}


def verify_quotes(
    *,
    text: str,
    quotes: list[dict[str, Any]],
    corpus: ReviewCorpus,
    min_conversations: int,
    min_users: int | None,
    corrections_only: bool = False,
) -> Verification:
    """Verify the evidence ``quotes`` (``[{"quote": ..., "conversation": ...}]``) for ``text``.

    ``min_users`` is None outside team mode. Returns a verdict per quote, in order.
    """
    if len(quotes) > MAX_QUOTES:
        return Verification(
            ok=False,
            reason=f"The proposal gives {len(quotes)} quotes; at most {MAX_QUOTES} are read.",
        )
    norms = {m.id: normalize(m.text) for m in corpus.messages}
    sentence_words = content_words(text)
    labels = {m.conversation_label: m.conversation_id for m in corpus.messages}
    rejected: dict[int, str] = {}
    hits_of: dict[int, list[_Hit]] = {}
    raw: list[str] = []
    for i, item in enumerate(quotes):
        quote = item.get("quote") if isinstance(item, dict) else item
        quote = quote if isinstance(quote, str) else ""
        raw.append(quote)
        needle = normalize(quote).text
        if not needle:
            rejected[i] = EMPTY
            continue
        if len(needle.split(" ")) < MIN_QUOTE_WORDS:
            rejected[i] = TOO_SHORT
            continue
        hits = _hits(needle, corpus, norms)
        if not hits:
            rejected[i] = _miss_reason(needle, corpus, norms)
            continue
        if corrections_only:
            corrections = [h for h in hits if h.message.after_assistant]
            if not corrections:
                rejected[i] = NOT_CORRECTION
                hits_of[i] = hits
                continue
            hits = corrections
        hits_of[i] = hits
        if not share_a_word(quote, sentence_words):
            rejected[i] = NO_SHARED_WORD

    candidates = {
        i: list(dict.fromkeys(h.message.conversation_id for h in hits))
        for i, hits in hits_of.items()
        if i not in rejected
    }
    owner = {
        h.message.conversation_id: h.message.principal_id for hs in hits_of.values() for h in hs
    }
    preferred: dict[int, int | None] = {}
    for i in candidates:
        label = quotes[i].get("conversation") if isinstance(quotes[i], dict) else None
        preferred[i] = labels.get(label) if isinstance(label, str) else None
    assignment = _match(candidates, owner, preferred)

    verdicts: list[QuoteVerdict] = []
    for i, quote in enumerate(raw):
        hits = hits_of.get(i, [])
        hit: _Hit | None
        if i in assignment:
            hit = next(h for h in hits if h.message.conversation_id == assignment[i])
            ok, reason, counted = True, "", True
        elif i in candidates:
            # found and valid, but every conversation it sits in counts already
            hint = preferred.get(i)
            hit = next((h for h in hits if h.message.conversation_id == hint), hits[0])
            ok, reason, counted = True, ALREADY_COUNTED, False
        else:
            hit = hits[0] if hits else None
            ok, reason, counted = False, rejected[i], False
        m = hit.message if hit else None
        verdicts.append(
            QuoteVerdict(
                quote=quote,
                ok=ok,
                reason=reason,
                message_id=m.id if m else None,
                conversation_id=m.conversation_id if m else None,
                conversation_label=m.conversation_label if m else "",
                principal_id=m.principal_id if m else None,
                principal_external_id=m.principal_external_id if m else "",
                start=hit.start if hit else None,
                end=hit.end if hit else None,
                counted=counted,
            )
        )
    conversations = len(assignment)
    users = len({owner[c] for c in assignment.values()})
    problems = _problems(
        verdicts=verdicts,
        conversations=conversations,
        users=users,
        min_conversations=min_conversations,
        min_users=min_users,
    )
    return Verification(
        ok=not problems,
        reason=" ".join(problems),
        verdicts=verdicts,
        conversations=conversations,
        users=users,
    )


def _problems(
    *,
    verdicts: list[QuoteVerdict],
    conversations: int,
    users: int,
    min_conversations: int,
    min_users: int | None,
) -> list[str]:
    problems: list[str] = []
    if not verdicts:
        problems.append("The proposal quotes nothing; it needs word-for-word quotes.")
    if conversations < min_conversations:
        problems.append(
            f"The quotes were verified in {_n(conversations, 'conversation')}; "
            f"at least {_n(min_conversations, 'different conversation')} are needed."
        )
    if min_users is not None and users < min_users:
        problems.append(
            f"The verified quotes come from {_n(users, 'person', 'people')}; team mode "
            f"needs at least {_n(min_users, 'different person', 'different people')}."
        )
    for k, v in enumerate(verdicts, start=1):
        if not v.ok:
            problems.append(f'Quote {k} ("{_short(v.quote)}") was rejected: {v.reason}.')
    return problems


def _n(count: int, singular: str, plural: str | None = None) -> str:
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
