"""A reply asked for over a quoted message is a reply to what the message is, as the
words that introduce it name it ("Someone's left us a three-star review: '…' Can you
write a reply?"), and "answer this review: '…'" is a reply to a review; the quotes
name both the reply and what it answers."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from learning.proposers.local.hygiene import theme_evidence
from tests.learning.corpora import corpus_of, same_vectors

REVIEWS = [
    (
        1,
        'Someone\'s left us a three-star review: "Sweep came late, soot on the rug." '
        "Can you write a gracious reply?",
        False,
    ),
    (2, 'Could you answer this review for us? "Fitters were tidy and on time."', False),
    (1, 'Can you write a reply to this review: "Brilliant, fitted a bird guard."', False),
]


def _phrases(text: str) -> list[list[tuple[str, str]]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [[(p, h) for p, h, _ in r.phrases] for r in requests_of(message) if r.head == "reply"]


def test_a_bare_reply_answers_the_noun_that_introduces_the_quote():
    assert _phrases(
        "Someone left us a 5-star review: 'Came out within the hour, calm and quick.' Reply for us?"
    ) == [[("to", "review")]]


def test_the_noun_before_a_preposition_names_what_is_quoted():
    assert _phrases(
        '1-star review on the app store: "the widget does not work." reply and tell them '
        "I'll refund them"
    ) == [[("to", "review")]]


def test_answering_a_quoted_review_is_replying_to_it_answering_no_quote_is_not():
    message = corpus_of([(1, 'Another review to answer: "Best chicken I have had."', False)])
    [request] = requests_of(message.messages[0])
    assert (request.head, request.phrases[0][:2]) == ("reply", ("to", "review"))
    message = corpus_of([(1, "Can you answer customer questions about the menu", False)])
    assert all(r.head != "reply" for r in requests_of(message.messages[0]))


def test_only_a_colon_opening_a_quote_after_a_noun_names_what_a_reply_answers():
    assert _phrases('Someone\'s left us a review: "Lovely." Can you write a short reply') == [
        [("to", "review")]
    ]
    assert _phrases(
        "A parent moved to a new address: 42 Otley Road. Can you write a short reply"
    ) == [[]]
    assert _phrases(
        'can you do a reply with a quote, 2 visits for mice is £120: "Hi, mice in the café"'
    ) == [[("with", "quote")]]


def test_replies_over_quoted_reviews_are_one_theme_quoted_with_what_they_answer():
    corpus = corpus_of(REVIEWS)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    [theme] = [t for t in themes if sentence_for(t) == "Writes replies to reviews."]
    quotes = [e["quote"] for e in theme_evidence(theme, sentence_for(theme), set())[0]]
    assert "you write a gracious reply" in quotes
    assert "Someone's left us a three-star review" in quotes
