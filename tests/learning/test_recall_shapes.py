"""How new people write requests: a name
written in lower case passing a request on, a noun that can be an adjective too
("resident") made a noun by its plural."""

from __future__ import annotations

import pytest

from learning.proposers.local import (
    find_themes,
    persona_statements,
    plural_nouns,
    proper_words,
    requests_of,
    sentence_for,
)
from learning.proposers.local.hygiene import _paste_holds_secret
from learning.proposers.local.themes import _qualifier_ok
from safety.text import content_words
from tests.learning.corpora import corpus_of, same_vectors


def read(text: str) -> list[tuple[str | None, str, list[str], str]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(r.verb, r.head, r.mods, message.text[r.start : r.end]) for r in requests_of(message)]


def test_a_name_in_lower_case_passes_a_request_on_and_stays_out_of_the_quote():
    assert read("anyway. jonno wants a bar chart of reviews by category, in R") == [
        (None, "chart", ["bar"], "a bar chart of reviews by category")
    ]


def test_an_english_word_in_lower_case_is_no_name_passing_a_request_on():
    # "weather" is no person: what the weather wants is no request
    assert read("anyway. weather wants a bar chart of the rain") == []


def test_a_noun_that_can_be_an_adjective_qualifies_when_written_as_a_plural():
    assert not _qualifier_ok("resident")
    corpus = corpus_of([(1, "same rule for all residents letters", False)])
    assert plural_nouns(corpus.messages) == {"resident", "letter"}
    assert _qualifier_ok("resident", plural_nouns(corpus.messages))
    # an adjective never written as a plural stays one ("in full")
    assert not _qualifier_ok("full", plural_nouns(corpus.messages))


def test_replies_to_residents_are_a_theme():
    corpus = corpus_of(
        [
            (1, "resident emailed about dog mess on the field. can you draft a reply", False),
            (1, "reply needed for a resident whose streetlight is out", False),
            (
                1,
                "plot holder emailed about bonfires. reply pls. and same tone for residents",
                False,
            ),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert any("resident" in s for s in sentences), sentences


def test_work_that_needs_to_be_done_is_a_request():
    assert read("allotment renewal letters need to go out, there's 31 plot holders") == [
        (None, "letter", ["allotment", "renewal"], "allotment renewal letters need to go out")
    ]


def test_a_count_of_requests_announces_them_and_is_none():
    found = read("allotments again. 2 things. the waiting list letter for the people waiting")
    assert [(verb, head) for verb, head, _, _ in found] == [(None, "allotment"), (None, "letter")]
    assert read("2 jobs. email them to swap it by thursday") == [
        (None, "email", [], "email them to swap it by thursday")
    ]


def test_a_later_sentence_of_an_opening_message_names_the_work_and_what_it_is_for():
    found = read("short answers today pls, long covid flare. inspection letter for the 4 plots")
    assert [(head, quote) for _, head, _, quote in found] == [
        ("letter", "inspection letter for the 4 plots")
    ]


def test_a_later_sentence_that_is_only_a_noun_phrase_is_no_request():
    assert [
        head for _, head, _, _ in read("Can you draft the agenda? Tues 13 Oct village hall.")
    ] == ["agenda"]


def test_after_a_reply_a_later_sentence_is_no_new_request():
    message = corpus_of([(1, "make it shorter. inspection letter for the plots", True)]).messages[0]
    assert requests_of(message) == []


def test_a_correction_of_earlier_facts_is_no_work():
    assert read("correction on allotments - the rent is lower") == []


def test_the_persona_says_a_theme_only_within_one_sentence():
    statements = persona_statements(
        {
            "goals": "Help the clerk with agendas, minutes and letters to residents.",
            "background": "The council runs the allotments. The clerk works from home.",
        }
    )
    letters, allotments = content_words("letters"), content_words("allotments")
    assert any(letters <= s for s in statements)
    assert any(allotments <= s for s in statements)
    assert not any(letters | allotments <= s for s in statements)


def test_a_token_among_the_lines_of_a_paste_keeps_the_message_from_evidence():
    fence = "`" * 3
    text = (
        "CI build fails on the release job. workflow env + the error:\n"
        f"{fence}\nenv:\n  HW_CLOUD_URL: https://ota.example.io\n"
        "  HW_CLOUD_TOKEN: hwk_live_5f8Qz2LmT9rX\n"
        "CMake Error at cmake/version.cmake:7 (message):\n"
        "  git describe failed: fatal: No names found\n"
        f"{fence}"
    )
    message = corpus_of([(1, text, False)]).messages[0]
    assert _paste_holds_secret(message)
    clean = corpus_of([(1, text.replace("hwk_live_5f8Qz2LmT9rX", "(set in CI)"), False)])
    assert not _paste_holds_secret(clean.messages[0])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "you could" inside a clause: what follows is the work
        ("any chance you could write up the meeting notes", ("write", "note", ["meeting"])),
        (
            "wondering if you could draft the welcome email",
            ("draft", "email", ["welcome"]),
        ),
        # "would you mind" and a gerund
        ("would you mind drafting a reply to the landlord", ("draft", "reply", [])),
        # asking to be given something
        ("can I get a price for a boiler swap", (None, "price", [])),
        ("is it possible to get a quote for the bathroom job", (None, "quote", [])),
        ("I'd love a caption for this photo", (None, "caption", [])),
        ("i need help writing a reply to a complaint", ("write", "reply", [])),
        ("i need help with the volunteer newsletter", (None, "newsletter", ["volunteer"])),
        # "do the …" with its object is an imperative, not a question
        ("do the induction checklist for the new volunteer", (None, "checklist", ["induction"])),
        # a list of a kind is a thing made
        ("make me an action list from the minutes", (None, "list", ["action"])),
    ],
)
def test_more_ways_to_ask(text, expected):
    assert [(verb, head, mods) for verb, head, mods, _ in read(text)] == [expected]


