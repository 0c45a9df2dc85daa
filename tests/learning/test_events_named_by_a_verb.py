"""A word the lexicon knows only as a verb names an event at the end of a noun phrase
("the comp wall reset"), and a text about or for what a modifier names is that kind of
text once two conversations write the modifier ("reset notice", "reset post")."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors


def test_a_verb_ending_a_noun_phrase_is_the_event_it_names():
    corpus = corpus_of(
        [(1, "Newsletter paragraph about the comp wall reset: 20 new problems.", False)]
    )
    (request,) = requests_of(corpus.messages[0])
    assert request.head == "paragraph" and [p[1] for p in request.phrases] == ["reset"]


def test_a_verb_before_its_object_stays_a_verb():
    corpus = corpus_of([(1, "Write a note that we reset the wall on Friday.", False)])
    assert [r.head for r in requests_of(corpus.messages[0])] == ["note"]


def test_texts_about_what_a_modifier_names_join_its_theme():
    corpus = corpus_of(
        [
            (1, "Reset notice for the slab next Wednesday.", False),
            (2, "Reset post for the overhang board, new set goes up Friday.", False),
            (3, "Newsletter paragraph about the comp wall reset.", False),
            (2, "Poster text for the kids' wall reset.", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=4, min_users=None)
    assert [sentence_for(t) for t in themes] == ["Writes reset notices."]
