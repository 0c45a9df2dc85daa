"""A request whose object stands for a thing its message named before ("… want a flyer
to go beside the poster. Write one?") asks for that thing when another conversation
asks for it itself: the requests count together, one theme. A noun in a phrase ("beside
the poster") is where or what for, not the thing; an edit after a reply stays as read."""

from __future__ import annotations

from learning.proposers.local import find_themes, sentence_for
from learning.proposers.local.themes import objects_named_before
from tests.learning.corpora import corpus_and_requests, same_vectors

FLYERS = [
    (1, "Can you write a flyer for the harvest supper?", False),
    (2, "Flyer for the quiz night please.", False),
    (1, "Poster for the spring fete please.", False),
    (2, "Can you design a poster for the jumble sale?", False),
    (1, "The church choir want a flyer to go beside the poster. Write one?", False),
]


def test_a_stand_in_object_takes_the_thing_named_before_it():
    _, requests = corpus_and_requests(FLYERS)
    stand_in = [r for r in requests if r.message.conversation_id == 104]
    assert [(r.verb, r.head) for r in stand_in] == [("write", "")]
    read = objects_named_before(requests)
    assert [(r.verb, r.head) for r in read if r.message.conversation_id == 104] == [
        ("write", "flyer")
    ]


def test_the_stand_in_request_counts_with_the_others():
    corpus, requests = corpus_and_requests(FLYERS)
    themes = find_themes(
        objects_named_before(requests), same_vectors(corpus), min_conversations=3, min_users=None
    )
    flyers = [t for t in themes if sentence_for(t) == "Writes the flyers."]
    assert flyers and sorted(flyers[0].requests) == [100, 101, 104]


def test_an_object_that_names_nothing_before_stays_as_read():
    rows = [
        (1, "Can you write a flyer for the harvest supper?", False),
        (2, "Flyer for the quiz night please.", False),
        (1, "The choir rehearsal moved to Thursday. Write it up?", False),
        (1, "Editing the minutes now", False),
    ]
    _, requests = corpus_and_requests(rows)
    before = [(r.verb, r.head) for r in requests]
    assert [(r.verb, r.head) for r in objects_named_before(requests)] == before


def test_an_edit_after_a_reply_stays_as_read():
    rows = [
        (1, "Can you write a flyer for the harvest supper?", False),
        (2, "Flyer for the quiz night please.", False),
        (1, "Good, but the flyer is too long now. Write it again shorter?", True),
    ]
    _, requests = corpus_and_requests(rows)
    before = [(r.verb, r.head) for r in requests]
    assert [(r.verb, r.head) for r in objects_named_before(requests)] == before