def test_do_the_in_a_question_is_no_request():
    assert read("do the numbers add up? they look off") == []


def test_a_later_clause_of_a_noun_phrase_and_please_is_a_request():
    found = read("got a new starter monday, welcome email pls")
    assert (None, "email", ["welcome"], "welcome email pls") in found


def test_a_verb_that_names_the_work_before_and_is_a_request():
    found = read('1-star review: "widget is broken." reply and tell them I will refund them')
    assert [(verb, head) for verb, head, _, _ in found] == [(None, "reply")]


def test_replies_about_viewings_are_a_theme():
    # "viewings" is a noun though the lexicon knows "viewing" only as a verb's form, and
    # a request is about what its phrases name ("reply with viewing times")
    corpus = corpus_of(
        [
            (
                1,
                "a couple want to view on saturday. we do viewings sat 10 till 1. can u reply",
                False,
            ),
            (1, "Can u reply to this? viewings Thurs 5-7 or Sat morning", False),
            (1, "can you reply with viewing times, evenings are best", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert any("viewing" in s for s in sentences), sentences


def test_thank_you_before_a_noun_is_one_modifier():
    assert [(head, mods) for _, head, mods, _ in read("Can you help with thank you cards?")] == [
        ("card", ["thank-you"])
    ]
    assert [(head, mods) for _, head, mods, _ in read("Can you draft the thank-you message")] == [
        ("message", ["thank-you"])
    ]


def test_a_name_written_small_where_names_stand_is_a_name():
    corpus = corpus_of(
        [
            (1, "Y10 report comment for tyler pls", False),
            (1, "anyway. jonno wants a bar chart", False),
            # English words stay words: "for everyone", "to support"
            (1, "thanks to everyone. email to support for the parser", False),
        ]
    )
    assert proper_words(corpus.messages) == {"tyler", "jonno"}
