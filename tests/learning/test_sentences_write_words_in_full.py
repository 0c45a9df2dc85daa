"""A sentence writes a word as a reviewer would: a chat abbreviation in full ("msg" ->
"messages"), a brand people type small with its capital ("google" -> "Google"), and a
word refused against another in the same number ('Say "clients", not "patients".')."""

from __future__ import annotations

from learning.proposers.local import LocalProposer
from learning.proposers.local.rules import _in_number_of
from tests.learning.corpora import corpus_of, settings

MESSAGES = [
    (1, "need a msg for the springer owner, she's picking up at 3.", False),
    (2, "can u write the msg to the owner about the matting.", False),
    (3, "msg for the owners of the poodle, running late today.", False),
]


def test_a_chat_abbreviation_is_written_in_full(bag_of_words):
    corpus = corpus_of(MESSAGES)
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data is not None, result
    sentence = result.data["sentence"]
    assert "messages" in sentence.split() and "msgs" not in sentence.lower(), sentence


def test_a_brand_written_small_keeps_its_capital():
    from learning.proposers.local.wording import _sentence

    assert _sentence("replies to google reviews") == "Replies to Google reviews."


def test_a_refused_noun_agrees_in_number_with_the_one_to_say():
    assert _in_number_of("clients", "patient") == "patients"
    assert _in_number_of("client", "patients") == "patient"
    assert _in_number_of("garments", "items") == "items"
    # phrases and words that are no nouns stay as written
    assert _in_number_of("home grown", "organic") == "organic"
    assert _in_number_of("clients", "your dog") == "your dog"


def test_redoing_a_piece_of_work_is_too_weak_a_verb_to_name_it():
    from learning.proposers.local import requests_of

    (request,) = requests_of(corpus_of([(1, "can you redo the course blurb", False)]).messages[0])
    assert (request.verb, request.head) == (None, "blurb")


def test_what_most_messages_ask_a_reply_for_is_replied_to():
    from learning.proposers.local import requests_of
    from learning.proposers.local.wording import _unnamed_verb

    corpus = corpus_of(
        [
            (1, "another google review to reply. 2 stars, said we were late.", False),
            (2, "google review, 5 stars. can u write a reply to this google review", False),
            (3, "google review again, can you write a reply to it", False),
        ]
    )
    reqs = [r for m in corpus.messages for r in requests_of(m) if r.head == "review"]
    assert reqs and _unnamed_verb("review", reqs) == "reply to"
