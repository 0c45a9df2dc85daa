"""Requests read as people write them: a name with its version before the thing made ("Jest 29 tests"),
and a platform written with its capital anywhere in the request ("a Facebook post", "a post
for Facebook"), posts each for a platform named by the platforms."""

from __future__ import annotations

from tests.learning.corpora import read, theme_sentences


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
