"""A capital in pasted code outside its string literals starts a type, a class or a
constant ("Widget build(…)"), not a person's name: a word the person also writes small
("a widget test") is no name because code spells a type with it; a name in a string
literal of the code, or in a quoted e-mail, still is one."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from learning.proposers.local.hygiene import proper_words
from safety.text import code_outside_strings
from tests.learning.corpora import corpus_of, same_vectors

DART = (
    "```dart\nclass ElevationChip extends StatelessWidget {\n"
    "  Widget build(BuildContext c) => Text('x');\n}\n```"
)


def test_a_type_in_code_leaves_a_word_written_small_no_name():
    corpus = corpus_of([(1, f"Write a widget test for the chip.\n{DART}", False)])
    assert "widget" not in proper_words(corpus.messages)


def test_a_name_in_a_string_literal_of_code_is_still_one():
    code = "```dart\nfinal tester = UserProfile(name: 'Gemma Hartnoll');\n```"
    corpus = corpus_of([(1, f"The hartnoll fixture please.\n{code}", False)])
    assert "hartnoll" in proper_words(corpus.messages)


def test_a_name_in_a_quoted_email_is_still_one():
    corpus = corpus_of([(1, 'Reply to this for hartnoll: "Dear team, Hartnoll here."', False)])
    assert "hartnoll" in proper_words(corpus.messages)


def test_code_spans_skip_string_literals():
    text = "see `Foo('Ann')` now"
    spans = code_outside_strings(text)
    covered = {i for a, b in spans for i in range(a, b)}
    assert text.index("Foo") in covered
    assert text.index("Ann") not in covered
    assert text.index("now") not in covered


def test_requests_for_a_kind_of_test_named_by_a_type_of_the_code_give_a_sentence():
    corpus = corpus_of(
        [
            (1, f"Write a widget test for the ElevationChip.\n{DART}", False),
            (1, "Widget test for the profile screen, with the fixture we have.", False),
            (1, "Widget test for the offline banner: shows when the app is offline.", False),
        ]
    )
    banned = proper_words(corpus.messages)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert "Writes widget tests." in [sentence_for(t) for t in themes]
    assert "widget" not in banned
