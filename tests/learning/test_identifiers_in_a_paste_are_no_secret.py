"""A paste naming code by identifiers joined from words and numbers (a migration's
``20260919_AddCustodyEvents``) holds no secret: the request over it is quoted; a
random key in a paste still keeps the whole message out."""

from __future__ import annotations

from learning.proposers.local.hygiene import _paste_holds_secret
from safety.secrets import find_secrets
from tests.learning.corpora import corpus_of

DIFF = (
    "write me a PR description for this, chain of custody for samples:\n"
    "```diff\n"
    "+ public sealed class CustodyEvent { public int SampleId; }\n"
    "+ migration {name}\n"
    "+ tests: CustodyEventsTests (6)\n"
    "```"
)


def _message(name: str):
    return corpus_of([(1, DIFF.replace("{name}", name), False)]).messages[0]


def test_a_paste_naming_a_migration_holds_no_secret():
    assert not _paste_holds_secret(_message("20260919_AddCustodyEvents"))
    assert find_secrets("+ migration 20260919_AddCustodyEvents") == []
    assert find_secrets("handler OrderPlacedEventHandler2_RetryPolicy_20251102 registered") == []


def test_a_random_key_in_a_paste_is_still_a_secret():
    assert _paste_holds_secret(_message("9fQ2xL7vR4kT1mZ8wB3nC6yH5jD0sA2e"))
    assert find_secrets("token 9fQ2xL7vR4kT1mZ8wB3nC6yH5jD0sA2e") != []
