"""A sentence says what its requests agree on: a loanword keeps its English plural in
Spanish ("posts"); what follows a label's colon is that thing's details, no request of
its own; work over pastes the messages report as failing is fixed, not written."""

from __future__ import annotations

from learning import language
from tests.learning.corpora import corpus_of, read


def test_a_spanish_loanword_keeps_its_english_plural():
    assert language.plural_noun("post", "es") == "posts"
    assert language.plural_noun("chat", "es") == "chats"
    assert language.plural_noun("papel", "es") == "papeles"
    assert language.plural_noun("flor", "es") == "flores"
    assert language.plural_noun("reloj", "es") == "relojes"


def test_what_follows_a_labels_colon_is_no_request_of_its_own():
    assert read("Cron job please: run the backup every night at 3am, then email me.") == [
        (None, "job", ["cron"])
    ]


def test_a_verb_in_a_sentence_after_the_label_still_asks():
    heads = [h for _, h, _ in read("Cron job please: nightly. Also write a short readme.")]
    assert heads == ["job", "readme"]


def _propose(rows):
    from learning.proposers.local import LocalProposer
    from tests.learning.corpora import settings

    return LocalProposer().propose_sentence(corpus_of(rows), {"goals": ""}, settings(min_users=1))


def test_work_over_pastes_reported_as_failing_is_fixed(bag_of_words):
    rows = [
        (
            1,
            "gradle build error in CI only:\n```\nCompilation Error in task lint (app/x.gradle)\n```",
            False,
        ),
        (
            1,
            "gradle sync in prod fails now:\n```\nResolution Error in module core (app/x.gradle)\n```",
            False,
        ),
        (1, "gradle plugin test (we're on 8.2) for the lint task", False),
    ]
    result = _propose(rows)
    assert result.data["sentence"].startswith("Fixes "), result.data


def test_a_verb_on_what_the_label_named_after_its_colon_still_asks():
    verbs = [v for v, _, _ in read("Another incident to write up: summarise it for the board.")]
    assert verbs == [None, "summarise"]


def test_a_question_after_a_labels_colon_still_asks():
    heads = [
        h for _, h, _ in read('another complaint on facebook: "Rang 6 times." can u draft a reply?')
    ]
    assert "reply" in heads, heads
