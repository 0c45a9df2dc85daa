"""A word the person writes as code in their own words (a member after a dot, a call, a
tag or a type argument: "no .Result please", "<Nullable>enable</Nullable>") is code, told by
the characters touching it: a correction leaves it out of the words it reads instead of
taking the part after the dot for a clause of its own."""

from __future__ import annotations

from learning.proposers.local.corrections import corrections_of
from learning.proposers.local.tokens import code_shaped, tokens
from tests.learning.corpora import corpus_of


def _shaped(text: str) -> set[str]:
    return {t.text for t in tokens(text) if code_shaped(text, t)}


def test_a_word_touching_a_dot_a_call_or_angle_brackets_is_code():
    assert _shaped("no .Result please and no .Wait() either") == {"Result", "Wait"}
    assert _shaped("turned on <Nullable>enable</Nullable> in the api") == {
        "Nullable",
        "enable",
    }
    assert _shaped("IOptions<BlobSettings> is empty") == {"IOptions", "BlobSettings"}
    assert _shaped("in svc.Refund wrap it") == {"svc", "Refund"}


def test_prose_around_code_is_no_code():
    assert not _shaped("Done. Thanks, see you at 10.30 (maybe) - Nina")
    assert not _shaped("the price is 73.50 and the version 0.9.3")


def test_a_member_written_bare_in_a_correction_is_no_clause_of_its_own():
    corpus = corpus_of([(1, "no .Result please, it deadlocks under the sync context", True)])
    read = [corpus.messages[0].text[c.start : c.end] for c in corrections_of(corpus.messages[0])]
    assert read == ["it deadlocks under the sync context"]
