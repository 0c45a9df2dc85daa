"""Code pasted as the material of the work asked for is no error to debug; a day's
possessive is no name in a quote; a made noun alone is worded with its article."""

from __future__ import annotations

from learning.proposers.local import find_themes, quote_for, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors

CLASS = """Write unit tests for this class please:

```java
public class RefundValidator {
    public void validate(long amount) {
        if (amount < 0) throw new IllegalArgumentException("negative");
    }
}
```"""

TRACE = """Getting this error when I save a refund:

```
java.lang.IllegalArgumentException: negative
    at shop.RefundValidator.validate(RefundValidator.java:4)
```"""


def test_code_pasted_for_tests_is_no_error_to_debug():
    corpus = corpus_of([(1, CLASS, False)])
    found = requests_of(corpus.messages[0])
    assert [(r.verb, r.head) for r in found] == [("write", "test")]


def test_an_error_the_person_names_is_still_one_to_debug():
    corpus = corpus_of([(1, TRACE, False)])
    assert ("debug", "error") in [(r.verb, r.head) for r in requests_of(corpus.messages[0])]


def test_a_pasted_error_asked_to_be_explained_is_explained():
    text = TRACE.replace("Getting this error when I save a refund:", "Can you explain this trace?")
    corpus = corpus_of([(1, text, False)])
    assert ("explain", "trace") in [(r.verb, r.head) for r in requests_of(corpus.messages[0])]
    assert "debug" not in [r.verb for r in requests_of(corpus.messages[0])]


def test_a_days_possessive_stays_in_the_quote():
    text = "Postponement message for Saturday's dinghy taster please"
    corpus = corpus_of([(1, text, False)])
    quote = quote_for(corpus.messages[0], 0, len(text), set(), keep=frozenset(["postponement"]))
    assert quote == "Postponement message for Saturday's dinghy taster"


def test_a_made_noun_without_a_modifier_takes_its_article():
    corpus = corpus_of(
        [
            (1, "Review this diff please, the new refund endpoint.", False),
            (1, "Review this diff from the invoice branch.", False),
            (1, "Quick review of this diff please, the notifier.", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert "Reviews the diffs." in [sentence_for(t) for t in themes]
