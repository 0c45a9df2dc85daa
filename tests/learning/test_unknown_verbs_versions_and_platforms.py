"""Requests read as people write them: a verb the lexicon lacks before the object it takes
("refactor this module"), a name with its version before the thing made ("Jest 29 tests"),
and a platform written with its capital anywhere in the request ("a Facebook post", "a post
for Facebook"), posts each for a platform named by the platforms."""

from __future__ import annotations

from tests.learning.corpora import read, theme_sentences


def test_a_verb_the_lexicon_lacks_is_read_before_the_object_it_takes_and_no_other_word_is():
    assert read("refactor this module so it works for staging too") == [("refactor", "module", [])]
    assert read("dedupe the customer list before Friday") == [("dedupe", "list", ["customer"])]
    # an unknown word that is no verb: a conjunction, a contraction typed without its
    # apostrophe, a platform before a time
    for text in ("because the summer was quiet", "thats the one", "facebook this time"):
        assert all(verb is None for verb, _, _ in read(text)), text


def test_a_name_with_its_version_says_which_one_before_the_thing_made():
    assert read("Can you write Jest 29 tests for this?") == [("write", "test", [])]


def test_a_platform_written_with_its_capital_names_where_the_work_goes():
    assert read("Could you write a Facebook post about the open day") == [
        ("write", "post", ["facebook"])
    ]


def test_a_platforms_short_form_is_the_platform_most_posts_are_named_by():
    got = theme_sentences(
        [
            "insta post about the new window display",
            "Post for Facebook please, the sale starts on the first",
            "Instagram post please: late opening on Thursdays",
        ]
    )
    assert "Writes Instagram posts." in got


def test_posts_each_for_a_platform_named_before_or_after_are_named_by_the_platforms():
    got = theme_sentences(
        [
            "insta post about the new window display",
            "Post for Facebook please, the sale starts on the first",
            "post on TikTok for the late opening on Thursdays",
        ]
    )
    assert "Writes Facebook and Instagram posts." in got


def test_a_request_after_anyway_is_read_as_after_any_other_filler():
    assert read("anyway do an insta post for the open day") == [(None, "post", ["insta"])]
