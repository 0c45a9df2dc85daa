"""The secret scan reads every message a review quotes, so one long token must not stall
it: a long run of letters in a pasted line ("GetUserprovisioningscriptBC", no digit, no symbol) is
judged in one pass, not by trying every way to split it into words."""

from __future__ import annotations

import subprocess
import sys

import pytest

from safety import secrets
from safety.evidence import secret_kinds


@pytest.mark.parametrize(
    ("value", "joined"),
    [
        ("ops_admin", True),
        ("Ulivo.Verde", True),
        ("camelCaseName", True),
        ("pelican-harbor-", True),
        ("double__underscore", False),
        ("ABCdef", False),
        ("trailing$", False),
        ("a" * 300, True),
        ("a" * 300 + "$", False),
    ],
)
def test_words_joined_as_a_name_are_read_as_before(value, joined):
    assert bool(secrets._WORDS_JOINED.fullmatch(value)) is joined


def test_a_long_run_of_letters_ending_in_a_symbol_is_scanned_in_one_pass():
    # Before: the nested pattern took 2**n steps on n letters (0.8 s at 24, years at 60); a
    # child process with a generous bound tells a finished scan from one that never ends.
    line = "$Provisioning = 'Get" + "a" * 60 + "BC'"
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'personaweb.settings');"
        "django.setup(); from safety.evidence import secret_kinds;"
        f"print(secret_kinds({line!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert not secret_kinds("nothing secret here")
