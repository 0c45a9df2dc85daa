"""A modifier that is itself a kind of
text ("update email": an update sent by e-mail) names the work, though "update" alone as a
topic says nothing. A short day's name after a word saying when is a time, even before a
place ("job sheet for Sat Ryedale autumn show")."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from learning.proposers.local.hygiene import proper_words, quote_for
from tests.learning.corpora import corpus_of, same_vectors


def _themes(rows: list[tuple[int, str, bool]]):
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return corpus, themes


def test_update_emails_are_a_kind_of_work():
    _corpus, themes = _themes(
        [
            (1, "need an update email to the owner, hull blacked and anodes done.", False),
            (2, "Can you do an update email to the owner saying the repaint is late.", False),
            (1, "weekly update email to the owner, service done and injector cleaned.", False),
        ]
    )
    assert "Writes update emails." in [sentence_for(t) for t in themes]
    # "changes" of what? A vague topic as a modifier still names no work
    _corpus, themes = _themes(
        [
            (1, "need a change email to the owner, hull blacked and anodes done.", False),
            (2, "Can you do a change email to the owner saying the repaint is late.", False),
            (1, "weekly change email to the owner, service done and injector cleaned.", False),
        ]
    )
    assert not any("change" in sentence_for(t) for t in themes)


def test_a_short_day_after_a_word_saying_when_is_a_time_before_a_place():
    text = "job sheet for Sat Ryedale autumn show, 2 x 6x12 pole, usual crew."
    corpus = corpus_of([(1, text, False), (2, "job sheet for Sat pls, usual crew.", False)])
    banned = proper_words(corpus.messages)
    assert "sat" not in banned and "ryedale" in banned
    message = corpus.messages[0]
    clause = "job sheet for Sat Ryedale autumn show"
    quote = quote_for(message, 0, len(clause), banned, keep=frozenset(["sheet"]))
    assert quote == "job sheet for Sat"
    # after an article the short form is part of a name, before a capitalised word
    corpus = corpus_of([(1, "The stop moves from the Sun Inn to the village hall.", False)])
    assert {"sun", "inn"} <= proper_words(corpus.messages)
