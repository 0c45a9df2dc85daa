"""Texts asked for a version number ("release notes for 2.14", "changelog for 4.7.1 hotfix",
"changelog entry for 2.16") are one kind of work under several nouns, each in too few
conversations alone: one theme named by all of them, so every quote shares a word with it.
A time or an amount after "for" is no version, and a noun that recurs enough alone keeps
its own theme."""

from __future__ import annotations

from tests.learning.corpora import theme_sentences


def test_texts_asked_for_a_version_are_one_theme_named_by_each_noun():
    themes = theme_sentences(
        [
            "release notes for 2.14 from these commits, for the support team",
            "changelog for 4.7.1 hotfix, one line",
            "release notes for v4.8 please",
            "changelog entry for 4.8.1: the timeout went up to 90 seconds",
        ]
    )
    # "changelog entry" is the changelog asked for alone elsewhere: two nouns, not three
    assert "Writes release notes and changelogs." in themes
    # a noun that recurs enough alone keeps its own theme and joins nothing
    themes = theme_sentences(
        [
            "release notes for 2.14 please",
            "release notes for 2.15, short",
            "release notes for the 2.16 hotfix",
            "changelog for 2.17",
        ]
    )
    assert "Writes release notes." in themes
    assert not any("changelog" in s for s in themes)


def test_a_time_or_an_amount_after_for_is_no_version():
    themes = theme_sentences(
        [
            "handout for my thursday 5.30 group pls",
            "session sheet for the wednesday 4.30 stage 1s",
            "handout for the friday 6.15 class",
            "session sheet for 2.5 hours of drills",
        ]
    )
    assert not any(" and " in s for s in themes)
    # a date written with dots ends on its year
    themes = theme_sentences(
        [
            "handout for 12.03.2025 please",
            "session sheet for 14.03.2025",
            "handout for 19.03.2025, the stage 2s",
        ]
    )
    assert not any(" and " in s for s in themes)
    # the same kinds asked for versions are one theme
    themes = theme_sentences(
        [
            "handout for 3.2.0 pls",
            "session sheet for 3.1",
            "handout for v3.3 please",
        ]
    )
    assert any("handouts and session sheets" in s for s in themes), themes
