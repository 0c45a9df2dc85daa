"""Small hand-made corpora for the local proposer's tests: one conversation per row,
the settings a review reads, and the readers the tests share (requests, corrections)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import numpy as np

from learning.proposers.local import corrections_of, requests_of
from memory.verification import ReadMessage, ReviewCorpus, verify_quotes

WHEN = datetime(2026, 11, 2, tzinfo=UTC)


def corpus_of(rows: list[tuple[int, str, bool]], names=()) -> ReviewCorpus:
    """rows: (person, text, after_assistant); each row is its own conversation."""
    messages = [
        ReadMessage(
            id=i + 1,
            conversation_id=100 + i,
            conversation_label=f"c{i}",
            principal_id=person,
            principal_external_id=f"user{person}",
            seq=1,
            text=text,
            created_at=WHEN,
            after_assistant=after,
        )
        for i, (person, text, after) in enumerate(rows)
    ]
    return ReviewCorpus(
        agent_id=1,
        messages=messages,
        conversation_ids=[m.conversation_id for m in messages],
        known_names=set(names),
        newest_message_id=len(messages),
    )


def corpus_and_requests(rows: list[tuple[int, str, bool]]):
    """The corpus of ``rows`` (``corpus_of``) and every request read in its messages."""
    corpus = corpus_of(rows)
    return corpus, [r for m in corpus.messages for r in requests_of(m)]


def sentence_check(corpus: ReviewCorpus, data: dict, min_conversations: int = 3):
    """The verifier's answer on a proposed sentence and its evidence."""
    return verify_quotes(
        text=data["sentence"],
        quotes=data["evidence"],
        corpus=corpus,
        min_conversations=min_conversations,
        min_users=None,
    )


def settings(**kw):
    base = dict(min_conversations=3, min_users=2, across_users=False, min_corrections=2)
    base.update(kw)
    return SimpleNamespace(**base)


def same_vectors(corpus):
    return {m.id: np.ones(4) / 2 for m in corpus.messages}


def correction_hits(*texts):
    corpus = corpus_of([(1, t, True) for t in texts])
    return {m.conversation_id: (c, 0) for m in corpus.messages for c in corrections_of(m)[:1]}


def read(text: str) -> list[tuple[str | None, str, list[str]]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(r.verb, r.head, r.mods) for r in requests_of(message)]


def theme_sentences(texts: list[str]) -> list[str]:
    """The sentences of the themes found in ``texts``, one message each from one person, every
    message in a conversation of its own (three conversations make a theme)."""
    from learning.proposers.local import find_themes, requests_of, sentence_for

    corpus = corpus_of([(1, t, False) for t in texts])
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return [sentence_for(t) for t in themes]


def foreign_asks(
    text: str, code: str, banned: frozenset[str] = frozenset()
) -> list[tuple[str, str, str]]:
    """(verb, noun, purpose) of each request one message makes, read in the frame ``code``."""
    from learning.proposers.local.other_languages import asks_of

    [message] = corpus_of([(1, text, False)]).messages
    return [(a.verb, a.noun, a.purpose) for a in asks_of(message, code, set(banned))]


def foreign_theme_sentences(texts: list[str], code: str) -> list[str]:
    """The sentences of the themes found in ``texts`` in the frame ``code``, one message each
    from one person, every message in a conversation of its own (three make a theme)."""
    from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence

    corpus = corpus_of([(1, t, False) for t in texts])
    themes = find_foreign_themes(corpus.messages, code, set(), min_conversations=3, min_users=None)
    return [foreign_sentence(t, code) for t in themes]
