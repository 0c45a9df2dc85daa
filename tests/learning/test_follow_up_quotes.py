"""A request whose own words give no clean quote (a name cut it) may be quoted by a later
message of the same person in the same conversation that names the work again."""

from __future__ import annotations

from dataclasses import replace

from learning.proposers.local import Theme, requests_of
from learning.proposers.local.hygiene import theme_evidence
from tests.learning.corpora import corpus_of


def _one_conversation(rows: list[tuple[int, str, bool]]):
    corpus = corpus_of(rows)
    first = corpus.messages[0]
    corpus.messages = [
        replace(m, conversation_id=first.conversation_id, conversation_label="c0", seq=k + 1)
        for k, m in enumerate(corpus.messages)
    ]
    return corpus


def _quotes(corpus, sentence: str, banned: set[str]) -> list[str]:
    request = requests_of(corpus.messages[0])[0]
    theme = Theme(head=request.head, requests={request.message.conversation_id: request})
    evidence, _ = theme_evidence(theme, sentence, banned, corpus.messages)
    return [e["quote"] for e in evidence]


def test_a_follow_up_naming_the_work_quotes_a_request_a_name_cut_short():
    corpus = _one_conversation(
        [
            (1, "Quote for Mrs Okafor please, Llandaff.", False),
            (1, "Say it's approved. Gareth wants that on every quote for a door lock.", True),
        ]
    )
    assert _quotes(corpus, "Prepares the quotes.", {"okafor", "llandaff", "gareth"}) == [
        "wants that on every quote for a door lock"
    ]


def test_a_follow_up_that_does_not_name_the_work_quotes_nothing():
    corpus = _one_conversation(
        [
            (1, "Quote for Mrs Okafor please, Llandaff.", False),
            (1, "Put in that the mortices are approved by insurers.", True),
        ]
    )
    assert _quotes(corpus, "Prepares the quotes.", {"okafor", "llandaff"}) == []


def test_another_persons_message_or_another_conversation_is_no_follow_up():
    corpus = _one_conversation(
        [
            (1, "Quote for Mrs Okafor please, Llandaff.", False),
            (2, "wants that on every quote for a door lock", True),
        ]
    )
    assert _quotes(corpus, "Prepares the quotes.", {"okafor", "llandaff"}) == []
    elsewhere = corpus_of(
        [
            (1, "Quote for Mrs Okafor please, Llandaff.", False),
            (1, "wants that on every quote for a door lock", True),
        ]
    )
    assert _quotes(elsewhere, "Prepares the quotes.", {"okafor", "llandaff"}) == []


def test_a_follow_up_asking_to_edit_the_draft_is_no_evidence():
    corpus = _one_conversation(
        [
            (1, "Maintenance notice for Gorbals Pharmacy: core switch on Saturday.", False),
            (1, "Just this once, add the same notice in Polish underneath for them.", True),
        ]
    )
    assert _quotes(corpus, "Writes maintenance notices.", {"gorbals", "pharmacy"}) == []
