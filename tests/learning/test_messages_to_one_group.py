"""Messages of several kinds written to one group of people are one kind of work
("Writes messages to parents."), and an "-ing" clause after a noun says what the noun
holds, it is not what is made ("a note saying it's done")."""

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


def test_messages_of_several_kinds_to_one_group_are_one_theme():
    assert "Writes messages to parents." in _themes(
        [
            (1, "Email to parents of the Tuesday juniors: term starts in January.", False),
            (2, "Reply to a parent asking whether her son can join the youth club.", False),
            (2, "Message to the parents of the Saturday kids session about the new term.", False),
        ]
    )


def test_messages_to_customers_in_general_are_no_theme():
    assert not any(
        "customers" in s
        for s in _themes(
            [
                (1, "Email to customers about the price change.", False),
                (2, "Reply to a customer asking about refunds.", False),
                (2, "Message to customers about the closure.", False),
            ]
        )
    )


def test_an_ing_clause_after_a_noun_is_no_part_of_what_is_made():
    corpus = corpus_of([(1, "Write him a note saying it's done and the rest still counts.", False)])
    assert [r.head for r in requests_of(corpus.messages[0])] == ["note"]
    corpus = corpus_of([(1, "Write the booking confirmation for Friday.", False)])
    assert [r.head for r in requests_of(corpus.messages[0])] == ["confirmation"]


def test_a_label_joined_by_hyphens_before_the_noun_leaves_the_noun_made():
    corpus = corpus_of([(1, "Can you write this week's what's-on newsletter?", False)])
    assert [r.head for r in requests_of(corpus.messages[0])] == ["newsletter"]


def test_taking_a_known_piece_of_work_over_asks_for_it():
    corpus = corpus_of([(1, "I'm doing the newsletter this week. Fri 20 Nov Moana 2pm.", False)])
    assert [r.head for r in requests_of(corpus.messages[0])][:1] == ["newsletter"]
    corpus = corpus_of([(1, "so I'm doing extra hours for the council in December", False)])
    assert requests_of(corpus.messages[0]) == []
