"""What memory never stores on its own (issue 11): the never-auto-store list.

Consolidation reads what people wrote and may form beliefs from it, but a statement
about any of these kinds is never stored automatically, however plainly it was said:
a person or a host may still write it on purpose (``belief_write``), and the owner's
persona document never receives a nomination for it (issue 12). The list lives here,
once; every caller asks ``never_auto_store(text)``.

Matching is on the normalised words (``safety.text``: case, accents in quotes, dashes
and invisible characters folded), whole words or word prefixes, so "diagnosed",
"diagnosis" and "my therapist" are all found.
"""

from __future__ import annotations

import re

from safety.text import normalize

#: kind -> word patterns (regular expressions over the normalised text, word-bounded)
NEVER_AUTO_STORE: dict[str, tuple[str, ...]] = {
    "health": (
        r"allerg\w*",
        r"diagnos\w*",
        r"medicat\w*",
        r"medicine\w*",
        r"prescri\w*",
        r"pregnan\w*",
        r"therap\w*",
        r"depress\w*",
        r"anxiety",
        r"adhd",
        r"autis\w*",
        r"diabet\w*",
        r"cancer",
        r"surgery",
        r"illness\w*",
        r"disease\w*",
        r"disorder\w*",
        r"symptom\w*",
        r"hospital\w*",
        r"doctor\w*",
        r"my (?:health|condition|blood pressure|weight)",
        r"mental health",
        r"chronic\w*",
        r"migraine\w*",
        r"sick",
    ),
    "finances": (
        r"salar\w*",
        r"income",
        r"debt\w*",
        r"mortgage\w*",
        r"loan\w*",
        r"bank account\w*",
        r"credit card\w*",
        r"credit score",
        r"iban",
        r"savings",
        r"net worth",
        r"bankrupt\w*",
        r"i (?:earn|make) \d",
        r"my (?:pay|paycheck|wages|taxes|budget|finances)",
    ),
    "another person": (
        r"my (?:wife|husband|partner|girlfriend|boyfriend|son|daughter|kids?|children|"
        r"mother|father|mom|mum|dad|brother|sister|friend|colleague|coworker|boss|"
        r"neighbou?r|manager|client)s?(?: s)? (?:is|has|was|lives|works|phone|email|address|"
        r"number|birthday|name)",
        r"(?:his|her|their) (?:phone|email|address|number|birthday|password)",
    ),
    "credentials": (
        r"passwords?",
        r"passcode\w*",
        r"pin(?: code)?",
        r"api keys?",
        r"access tokens?",
        r"secret keys?",
        r"private keys?",
        r"social security",
        r"ssn",
        r"passport number",
        r"login details",
    ),
    "beliefs and identity": (
        r"religio\w*",
        r"my (?:faith|church|mosque|synagogue|political|party vote)",
        r"i vote\w*",
        r"sexual\w*",
        r"criminal record",
    ),
}

_RE = {
    kind: re.compile(r"(?<![a-z0-9])(?:" + "|".join(pats) + r")(?![a-z0-9])")
    for kind, pats in NEVER_AUTO_STORE.items()
}


def never_auto_store(text: str) -> str | None:
    """The kind of never-auto-store content ``text`` holds ("health", ...), or None."""
    norm = normalize(text).text
    for kind, pattern in _RE.items():
        if pattern.search(norm):
            return kind
    return None
