"""The ``local`` proposer (the offline default): extractive, on the stored embeddings.

For a goals sentence it groups the user messages a review may read by meaning
(greedy clustering on the stored all-MiniLM-L6-v2 vectors), finds inside a group a
phrase that recurs word for word in several conversations (and several people in team
mode), and templates a sentence around it, quoting each conversation verbatim. For a
standing rule it does the same on corrections (user lines after an assistant reply),
turning the recurring correction into an imperative sentence.

It proposes; the review still verifies every quote and applies the policy. It makes
no network call and never loads the embedding model when every message has a stored
vector.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from learning.proposers.base import ProposerResult

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from memory.verification import ReadMessage, ReviewCorpus

#: Cosine similarity above which two messages are "the same kind of request".
CLUSTER_THRESHOLD = 0.55
MIN_PHRASE_WORDS = 2
MAX_PHRASE_WORDS = 8
QUOTE_MIN_WORDS = 4
MAX_QUOTES = 8

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "my",
        "our",
        "your",
        "his",
        "her",
        "its",
        "their",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "about",
        "as",
        "and",
        "or",
        "but",
        "if",
        "so",
        "than",
        "then",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "it",
        "not",
        "no",
        "yes",
        "all",
        "any",
        "some",
        "each",
        "per",
        "up",
        "out",
        "over",
        "under",
        "again",
        "more",
        "very",
        "just",
        "also",
        "too",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "i",
        "me",
        "we",
        "us",
        "you",
        "he",
        "she",
        "they",
        "them",
        "him",
        "it's",
        "i'm",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "when",
        "where",
        "why",
        "how",
        "please",
        "thanks",
        "thank",
        "ok",
        "okay",
        "hi",
        "hey",
    ]
)
#: Words that say nothing about the kind of work.
GENERIC = frozenset(
    [
        "help",
        "need",
        "want",
        "like",
        "make",
        "get",
        "got",
        "give",
        "take",
        "let",
        "know",
        "think",
        "see",
        "look",
        "use",
        "new",
        "one",
        "two",
        "thing",
        "things",
        "stuff",
        "something",
        "anything",
        "bit",
        "lot",
        "today",
        "tomorrow",
        "now",
        "again",
        "please",
        "thanks",
        "quick",
        "quickly",
        "sure",
        "right",
        "well",
        "good",
        "great",
        "time",
    ]
)
PRONOUNS = frozenset(
    [
        "i",
        "me",
        "we",
        "us",
        "you",
        "he",
        "she",
        "they",
        "him",
        "her",
        "them",
        "i'm",
        "you're",
        "we're",
    ]
)
DETERMINER_SWAP = {
    "this": "a",
    "that": "a",
    "these": "the",
    "those": "the",
    "my": "the",
    "our": "the",
    "your": "the",
}
VERB_CUES = frozenset(
    ["to", "please", "pls", "you", "can", "could", "would", "me", "and", "then", "we", "i"]
)
RULE_FILLER = frozenset(
    [
        "no",
        "nope",
        "please",
        "pls",
        "can",
        "could",
        "would",
        "you",
        "actually",
        "again",
        "also",
        "and",
        "but",
        "oh",
        "ok",
        "okay",
        "so",
        "just",
        "hey",
        "hi",
        "thanks",
        "remember",
        "to",
        "i",
        "said",
        "asked",
        "told",
        "we",
        "need",
        "want",
        "should",
        "always",
        "make",
        "sure",
        "that's",
        "wrong",
        "not",
        "quite",
    ]
)

_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
_CLAUSE_BREAK = re.compile(r"[.!?;:,\u2014\u2013()\[\]\"\u201c\u201d]|\s-\s")


@dataclass(frozen=True)
class Token:
    norm: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    return [
        Token(
            unicodedata.normalize("NFKC", m.group()).casefold().replace("\u2019", "'"),
            m.start(),
            m.end(),
        )
        for m in _WORD.finditer(text)
    ]


def is_content(word: str) -> bool:
    return word not in STOPWORDS and word not in GENERIC and not word.isdigit() and len(word) > 1


@dataclass
class Candidate:
    phrase: tuple[str, ...]
    # conversation id -> (message, token index of the phrase start)
    hits: dict[int, tuple[Any, int]]
    users: set[int]

    @property
    def score(self) -> tuple[int, int, int, int]:
        content = sum(1 for w in self.phrase if is_content(w))
        return (len(self.hits), len(self.users), content, len(self.phrase))


def _name_words(known_names: Any) -> set[str]:
    words: set[str] = set()
    for name in known_names or ():
        words.update(t.norm for t in tokenize(str(name)) if len(t.norm) > 1)
    return words


def mine_phrases(
    messages: list[ReadMessage],
    tokens: dict[int, list[Token]],
    *,
    min_conversations: int,
    min_users: int | None,
    banned_words: set[str],
) -> list[Candidate]:
    """Phrases (2..8 words, at least two content words, starting and ending on a content
    word) found word for word in ``min_conversations`` conversations, best first."""
    found: dict[tuple[str, ...], Candidate] = {}
    for message in messages:
        words = [t.norm for t in tokens[message.id]]
        seen_here: set[tuple[str, ...]] = set()
        for i in range(len(words)):
            if not is_content(words[i]) or words[i] in banned_words:
                continue
            for n in range(MIN_PHRASE_WORDS, MAX_PHRASE_WORDS + 1):
                if i + n > len(words):
                    break
                phrase = tuple(words[i : i + n])
                last = phrase[-1]
                if last in banned_words or any(w in PRONOUNS for w in phrase):
                    break
                if not is_content(last) or sum(1 for w in phrase if is_content(w)) < 2:
                    continue
                if phrase in seen_here:
                    continue
                seen_here.add(phrase)
                cand = found.setdefault(phrase, Candidate(phrase=phrase, hits={}, users=set()))
                if message.conversation_id not in cand.hits:
                    cand.hits[message.conversation_id] = (message, i)
                    cand.users.add(message.principal_id)
    eligible = [
        c
        for c in found.values()
        if len(c.hits) >= min_conversations and (min_users is None or len(c.users) >= min_users)
    ]
    eligible.sort(key=lambda c: c.score, reverse=True)
    # a phrase inside a longer one with the same conversations adds nothing
    kept: list[Candidate] = []
    for cand in eligible:
        if any(set(cand.hits) <= set(k.hits) and _contains(k.phrase, cand.phrase) for k in kept):
            continue
        kept.append(cand)
    return kept


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def _clause_start(text: str, toks: list[Token], index: int) -> int:
    """Index of the first token of the clause holding token ``index``."""
    while index > 0 and not _CLAUSE_BREAK.search(text[toks[index - 1].end : toks[index].start]):
        index -= 1
    return index


def _clause_end(text: str, toks: list[Token], index: int) -> int:
    while index + 1 < len(toks) and not _CLAUSE_BREAK.search(
        text[toks[index].end : toks[index + 1].start]
    ):
        index += 1
    return index


def quote_for(message: Any, toks: list[Token], start: int, n: int) -> str:
    """A verbatim piece of the message: the phrase, widened inside its clause (then
    beyond it) to at least four words; it starts and ends on word boundaries."""
    a, b = start, start + n - 1
    lo, hi = _clause_start(message.text, toks, a), _clause_end(message.text, toks, b)
    while b - a + 1 < QUOTE_MIN_WORDS and (a > lo or b < hi):
        if a > lo:
            a -= 1
        else:
            b += 1
    while b - a + 1 < QUOTE_MIN_WORDS and (a > 0 or b < len(toks) - 1):
        if b < len(toks) - 1:
            b += 1
        else:
            a -= 1
    return message.text[toks[a].start : toks[b].end]


def _evidence(cand: Candidate, tokens: dict[int, list[Token]]) -> list[dict[str, Any]]:
    evidence = []
    for message, index in list(cand.hits.values())[:MAX_QUOTES]:
        quote = quote_for(message, tokens[message.id], index, len(cand.phrase))
        evidence.append({"quote": quote, "conversation": message.conversation_label})
    return evidence


TRAILING_PREPOSITIONS = frozenset({"for", "on", "about", "of", "with", "from"})


def sentence_for(cand: Candidate, tokens: dict[int, list[Token]]) -> str:
    """'Handles recurring requests to <verb phrase>.' or '... about <noun phrase>.'"""
    words = list(cand.phrase)
    for i, word in enumerate(words):
        if word in DETERMINER_SWAP:
            swap = DETERMINER_SWAP[word]
            if swap == "a" and i + 1 < len(words) and words[i + 1][:1] in "aeiou":
                swap = "an"
            words[i] = swap
    verbish = 0
    for message, index in cand.hits.values():
        toks = tokens[message.id]
        if (
            index == 0
            or _clause_start(message.text, toks, index) == index
            or toks[index - 1].norm in VERB_CUES
        ):
            verbish += 1
    # "... update for claim" (a claim number followed in every message) reads as a
    # kind of work once the bare noun after the preposition is plural: "for claims"
    if (
        len(words) >= 3
        and words[-2] in TRAILING_PREPOSITIONS
        and words[-1].isalpha()
        and not words[-1].endswith("s")
    ):
        words[-1] += "s"
    link = "to" if verbish * 2 > len(cand.hits) else "about"
    return f"Handles recurring requests {link} {' '.join(words)}."


def rule_for(cand: Candidate, tokens: dict[int, list[Token]]) -> str:
    """The correction as an imperative: the clause that holds the phrase, fillers off."""
    variants: Counter[str] = Counter()
    for message, index in cand.hits.values():
        toks = tokens[message.id]
        start = _clause_start(message.text, toks, index)
        words = [t.norm for t in toks[start : index + len(cand.phrase)]]
        while words and words[0] in RULE_FILLER and len(words) > len(cand.phrase):
            words.pop(0)
        variants[" ".join(words)] += 1
    # the most common wording; among equals the one that says most (a verb in front)
    best = max(
        variants.items(), key=lambda kv: (kv[1], len(kv[0].split()) > len(cand.phrase), -len(kv[0]))
    )[0]
    return best[:1].upper() + best[1:] + "."


class LocalProposer:
    name = "local"

    def __init__(self, *, threshold: float = CLUSTER_THRESHOLD) -> None:
        self.threshold = threshold

    # -- helpers -------------------------------------------------------------
    def _vectors(self, messages: list[ReadMessage], result: ProposerResult):
        import numpy as np

        from memory.embeddings import encode, vectors_for_messages

        stored = vectors_for_messages([m.id for m in messages])
        missing = [m for m in messages if m.id not in stored]
        if missing:
            result.notes.append(
                f"{len(missing)} of {len(messages)} messages had no stored embedding yet; "
                "they were encoded for this review."
            )
            for message, vector in zip(missing, encode([m.text for m in missing]), strict=True):
                stored[message.id] = vector
        return np.vstack([stored[m.id] for m in messages]) if messages else np.zeros((0, 384))

    def _clusters(self, messages: list[ReadMessage], matrix) -> list[list[ReadMessage]]:
        """Greedy: the message with the most neighbours (in other conversations) and
        those neighbours form a group; repeat on the rest. Biggest spread first."""
        import numpy as np

        if not messages:
            return []
        sims = matrix @ matrix.T
        close = sims >= self.threshold
        left = np.ones(len(messages), dtype=bool)
        clusters: list[list[ReadMessage]] = []
        while left.any():
            counts = (close & left[None, :]).sum(axis=1) * left
            seed = int(np.argmax(counts))
            members = np.flatnonzero(close[seed] & left)
            if len(members) == 0:
                members = np.array([seed])
            left[members] = False
            clusters.append([messages[i] for i in members])
        clusters.sort(key=lambda c: len({m.conversation_id for m in c}), reverse=True)
        return clusters

    def _refusal(
        self, kind: str, text: str, persona: dict[str, Any], corpus: ReviewCorpus
    ) -> str | None:
        from learning import policy

        names: set[str] = getattr(corpus, "known_names", set())
        if kind == "rule":
            return policy.rule_refusal(rule=text, persona=persona, known_names=names)
        return policy.sentence_refusal(
            sentence=text, field="goals", persona=persona, known_names=names
        )

    def _pick(
        self,
        kind: str,
        groups: list[list[ReadMessage]],
        *,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        min_conversations: int,
        min_users: int | None,
        avoid: frozenset[str],
        result: ProposerResult,
    ) -> dict[str, Any] | None:
        from learning.policy import content_key

        banned = _name_words(getattr(corpus, "known_names", set()))
        tokens = {m.id: tokenize(m.text) for group in groups for m in group}
        tried: set[str] = set()
        refusals: list[str] = []
        for group in groups:
            if len({m.conversation_id for m in group}) < min_conversations:
                continue
            for cand in mine_phrases(
                group,
                tokens,
                min_conversations=min_conversations,
                min_users=min_users,
                banned_words=banned,
            )[:25]:
                text = rule_for(cand, tokens) if kind == "rule" else sentence_for(cand, tokens)
                key = content_key(text)
                if key in tried:
                    continue
                tried.add(key)
                if key in avoid:
                    refusals.append(f"{text!r} was turned down or undone before")
                    continue
                refusal = self._refusal(kind, text, persona, corpus)
                if refusal:
                    refusals.append(f"{text!r}: {refusal}")
                    continue
                evidence = _evidence(cand, tokens)
                if kind == "rule":
                    return {"rule": text, "evidence": evidence}
                return {"field": "goals", "sentence": text, "evidence": evidence}
        if refusals:
            result.notes.append("Candidates left out: " + "; ".join(refusals[:5]))
        return None

    # -- the interface -----------------------------------------------------------
    def propose_sentence(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        result = ProposerResult(calls=1)
        messages = list(corpus.messages)
        matrix = self._vectors(messages, result)
        groups = self._clusters(messages, matrix)
        # the whole corpus last: a pattern the clustering split is still found
        groups.append(messages)
        min_users = settings.min_users if settings.across_users else None
        data = self._pick(
            "sentence",
            groups,
            corpus=corpus,
            persona=persona,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            avoid=avoid,
            result=result,
        )
        result.data = data or {"field": None, "sentence": "", "evidence": []}
        return result

    def propose_rule(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        result = ProposerResult(calls=1)
        corrections = [m for m in corpus.messages if m.after_assistant]
        min_users = settings.min_users if settings.across_users else None
        data = self._pick(
            "rule",
            [corrections],
            corpus=corpus,
            persona=persona,
            min_conversations=settings.min_corrections,
            min_users=min_users,
            avoid=avoid,
            result=result,
        )
        result.data = data or {"rule": None, "evidence": []}
        return result
