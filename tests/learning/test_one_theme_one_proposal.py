"""One kind of work is one theme: its wordings are proposed once, by meaning."""

from __future__ import annotations

import numpy as np

from learning.policy import content_key
from learning.proposers.local import LocalProposer, find_themes, requests_of
from learning.proposers.local.themes import Theme, same_theme, theme_families
from tests.learning.corpora import corpus_of, settings

# one kind of work (escalations summarised for engineering), found by words twice:
# "Summarises threads for engineering." and "Summarises the escalations."
ESCALATIONS = [
    (1, "Can you summarise this escalation thread for engineering? The dock ate a card.", False),
    (2, "Summarise this for engineering please, it's an escalation: a lock jammed.", False),
    (1, "Escalation again. Summarise the thread for engineering, short.", False),
    (2, "Write up the escalation for engineering, the app keeps logging people out.", False),
    (1, "Another escalation to write up: summarise it for engineering.", False),
]


def _themes(rows, bag):
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    vectors = {
        m.id: v
        for m, v in zip(corpus.messages, bag([m.text for m in corpus.messages]), strict=True)
    }
    return corpus, find_themes(requests, vectors, min_conversations=3, min_users=None), vectors


def test_two_wordings_of_one_kind_of_work_form_one_family(bag_of_words):
    from memory.embeddings import encode

    _, themes, vectors = _themes(ESCALATIONS, encode)
    assert len(themes) == 2  # the words alone name the work twice
    assert same_theme(themes[0], themes[1], vectors)
    assert [len(f) for f in theme_families(themes, vectors)] == [2]


def _theme(conversations, vector, head):
    from types import SimpleNamespace

    requests = {
        c: SimpleNamespace(message=SimpleNamespace(id=c, conversation_id=c, principal_id=1))
        for c in conversations
    }
    return Theme(head=head, requests=requests), {c: vector for c in conversations}


def test_different_work_in_other_conversations_stays_two_themes():
    a, va = _theme([1, 2, 3], np.array([1.0, 0.0, 0.0]), "reply")
    # alike, but not so alike as one kind of work, and no conversation in common
    b, vb = _theme([4, 5, 6], np.array([0.64, 0.768, 0.0]), "report")
    vectors = {**va, **vb}
    assert not same_theme(a, b, vectors)
    assert [len(f) for f in theme_families([a, b], vectors)] == [1, 1]


def test_paraphrased_requests_in_other_conversations_form_one_theme():
    a, va = _theme([1, 2, 3], np.array([1.0, 0.0, 0.0]), "order")
    b, vb = _theme([4, 5, 6], np.array([0.9, 0.436, 0.0]), "batch")  # cosine 0.9
    vectors = {**va, **vb}
    assert same_theme(a, b, vectors)


def test_shared_conversations_alone_do_not_make_one_theme():
    # two requests in the same conversations, far apart in meaning: other work
    a, va = _theme([1, 2, 3], np.array([1.0, 0.0, 0.0]), "invoice")
    b, _ = _theme([1, 2, 3], np.array([0.2, 0.98, 0.0]), "rota")
    vectors = {**va}
    vectors.update({k + 100: v for k, v in va.items()})
    for r in b.requests.values():
        r.message.id += 100
        vectors[r.message.id] = np.array([0.2, 0.98, 0.0])
    assert not same_theme(a, b, vectors)


def test_work_the_persona_names_is_not_proposed_again_in_other_words(bag_of_words):
    corpus = corpus_of(ESCALATIONS)
    persona = {"goals": "Summarises threads for engineering."}
    result = LocalProposer().propose_sentence(corpus, persona, settings())
    assert result.data["sentence"] == ""
    notes = " ".join(result.notes)
    assert "the same work as 'Summarises threads for engineering.'" in notes


def test_work_turned_down_is_not_proposed_again_in_other_words(bag_of_words):
    corpus = corpus_of(ESCALATIONS)
    first = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert first.data["sentence"] == "Summarises threads for engineering."
    avoid = frozenset({content_key(first.data["sentence"])})
    again = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings(), avoid=avoid)
    assert again.data["sentence"] == ""
    assert "turned down" in " ".join(again.notes)


def test_the_log_lists_one_theme_once_by_the_wording_in_the_persona(bag_of_words):
    from learning.candidates import IN_PERSONA

    corpus = corpus_of(ESCALATIONS)
    persona = {"goals": "Summarises threads for engineering."}
    result = LocalProposer().propose_sentence(corpus, persona, settings())
    seen = [(c["text"], c["reason"]) for c in result.candidates]
    assert seen == [("Summarises threads for engineering.", IN_PERSONA)]


def test_looking_back_over_the_history_lists_one_wording_per_theme(bag_of_words):
    found = LocalProposer().recurring_sentences(corpus_of(ESCALATIONS), {"goals": ""}, settings())
    assert [c["text"] for c in found] == ["Summarises threads for engineering."]


def test_of_one_kind_of_work_the_wording_that_names_it_comes_before_the_noun_alone():
    from learning.proposers.local import Theme
    from learning.proposers.local.proposer import _named_first

    bare = Theme(head="", kind="key", qualifier="confirmation", name="Writes the confirmations.")
    other = Theme(head="", kind="key", qualifier="book", name="Prepares the books.")
    named = Theme(
        head="", kind="modonly", qualifier="booking", name="Writes booking confirmations."
    )
    assert _named_first([bare, other, named]) == [named, bare, other]
    assert _named_first([bare, other]) == [bare, other]


# replies to reviews, each message counting stars: found as replies about stars, which most
# quotes never say, so proposed as "Drafts the replies."; and invoices, a second kind of work
REVIEW_REPLIES_AND_INVOICES = [
    (1, "Reply to this Google review please, 5 stars from a customer: lovely quick job.", False),
    (2, "There's a 2 star on the website, says we charged too much. Can you draft a reply", False),
    (3, "Can you reply to this one? 5 stars on Google, sorted my door in 20 mins.", False),
    (1, "Feedback to answer, 4 stars: good job but the van blocked the drive.", False),
    (2, "Can you write an invoice for the new front door lock, 2 hours labour.", False),
    (3, "Write an invoice for the garage padlock job please, paid on the day.", False),
    (1, "Could you write an invoice for the safe we fitted at the shop?", False),
]


def test_a_sentence_its_quotes_reworded_is_not_proposed_again_once_turned_down(bag_of_words):
    corpus = corpus_of(REVIEW_REPLIES_AND_INVOICES)
    first = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert first.data["sentence"] == "Drafts the replies."
    avoid = frozenset({content_key("Drafts the replies.")})
    again = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings(), avoid=avoid)
    # the review would refuse it as turned down, and the work after it never be reached
    assert again.data["sentence"] not in ("Drafts the replies.", "")
    assert "invoice" in again.data["sentence"]
