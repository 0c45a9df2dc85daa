"""A request written after a reply that counts because others ask for its head, with a
verb that is no verb of work ("like the full estimates"), is read without that verb: the
work is named as the requests that ask for it name it."""

from __future__ import annotations

from learning.proposers.local import LocalProposer, requests_of
from learning.proposers.local.requests import requests_asking_work
from tests.learning.corpora import corpus_of, settings

ROWS = [
    (1, "Estimate for a simple cremation please, oak coffin, one car.", False),
    (2, "estimate for the church funeral pls, willow coffin, no limousine", False),
    (
        3,
        "Should have the crematorium fee shown separate within the price, like the full estimates.",
        True,
    ),
]


def test_a_verb_of_no_work_after_a_reply_is_not_the_verb_of_the_work():
    rows = [*ROWS, (1, "Also update the estimate for the church funeral", True)]
    corpus = corpus_of(rows)
    read = requests_asking_work([r for m in corpus.messages for r in requests_of(m)])
    after = [(r.verb, r.head) for r in read if r.message.after_assistant]
    # a comparison loses its verb; a verb of work after a reply still names the work
    assert after == [(None, "estimate"), ("update", "estimate")]


def test_work_is_named_by_the_requests_that_ask_for_it_not_by_a_comparison(bag_of_words):
    result = LocalProposer().propose_sentence(
        corpus_of(ROWS), {"goals": "", "background": ""}, settings()
    )
    assert result.data["sentence"] == "Prepares the estimates."


def test_errors_an_instruction_names_after_a_reply_are_no_problem_to_debug():
    trace = '```\nFile "lib/fines.ml", line 14:\nError: This expression has type float\n```'
    corpus = corpus_of(
        [
            (1, f"compile error, no idea\n\n{trace}", False),
            (1, f"what does this type error mean\n\n{trace}", False),
            (1, "return a result. collect the errors per branch and give back the list", True),
        ]
    )
    read = requests_asking_work([r for m in corpus.messages for r in requests_of(m)])
    assert [r.head for r in read if r.message.after_assistant] == []
