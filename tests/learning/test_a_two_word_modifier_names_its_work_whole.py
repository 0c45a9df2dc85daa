"""A modifier of two words written before several kinds of text ("fish box
confirmation", "fish box message", "fish box text") names the work whole: one theme,
"fish box ...", not one for each word ("box confirmations", "fish confirmations")."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors


def _themes(rows: list[tuple[int, str, bool]], min_conversations: int = 3) -> list[str]:
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(
        requests, same_vectors(corpus), min_conversations=min_conversations, min_users=None
    )
    return [sentence_for(t) for t in themes]


ROWS = [
    (1, "Fish box confirmation for this week's orders please, delivery Friday.", False),
    (2, "Fish box message for Friday: hake, mussels, smoked haddock and crab.", False),
    (3, "Fish box text for this Friday please: plaice, cod cheeks and prawns.", False),
    (4, "Fish box order confirmation for a new customer on Harbour Road.", False),
]


def test_both_words_of_the_modifier_name_the_theme():
    themes = _themes(ROWS)
    assert any("fish box" in s for s in themes), themes


def test_the_work_is_one_theme_not_one_per_word():
    themes = _themes(ROWS)
    assert sum(1 for s in themes if "fish" in s or "box" in s) == 1, themes


def test_a_word_written_before_the_modifier_in_few_requests_is_left_out():
    themes = _themes(
        [
            (1, "Fish box confirmation for this week's orders please, delivery Friday.", False),
            (2, "Box message for Friday: hake, mussels, smoked haddock and crab.", False),
            (3, "Box text for this Friday please: plaice, cod cheeks and prawns.", False),
            (4, "Box reminder for a new customer on Harbour Road.", False),
        ]
    )
    assert not any("fish" in s for s in themes), themes
