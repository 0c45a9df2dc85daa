"""A theme of pasted problems whose quotes never say "error" is worded with the words
they write: what fails, or that it fails, so the review's verifier keeps its quotes."""

from __future__ import annotations

from learning.proposers.local import Theme, requests_of
from learning.proposers.local.wording import problem_named_by_quotes
from tests.learning.corpora import corpus_of

PASTE = "\n```\nsrc/Main.hs:14:15: error: Couldn't match type Int with Pence\n```"


def _theme(texts: list[str]) -> Theme:
    corpus = corpus_of([(1, text + PASTE, False) for text in texts])
    reports = [r for m in corpus.messages for r in requests_of(m) if r.reported]
    return Theme(
        head="error", verb="debug", requests={r.message.conversation_id: r for r in reports}
    )


def test_problems_are_named_by_what_fails_when_quotes_never_say_error():
    theme = _theme(
        [
            "the code won't compile this morning, no idea why:",
            "compile error after bumping the library:",
            "test fixture won't compile, sorry about that:",
        ]
    )
    assert problem_named_by_quotes(theme, "Debugs the errors.", set()) == "Debugs compile errors."


def test_problems_are_named_as_failing_work_when_quotes_say_it_fails():
    theme = _theme(
        [
            "Build's failing on the sensor recipe since yesterday:",
            "Kernel build fails after I enabled the driver:",
            "Image signing fails in the pipeline since the runner moved:",
        ]
    )
    assert problem_named_by_quotes(theme, "Debugs the errors.", set()) == "Debugs failing builds."


def test_a_wording_most_quotes_share_already_stays():
    theme = _theme(
        [
            "Getting this error when I save the config:",
            "another error from the nightly job, help:",
            "type error here, help please:",
        ]
    )
    assert problem_named_by_quotes(theme, "Debugs the errors.", set()) == "Debugs the errors."


def test_problems_are_not_named_by_where_they_fail():
    theme = _theme(
        [
            "clippy job in CI fails on the new lint:",
            "compile error in the new sink trait:",
            "CI is failing on the nightly job:",
        ]
    )
    assert problem_named_by_quotes(theme, "Debugs the errors.", set()) == "Debugs the errors."
