"""What a request makes is its object or its label, never the subject of a statement
("Tenant in Leeds wants keys 4 and 5 cut": the tenant wants something, nobody asks
for a tenant) nor one particular thing a name says which ("Mrs Okoro site
again.", "outside the Quarry Road site": the site the work is for, not a kind of work)."""

from __future__ import annotations

from learning.proposers.local import find_themes, sentence_for
from learning.proposers.local.themes import objects_named_before
from tests.learning.corpora import corpus_and_requests, read, same_vectors


def test_a_noun_phrase_followed_by_its_own_verb_states_and_asks_for_nothing():
    assert read("Tenant in Leeds wants keys 4 and 5 cut. Nothing fancy.") == []
    # an appositive between two commas, then the verb
    assert read("tenant of flat 5, the top one, wants it painted.") == []
    # a verb after a single comma opens a clause of its own
    assert [h for _, h, _ in read("Quote for the Smith job, customer wants it by Friday")] == [
        "quote"
    ]
    # a thing that needs doing is asked for
    assert [h for _, h, _ in read("leaflets need to go out")] == ["leaflet"]
    assert [h for _, h, _ in read("Rota for next week needs doing")] == ["rota"]


SITES = [
    (1, "Mrs Okoro site again. Can you do a letter to the residents asking for access", False),
    (2, "letter for the residents on the Hilltop site, we block the lane for a week", False),
    (1, "Letter to the residents on Mill Lane site please", False),
    (2, "survey report for the Hilltop site please", False),
    (1, "need a risk sheet for the Quarry Road site", False),
    (2, "method statement for the Dunmore site please", False),
    (
        1,
        "need a permit form for the council, crane on the road outside the Quarry Road "
        "site for 2 days. write it up",
        False,
    ),
]


def test_a_thing_a_name_says_which_is_not_what_is_made():
    _, requests = corpus_and_requests(SITES)
    labelled = [r for r in requests if r.head == "site"]
    assert labelled and all(r.named for r in labelled)
    # "write it up" does not stand for the site a name says which
    read_as = objects_named_before(requests)
    assert "site" not in {r.head for r in read_as if r.message.conversation_id == 106}
    # a name inside a list of costs is a kind, not "the" one: "it" stands for the notice
    _, costs = corpus_and_requests(
        [
            (1, "need a notice for the paper", False),
            (2, "notice for the Friday paper please", False),
            (1, "costs for the Hale job: flowers £40, Gazette notice £110. write it to Pat", False),
        ]
    )
    assert "notice" in {
        r.head for r in objects_named_before(costs) if r.message.conversation_id == 102
    }
    # a name a tool gives a kind of thing: any one of them, or many
    _, kinds = corpus_and_requests(
        [(1, "need a Jenkins pipeline for the api", False), (1, "Write JUnit tests for it", False)]
    )
    assert [(r.head, r.named) for r in kinds] == [("pipeline", False), ("test", False)]


def test_the_site_the_work_is_for_makes_no_theme_and_leaves_the_letters_open():
    corpus, requests = corpus_and_requests(SITES)
    themes = find_themes(
        objects_named_before(requests),
        same_vectors(corpus),
        min_conversations=3,
        min_users=None,
    )
    sentences = [sentence_for(t) for t in themes]
    assert not any("site" in s.lower() for s in sentences), sentences
    assert sentences[0] == "Writes letters for residents.", sentences
