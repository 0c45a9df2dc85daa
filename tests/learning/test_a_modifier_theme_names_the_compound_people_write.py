"""A theme of a modifier names it with the noun most of its requests write right after
it ("bat survey summary", "bat survey write-up", "write up the bat survey" -> "bat survey
write-ups", not "bat write-ups"); a word written only once after it, or a name, is
left out."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors


def _sentences(rows):
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return [sentence_for(t) for t in themes]


def test_the_modifier_is_named_with_the_noun_written_after_it():
    sentences = _sentences(
        [
            (1, "Can you write the bat survey summary for the planners?", False),
            (1, "bat survey write-up for the ecologist please", False),
            (1, "Bat survey notes from last night please.", False),
        ]
    )
    assert any("bat survey" in s for s in sentences), sentences
    assert not any("bat write-ups" in s or "bat summaries" in s for s in sentences), sentences


def test_a_noun_written_after_it_once_is_left_out():
    sentences = _sentences(
        [
            (1, "Can you write the bat survey summary for the planners?", False),
            (1, "bat write-up for the ecologist please", False),
            (1, "Bat notes from last night please.", False),
        ]
    )
    assert not any("bat survey" in s for s in sentences), sentences
