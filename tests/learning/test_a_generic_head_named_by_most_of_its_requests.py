"""A head that needs a qualifier ("posts") recurs though no modifier recurs alone: it is
one kind of work, named by the modifier most of its requests write ("Writes Facebook
posts."), never by none ("Writes the posts.") nor by a modifier fewer than half write."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors


def _themes(rows: list[tuple[int, str, bool]], min_conversations: int = 3) -> list[str]:
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(
        requests, same_vectors(corpus), min_conversations=min_conversations, min_users=None
    )
    return [sentence_for(t) for t in themes]


def test_posts_most_requests_name_one_way_are_one_theme_named_so():
    themes = _themes(
        [
            (1, "Facebook post please: two new ponies have joined the yard.", False),
            (2, "Instagram post for Sunday's open day: pony rides and a tack sale.", False),
            (3, "Facebook post for the winter livery offer, three stables left.", False),
        ]
    )
    assert "Writes Facebook posts." in themes


def test_posts_named_a_different_way_each_time_are_no_theme():
    themes = _themes(
        [
            (1, "Facebook post please: two new ponies have joined the yard.", False),
            (2, "Instagram post for Sunday's open day: pony rides and a tack sale.", False),
            (3, "Blog post about the winter livery offer, three stables left.", False),
        ]
    )
    assert not any("posts" in s for s in themes)


def test_a_modifier_every_request_writes_stays_its_own_theme():
    themes = _themes(
        [
            (1, "Facebook post please: two new ponies have joined the yard.", False),
            (2, "Facebook post for Sunday's open day: pony rides and a tack sale.", False),
            (3, "Facebook post for the winter livery offer, three stables left.", False),
        ]
    )
    assert themes.count("Writes Facebook posts.") == 1


def test_posts_each_for_a_platform_none_most_are_named_by_the_two_platforms():
    themes = _themes(
        [
            (1, "Facebook post please: two new ponies have joined the yard.", False),
            (2, "Instagram post for Sunday's open day: pony rides and a tack sale.", False),
            (3, "FB post for the winter livery offer, three stables left.", False),
            (1, "insta post - the farrier's visit this morning, all shod.", False),
        ]
    )
    assert "Writes Facebook and Instagram posts." in themes
