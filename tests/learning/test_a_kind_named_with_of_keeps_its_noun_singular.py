"""A kind of thing named with "of" and a bare singular noun ("order of service") is made
plural by its head alone: the sentence says "orders of service", not "orders of services";
a phrase about one thing ("a summary of the meeting") is made plural as a whole."""

from __future__ import annotations

from learning.proposers.local import LocalProposer
from tests.learning.corpora import corpus_of, settings


def _sentence(rows) -> str:
    result = LocalProposer().propose_sentence(corpus_of(rows), {"goals": ""}, settings())
    return result.data["sentence"]


def test_an_order_of_service_is_named_with_its_noun_singular(bag_of_words):
    rows = [
        (1, "Order of service for the Smith funeral please, Tuesday 11am.", False),
        (2, "can you do the order of service for Friday's funeral", False),
        (3, "Order of service needed for the cremation on Monday.", False),
    ]
    assert "orders of service." in _sentence(rows)
