"""A request for a part of a piece of work ("Newsletter item: …", "a bit for the
newsletter", "the newsletter section on …") asks for the whole when other conversations
ask for the whole itself: the requests count together, one theme. A part that is work
of its own ("methods section", "methods paragraph") stays as read."""

from __future__ import annotations

from learning.proposers.local import find_themes, sentence_for
from learning.proposers.local.themes import parts_as_wholes
from tests.learning.corpora import corpus_and_requests, same_vectors

NEWSLETTERS = [
    (1, "Can you write this week's newsletter for parents? Harvest festival is on Friday.", False),
    (1, "Newsletter item: from January the funded hours go up.", False),
    (1, "Short bit for the newsletter from the Toddler Room: we read Owl Babies.", False),
]


def test_a_part_is_read_with_the_words_that_may_name_its_whole():
    _, requests = corpus_and_requests(
        [(1, "Newsletter bit for the online shop: hampers are open.", False)]
    )
    assert [(r.head, r.wholes) for r in requests] == [("bit", ("newsletter", "shop"))]


def test_parts_and_the_whole_asked_for_in_other_conversations_are_one_theme():
    corpus, requests = corpus_and_requests(NEWSLETTERS)
    # as read, the newsletter itself is the head of one conversation's request only
    assert [r.head for r in requests] == ["newsletter", "item", "bit"]
    read = parts_as_wholes(requests)
    assert [(r.head, r.mods) for r in read] == [("newsletter", [])] * 3
    themes = find_themes(read, same_vectors(corpus), min_conversations=3, min_users=None)
    assert [sentence_for(t) for t in themes] == ["Writes the newsletters."]
    assert sorted(themes[0].requests) == [100, 101, 102]


def test_a_whole_named_in_a_phrase_counts_when_the_modifier_names_none():
    _, requests = corpus_and_requests(
        [
            (1, "Write the results section for the barn report.", False),
            (1, "Report for the chapel survey please.", False),
        ]
    )
    read = parts_as_wholes(requests)
    assert [(r.head, r.wholes) for r in read] == [("report", ()), ("report", ())]


def test_a_part_other_conversations_also_ask_for_is_work_of_its_own():
    _, requests = corpus_and_requests(
        [
            (1, "Write the methods paragraph for the hedgerow report.", False),
            (1, "Methods section for the bat report please.", False),
            (1, "Report for the woodland survey please.", False),
        ]
    )
    assert [r.head for r in parts_as_wholes(requests)] == ["paragraph", "section", "report"]


def test_a_part_with_no_whole_asked_for_elsewhere_stays_as_read_or_is_no_request():
    _, requests = corpus_and_requests(
        [
            (1, "Can you draft the checkout section?", False),
            (1, "Newsletter bit for the online shop: hampers are open.", False),
        ]
    )
    assert [r.head for r in parts_as_wholes(requests)] == ["section"]


def test_a_part_asked_for_in_the_same_words_again_is_work_of_its_own():
    _, requests = corpus_and_requests(
        [
            (1, "Can you draft the agenda for the October full council?", False),
            (1, "do the agenda item on the playground please", False),
            (1, "Agenda item about the bus shelter please.", False),
        ]
    )
    assert [r.head for r in parts_as_wholes(requests)] == ["agenda", "item", "item"]
