"""Ways of asking: questions made for a group ("book club questions pls"), a greeting as
a clause of its own, a word and a number that say which one ("grade 1 exam prep note"),
and a topic named as the messages write it ("book club")."""

from __future__ import annotations

import pytest

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, read, same_vectors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "book club questions for october pls. we're reading it",
            (None, "question", ["book", "club"]),
        ),
        ("can u do the questions, 5 this time", (None, "question", [])),
        ("questions pls, 6", (None, "question", [])),
        ("write quiz questions for year 9", ("write", "question", ["quiz"])),
        ("blog post ideas pls", (None, "idea", ["blog", "post"])),
    ],
)
def test_questions_and_ideas_asked_to_be_made_are_requests(text, expected):
    assert read(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "i have a quick question about the refund",
        "can you answer a question about the refund",
        "answer customer questions about refunds",
    ],
)
def test_a_question_asked_or_answered_is_no_piece_of_work(text):
    assert read(text) == []


def test_a_greeting_of_its_own_is_no_request_and_the_next_clause_opens_the_message():
    assert read("hi. practice notes for Freya") == [(None, "note", ["practice"])]
    assert read("hiya, can you write a msg to the mum?") == [("write", "message", [])]


def test_a_word_and_a_number_say_which_one():
    assert read("grade 1 exam prep note for the parents please") == [
        (None, "note", ["exam", "prep"])
    ]
    assert read("year 9 reports pls") == [(None, "report", [])]


def test_questions_for_the_book_club_are_a_theme_named_as_people_write_it():
    corpus = corpus_of(
        [
            (1, "book club questions for october pls. we're reading a novel", False),
            (
                1,
                "reading group for november is a memoir. can u do the questions, 5 this time. "
                "and it's 15% for book club members now",
                False,
            ),
            (1, "january book club pick is a sea story. questions pls, 6.", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert [sentence_for(t) for t in themes][:1] == ["Writes book club questions."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("can you turn this into a component that takes the products as props", "component"),
        ("convert this to a checklist please", "checklist"),
        ("make this into a poster for the fair", "poster"),
    ],
)
def test_what_the_thing_at_hand_is_turned_into_is_what_is_made(text, expected):
    assert read(text) == [(None, expected, [])]


def test_turning_into_something_vague_is_no_request():
    assert read("can you turn it into something for our window") == []
    assert read("make it shorter") == []


PASTE = "\n```\nerror[E0658]: use of unstable library feature\n  --> src/filter.rs:41:18\n```"
CI_REPORTS = [
    (1, "CI is failing on the msrv job" + PASTE, False),
    (1, "release build fails in CI only" + PASTE, False),
    (1, "clippy job in CI fails on the new lint" + PASTE, False),
]


def test_a_reported_error_keeps_what_fails_in_the_persons_words():
    corpus = corpus_of(CI_REPORTS[:1] + [(1, "Why does this blow up?" + PASTE, False)])
    found = [(r.verb, r.head, r.mods) for m in corpus.messages for r in requests_of(m)]
    assert found == [("debug", "error", ["ci", "job"]), ("debug", "error", [])]


def test_errors_named_by_what_fails_are_a_theme_beside_the_bare_errors():
    corpus = corpus_of(CI_REPORTS)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert "Debugs CI errors." in [sentence_for(t) for t in themes]


def test_a_verb_after_an_article_and_alone_is_a_noun_as_people_say_it():
    assert read("can you draft the invite for families") == [("draft", "invite", [])]
    # a verb after an article with a noun of its own is no such noun
    assert read("can you draft the invite list for families") == [("draft", "list", ["invite"])]
