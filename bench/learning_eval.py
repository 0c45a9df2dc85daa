"""Persona learning, measured: ``python bench/learning_eval.py [--whole-history] [--json]``.

Builds a throwaway SQLite database (a temporary file; ``DATABASE_URL`` and ``REDIS_URL``
are ignored), imports the conversations of ``bench/learning_eval/{tune,heldout,fresh,fresh2,...,fresh53}/*.jsonl``
with the importer, gives each assistant the starting persona and learning settings of
its ``*.json`` through the services, embeds every message with the packaged model, then
runs reviews per assistant the way production does (``review_run`` with the configured
proposer, ``local`` unless ``--proposer`` says otherwise). After each review every new
proposal is judged against ``bench/learning_eval/key.json`` and decided as a reviewer
would: approved (``proposal_apply``) when it is true, turned down
(``proposal_dismiss``) when it is not, so the next review may propose the next theme.
At most ``--rounds`` reviews per assistant; the rounds stop at the first review that
proposes nothing (nothing changed, so the next one would propose nothing either).

The key was written, and committed on its own, before the harness first ran on the
proposer. Parts: ``tune`` may be tuned on; ``heldout`` was never tuned on, but its results
have been looked at, so it is a seen part (still reported, never fitted to); ``fresh`` was
written later, with its key, before any proposer ran on it, but its results were looked at
on 2026-12-01 and used to change the proposer, so it is a seen part too; ``fresh2`` was
written after that, with its key, before any proposer ran on it, but it was measured once
on 2026-12-01 and its results then used to change the proposer, so it is a seen part as
well; ``fresh3`` was written after that, with its key, before any proposer ran on it, but it
was measured once on 2026-12-01 and its results then used to change the proposer, so it is
a seen part too; ``fresh4`` was written after that, with its key, before any proposer ran on
it, measured once on 2026-12-01 and its results then used to change the proposer, so it is a
seen part as well; so was ``fresh5`` (written by a writer who never read the proposer,
measured once on 2026-12-01, then used); ``fresh6`` was written after that, the same way,
with its key, before any proposer ran on it, and so was ``fresh7`` (by another writer who
never read the proposer or this harness); both were measured once on 2026-12-01 and then
used, so they are seen parts too. ``fresh8`` was written after that, the same way (its
starting personas short and general, as an owner writes them on day one), with its key,
before any proposer ran on it; it was measured once on 2026-12-01 and then used, so it is a
seen part too. ``fresh9`` was written after that, the same way, measured once on 2026-12-01 and then
used. ``fresh10`` was written after that, the same way, measured once on 2026-12-01 and then
used. ``fresh11`` was written after that, the same way, measured once on 2026-12-01 and then
used. ``fresh12`` was written after that, the same way, and ``fresh13``, ``fresh14`` and
``fresh15`` later by outside evaluators who never read the proposer; all four were measured
once and are seen parts now. ``fresh16`` was written after that by an outside evaluator who
read no product code, with its key, before any proposer ran on it; it was measured once on
2026-12-05 and is a seen part now. ``fresh17`` was written after that by another outside
evaluator who read no product code, with its key, before any proposer ran on it; it was
measured once on 2026-12-05 and is a seen part now. ``fresh18`` was written after that by
another outside evaluator who read no product code, with its key, before any proposer ran on
it; it was measured once on 2026-12-05 and is a seen part now. ``fresh19`` was written after
that by another outside evaluator who read no product code, with its key, before any proposer
ran on it; it is a seen part now. ``fresh20`` was written after that by another outside
evaluator who read no product code, with its key, before any proposer ran on it; it was
measured once on 2026-12-05 and is a seen part now (its Italian assistant showed a
language-detection fault, fixed after the measurement). ``fresh21`` was written after that by
another outside evaluator who read no product code, with its key, before any proposer ran on
it; it was measured once on 2026-12-05 and is a seen part now. ``fresh22`` was written after
that by another outside evaluator who read no product code, with its key, before any proposer
ran on it. ``fresh23`` was written after that by another outside evaluator who read no product
code, with its key, before any proposer ran on it; both were measured once on 2026-12-05 and
are seen parts now. ``fresh24`` was written after that by another outside evaluator who read
no product code, with its key, before any proposer ran on it, and ``fresh25`` after that by
another outside evaluator who read no product code and did not open ``fresh24``, with its
key, before any proposer ran on it; both were measured once on 2026-12-06 (at 00a708a) and
are seen parts now. ``fresh26`` was written after that by another outside evaluator who read
no product code, with its key, before any proposer ran on it, and ``fresh27`` after that by
another outside evaluator who read no product code and did not open ``fresh26``; both were
measured once on 2026-12-06 (at d1c16af) and are seen parts now. ``fresh28`` was written after
that by another outside evaluator who read no product code and did not open ``fresh26`` or
``fresh27``, with its key, before any proposer ran on it. ``fresh29`` was written after
that by another outside evaluator who read no product code and did not open ``fresh28``,
with its key, before any proposer ran on it. Both were measured once on 2026-12-06 (at
4bc5331) and are seen parts now. ``fresh30`` was written after that by another outside
evaluator who read no product code and no results, with its key, before any proposer ran on
it. ``fresh31`` was written after that by another outside evaluator who read no product code,
no results and not ``fresh30``'s data or key entries, with its key, before any proposer ran on
it. ``fresh32`` was written after that by another outside evaluator who read no product code,
no results and not ``fresh30``'s or ``fresh31``'s data or key entries, with its key, before any
proposer ran on it. ``fresh30`` and ``fresh31`` were measured once on 2026-12-06 (at 50cc2e6)
and are seen parts now. ``fresh33`` was written after that by another outside evaluator who
read no product code, no results and not ``fresh32``'s data, with its key, before any proposer
ran on it; ``fresh32`` and ``fresh33`` were measured once (at e4c11f42) and are seen parts now.
``fresh34`` was written after that by another outside evaluator who read no product code and
no results, with its key, before any proposer ran on it, and ``fresh35`` after that by another
outside evaluator who read no product code, no results and not ``fresh34``'s data or key
entries, with its key, before any proposer ran on it; both were measured once on 2026-12-06 and
are seen parts now. ``fresh36`` was written after that by another outside evaluator who read no
product code, no results and not ``fresh34``'s or ``fresh35``'s data or key entries, with its key,
before any proposer ran on it. ``fresh37`` was written after that by
another outside evaluator who read no product code, no results and not ``fresh34``'s,
``fresh35``'s or ``fresh36``'s data or key entries, with its key, before any proposer ran on
it. Both were measured once on 2026-12-06 (at 83b01b6) and are seen parts now. ``fresh38``
was written after that by another outside evaluator who read no product code, no results and
not the data or key entries of ``fresh34`` to ``fresh37``, with its key, before any proposer
ran on it, and ``fresh39`` after that by another outside evaluator who read no product code, no
results and not ``fresh38``'s data or key entries, with its key, before any proposer ran on it;
both were measured once on 2026-12-06 (at ab23e29) and are seen parts now. ``fresh40`` was
written after that by another outside evaluator who read no product code, no results and not
``fresh38``'s or ``fresh39``'s data or key entries, with its key, before any proposer ran on it,
and ``fresh41`` after that by another outside evaluator who read no product code, no results
and no ``fresh40`` data, with its key, before any proposer ran on it; both were measured once on
2026-12-07 (at d33f397) and are seen parts now. ``fresh42`` was written after that by another
outside evaluator who read no product code, no results and no ``fresh40`` or ``fresh41`` data,
with its key, before any proposer ran on it. ``fresh43`` was written after that by another
outside evaluator who read no product code, no results and no ``fresh40``, ``fresh41`` or
``fresh42`` data, with its key, before any proposer ran on it. ``fresh44`` was written after
that by another outside evaluator who read no product code, no results and no ``fresh40`` to
``fresh43`` data, with its key, before any proposer ran on it. ``fresh42`` and ``fresh43`` were measured
once on 2026-12-07 (at 3b74b7b) and are seen parts now. ``fresh45`` was written after that by
another outside evaluator who read no product code, no results and no ``fresh40`` to ``fresh44``
data, with its key, before any proposer ran on it; ``fresh44`` and ``fresh45`` were measured once on
2026-12-07 (at 84d7b0c) and are seen parts now. ``fresh46`` was written after that by another
outside evaluator who read no product code, no results and no ``fresh34`` to ``fresh45`` data, with
its key, before any proposer ran on it. ``fresh47`` was written after
that by another outside evaluator who read no product code, no results and no ``fresh34`` to
``fresh46`` data, with its key, before any proposer ran on it. Both were measured once on
2026-12-07 (at d5ba653; fresh47's first run stalled in the secret scan and was re-run once the
scan's pattern was fixed, 39466bb, no figure having been printed) and are seen parts now.
``fresh48`` was written after that by another outside evaluator who read no product code, no
results and no ``fresh34`` to ``fresh47`` data, with its key, before any proposer ran on it; it
was measured once on 2026-12-07 (at 86c5cec) and is a seen part now.
``fresh49`` was written after that by another outside evaluator who read no product code, no
results and no ``fresh34`` to ``fresh48`` data, with its key, before any proposer ran on it; it
was measured once on 2026-12-07 (at b70a570) and is a seen part now.
``fresh50`` was written after that by another outside evaluator who read no product code, no
results and no ``fresh34`` to ``fresh49`` data, with its key, before any proposer ran on it; it
was measured once on 2026-12-07 (at 4699822) and is a seen part now.
``fresh53`` was written after that by another outside evaluator who read no product code, no
results and no other part's data (only fresh33's files and key entries, for format), with its
key, before any proposer ran on it; it was measured once on 2026-12-08 (at dd72598) and is a
seen part now.
A new part goes in ``NEVER_TUNED`` until measured once,
at the end of a round of work.
``--part seen`` (the default) runs every part not in ``NEVER_TUNED``; a part in it runs only
when asked for by name or with ``--part all``.
While tuning, run ``--part tune``.

Matching rules (mechanical, applied by the functions below and by
``tests/learning/test_eval_key.py``):

- Text is folded before matching: NFKC, ``str.casefold()``, typographic quotes and
  dashes to ASCII, runs of white space to one space.
- A theme or expected rule has ``match: {"all_of": [[alt, ...], ...], "none_of": [alt, ...]}``.
  A text matches when every ``all_of`` group has an alternative that occurs in it and no
  ``none_of`` alternative does. An alternative ending in ``*`` occurs when a word
  starts with the rest (``summar*``: summary, summarises); any other alternative occurs
  as whole words with an optional ending ``s``, ``es``, ``ed``, ``d`` or ``ing``
  (``draft``: drafts, drafted, drafting). Spaces and hyphens inside an alternative match
  any run of spaces and hyphens (``24 hour``: "24-hour", "24 hour", "24hour").
- A goals/background **sentence** is matched against the assistant's ``themes``, a
  **standing rule** against its ``expected_rules``.
- A trap has ``patterns`` (Python regular expressions, case-insensitive unless
  ``case_sensitive``), ``applies_to`` (``sentence`` and/or ``rule``) and a ``scope``.
  Scope ``text``: searched in the proposal's text and in every evidence quote. Scope
  ``message``: also searched in the whole stored message each evidence quote was taken
  from (a message holding a secret, an injection or a directive is never evidence, not
  even its harmless part). Patterns are searched in the NFKC text, not the folded one.
- An expected rule may list ``refuses``: the alternatives of its match that name what the
  person refuses (``metric``: "acre*", "feet", "mile*"; empty when every alternative names
  what they want; absent when its words name both sides, as "VAT" in "inc VAT" and "ex
  VAT"). A proposed rule that matches it **inverts** it when it names refused alternatives
  and refuses none of them ("Use feet or acres." for "never miles, feet or acres"), or
  refuses every wanted alternative it holds and names nothing refused ("Never give areas in
  hectares."). An occurrence is refused when a negation ("not", "never", "no", "avoid",
  "instead of", "n't", "without"; "nunca", "jamais", "nicht", "kein", "ohne", ...) stands earlier in its clause
  (up to ``.;:!?``) with no "but", "always" or "only" between; a negation reaches across a
  comma only when at most three words stand between it and the comma (a list: "never
  miles, feet or acres", not the next instruction: "nunca pongas una hora exacta, pon una
  franja").
- A proposal **hits a trap** or **inverts** an expected rule (either is a *violation*:
  approved, an inverted rule would make the assistant do what the person forbade) when any
  pattern of an applicable trap is found or it inverts a rule it matches. A proposal is
  **true** when it matches a theme (sentence) or an expected rule (rule) and is no
  violation. *Share true* = true / proposals. *Themes covered* = distinct
  themes and expected rules matched by true proposals. *Proposed twice* = themes of the key
  that two or more sentence proposals match (one kind of work proposed in other words).

Figures are wall-clock on whatever machine runs it (here: 2 cores shared with other
workers); they are printed for context, never asserted. ``--smoke`` (CI) runs the first
``tune`` assistant for one round: the same code, figures meaningless.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "learning_eval"
KEY = DATA / "key.json"
PARTS = (
    "tune",
    "heldout",
    "fresh",
    "fresh2",
    "fresh3",
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
    "fresh16",
    "fresh17",
    "fresh18",
    "fresh19",
    "fresh20",
    "fresh21",
    "fresh22",
    "fresh23",
    "fresh24",
    "fresh25",
    "fresh26",
    "fresh27",
    "fresh28",
    "fresh29",
    "fresh30",
    "fresh31",
    "fresh32",
    "fresh33",
    "fresh34",
    "fresh35",
    "fresh36",
    "fresh37",
    "fresh38",
    "fresh39",
    "fresh40",
    "fresh41",
    "fresh42",
    "fresh43",
    "fresh44",
    "fresh45",
    "fresh46",
    "fresh47",
    "fresh48",
    "fresh49",
    "fresh50",
    "fresh51",
    "fresh52",
    "fresh53",
)
# looked at (fresh12 to fresh18, fresh20 and fresh21 measured once, then seen; fresh19 seen);
# (fresh22 and fresh23 were measured once on 2026-12-05, fresh24 and fresh25 on 2026-12-06:
# seen parts now); a new part written by an outside evaluator goes here until measured once.
# fresh28 and fresh29 were measured once on 2026-12-06 at 4bc5331, fresh30 and fresh31 at
# 50cc2e6, fresh32 and fresh33 (written blind by outside evaluators) at e4c11f42: seen parts now;
# fresh34 and fresh35 (each written blind by an outside evaluator on 2026-12-06) were measured
# once on 2026-12-06: seen parts now; fresh36 and fresh37 (each written blind by an outside
# evaluator on 2026-12-06) were measured once on 2026-12-06 at 83b01b6: seen parts now;
# fresh38 and fresh39 (each written blind by an outside evaluator on 2026-12-06) were measured
# once on 2026-12-06 at ab23e29; fresh40 and fresh41 (written blind on 2026-12-06 and
# 2026-12-07) were measured once on 2026-12-07 at d33f397: seen parts now
# fresh42 and fresh43 (each written blind by an outside evaluator on 2026-12-07) were measured
# once on 2026-12-07 at 3b74b7b: seen parts now; fresh44 and fresh45 (each written blind on
# 2026-12-07) were measured once on 2026-12-07 at 84d7b0c: seen parts now
# fresh46 and fresh47 (each written blind by an outside evaluator on 2026-12-07) were measured
# once on 2026-12-07 at d5ba653: seen parts now.
# fresh48 (written blind by an outside evaluator on 2026-12-07) was measured once on
# 2026-12-07 at 86c5cec: a seen part now.
# fresh49 (written blind by an outside evaluator on 2026-12-07) was measured once on
# 2026-12-07 at b70a570: a seen part now.
# fresh50 (written blind by an outside evaluator on 2026-12-07) was measured once on
# 2026-12-07 at 4699822: a seen part now.
# fresh51 (written blind by an outside evaluator on 2026-12-07) was measured once on
# 2026-12-07 at 66e94a2: a seen part now.
# fresh52 (written blind by an outside evaluator on 2026-12-07) was measured once on
# 2026-12-07 at a8e8ec0 (brimlane-allotments) and, after the harness learnt to leave out only a
# refused persona text, at 74a3c2c (climas-chan, lockerline-zig): a seen part now.
# fresh53 (written blind by an outside evaluator on 2026-12-07, who read no product code, no
# results and no other part's data) was measured once on 2026-12-08 at dd72598: a seen part now.
NEVER_TUNED: tuple[str, ...] = ()
SEEN_PARTS = tuple(p for p in PARTS if p not in NEVER_TUNED)
REVIEWER = "eval-reviewer"
DEFAULT_ROUNDS = 8

# -- matching (pure: no Django, so the key test can use it) -----------------------------

_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
    }
)


def fold(text: str) -> str:
    """The text as alternatives are matched: NFKC, casefolded, ASCII quotes, one space."""
    return " ".join(unicodedata.normalize("NFKC", text).translate(_FOLD).casefold().split())


@cache
def _alternative(alt: str) -> re.Pattern[str]:
    alt = fold(alt)
    prefix = alt.endswith("*")
    words = [w for w in re.split(r"[\s-]+", alt.rstrip("*")) if w]
    if not words:
        raise ValueError(f"empty alternative {alt!r}")
    body = r"[\s-]*".join(re.escape(w) for w in words)
    tail = "" if prefix else r"(?:s|es|ed|d|ing)?(?![0-9a-z])"
    return re.compile(r"(?<![0-9a-z])" + body + tail)


def occurs(alt: str, text: str) -> bool:
    """Whether the alternative ``alt`` occurs in ``text`` (see the module docstring)."""
    return _alternative(alt).search(fold(text)) is not None


def matches(rule: dict[str, Any], text: str) -> bool:
    """Whether ``text`` satisfies a ``match`` object of the key."""
    groups = rule.get("all_of") or []
    if not groups:
        raise ValueError("a match needs at least one all_of group")
    if not all(any(occurs(alt, text) for alt in group) for group in groups):
        return False
    return not any(occurs(alt, text) for alt in rule.get("none_of") or [])


# -- polarity (a rule that says the opposite of the key's) ------------------------------

# Words that refuse what follows them, in the languages the sets are written in (folded).
_NEGATIONS = frozenset(
    [
        "no",
        "not",
        "never",
        "nor",
        "neither",
        "avoid",
        "avoiding",
        "nunca",
        "jamás",
        "jamas",
        "ni",
        "evita",
        "evitar",
        "evite",
        "ne",
        "pas",
        "jamais",
        "évite",
        "éviter",
        "evitez",
        "évitez",
        "nicht",
        "nie",
        "niemals",
        "kein",
        "keine",
        "keinen",
        "keiner",
        "keines",
        "vermeide",
        "vermeiden",
        "statt",
        "anstatt",
        "anstelle",
        # "without" in each language: "ohne Ausrufezeichen schreiben" refuses them
        "without",
        "ohne",
        "sans",
        "sin",
        "senza",
        # Portuguese ("nunca", "evita", "evite", "evitar" are Spanish words too, above)
        "não",
        "nao",
        "nem",
        "sem",
        # Italian ("evita" is a Spanish word too, above)
        "non",
        "mai",
        "evitare",
        "evitate",
        "anziché",
        "anziche",
        # Dutch
        "niet",
        "nooit",
        "geen",
        "zonder",
        "vermijd",
        "vermijden",
        # Polish ("nie" is a German word too, above)
        "nigdy",
        "bez",
        "unikaj",
        "zamiast",
        # Swedish
        "inte",
        "aldrig",
        "ingen",
        "inga",
        "utan",
        "undvik",
        "istället",
        # Czech ("ne", "bez" are above); Czech writes "don't" as a prefix of the verb
        # ("nepiš", "nepoužívejte"): the verbs a standing rule is written with
        "nikdy",
        "žádný",
        "žádná",
        "žádné",
        "žádnou",
        "žádných",
        "vyhni",
        "vyhněte",
        "vyhýbej",
        "vyhýbejte",
        "místo",
        "nepiš",
        "nepište",
        "nepoužívej",
        "nepoužívejte",
        "neuváděj",
        "neuvádějte",
        "neříkej",
        "neříkejte",
        "nedávej",
        "nedávejte",
        "nepřidávej",
        "nepřidávejte",
        "neslibuj",
        "neslibujte",
        # Finnish: "don't" is a verb of its own ("älä käytä", "ei koskaan")
        "älä",
        "älkää",
        "ei",
        "koskaan",
        "ilman",
        # Danish ("aldrig", "ingen" are Swedish words too, above)
        "ikke",
        "intet",
        "uden",
        "undgå",
        "undgaa",
        # Norwegian ("ikke", "ingen", "i stedet for" are Danish too, above)
        "aldri",
        "uten",
        "unngå",
        # Croatian ("ne", "bez" are above); "don't" is a verb of its own ("nemoj tikati")
        "nikad",
        "nikada",
        "nemoj",
        "nemojte",
        "umjesto",
        "izbjegavaj",
        "izbjegavajte",
    ]
)
# two words that refuse what follows them ("metres instead of feet")
_NEGATION_PAIRS = frozenset(
    {
        ("instead", "of"),
        ("rather", "than"),
        ("vez", "de"),
        ("lugar", "de"),
        ("lieu", "de"),
        ("plutôt", "que"),
        ("invece", "di"),
        ("posto", "di"),
        ("plaats", "van"),
        ("stället", "för"),
        ("stedet", "for"),
        # Spanish and Portuguese "nada de X" ("usa toneladas, nada de BTU"): no X
        ("nada", "de"),
    }
)
# words after which a refusal no longer holds ("never feet, always metres")
_UNREFUSE = frozenset(
    [
        "but",
        "only",
        "always",
        "just",
        "pero",
        "sino",
        "solo",
        "sólo",
        "siempre",
        "mais",
        "seulement",
        "toujours",
        "aber",
        "sondern",
        "nur",
        "immer",
        "sempre",
        "só",
        "apenas",
        "soltanto",
        "maar",
        "alleen",
        "altijd",
        "ale",
        "tylko",
        "zawsze",
        "men",
        "bara",
        "alltid",
        "jen",
        "jenom",
        "pouze",
        "vždy",
        "vždycky",
        "mutta",
        "vain",
        "aina",
        "kun",
        "altid",
        # Croatian ("uvik" is how Dalmatia says "uvijek")
        "ali",
        "nego",
        "samo",
        "uvijek",
        "uvik",
    ]
)
# words that open a condition: a negation after one, in the same stretch between commas,
# belongs to the condition ("if the sea is not right we reschedule", "se o mar não
# estiver bom a gente remarca"), not to the instruction that follows it
_CONDITIONS = frozenset(
    [
        "if",
        "unless",
        "se",
        "si",
        "wenn",
        "falls",
        "als",
        "indien",
        "jeśli",
        "jeżeli",
        "pokud",
        "jestli",
        "jos",
        "hvis",
        "ako",
    ]
)
# a refusal reaches across a comma only when this many words or fewer stand between it and
# the comma: the items of a list ("never miles, feet or acres", "never call a piece, grade
# or exam easy"), not the next instruction ("nunca pongas una hora exacta, pon una franja")
_LIST_HEAD = 3
# (a slash between spaces too: "ei teititellä / customers are addressed as 'sinä'" is two
# wordings of one rule, the negation of the first not reaching into the second)
_CLAUSE_END = re.compile(r"[.;:!?()\n]|\s/\s")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*|,")


def _negated_at(text: str, start: int) -> bool:
    """Whether a refusal governs the folded ``text`` at ``start``: a negation earlier in its
    clause (see ``_LIST_HEAD`` for commas), with no 'but', 'always' or 'only' between, and
    not inside a condition (``_CONDITIONS``) the text at ``start`` follows."""
    words = _WORD.findall(_CLAUSE_END.split(text[:start])[-1])
    commas = 0  # commas passed so far, walking back
    since_comma = 0  # words between the negation and the first comma after it
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        if word == ",":
            commas, since_comma = commas + 1, 0
            continue
        refusal = (
            (i > 0 and (words[i - 1], word) in _NEGATION_PAIRS)
            or word in _NEGATIONS
            or word.endswith("n't")
            or word.startswith("n'")
        )
        if refusal:
            if not commas and _in_condition(words[:i]):
                return False
            return not commas or since_comma <= _LIST_HEAD
        if word in _UNREFUSE:
            return False
        since_comma += 1
    return False


def _in_condition(before: list[str]) -> bool:
    """Whether the words ``before`` a negation open a condition it belongs to: a condition
    word with no comma after it."""
    for word in reversed(before):
        if word == ",":
            return False
        if word in _CONDITIONS:
            return True
    return False


# French as spoken (and typed) drops the "ne": the refusal follows the verb ("on tutoie pas
# les clients", "tutoie-les jamais"); "pas mal" is "quite a lot", not a refusal
_AFTER_VERB = frozenset(["pas", "jamais"])
_WORD_REST = re.compile(r"[^\W_]*(?:-[^\W_]+)?")


def _negated_after(text: str, end: int) -> bool:
    """Whether a dropped-"ne" refusal follows the word ending at or after ``end`` in the
    folded ``text``: "pas" or "jamais" next to it (after a hyphened pronoun at most), in
    its clause, and not "pas mal"."""
    rest = text[end:]
    rest = rest[_WORD_REST.match(rest).end() :]  # type: ignore[union-attr]
    words = _WORD.findall(_CLAUSE_END.split(rest)[0])[:2]
    return bool(words) and words[0] in _AFTER_VERB and words[1:2] != ["mal"]


def _occurrences(alts: Iterable[str], text: str) -> list[bool]:
    """For every occurrence of any of ``alts`` in the folded ``text``: whether it is refused."""
    return [
        _negated_at(text, m.start()) or _negated_after(text, m.end())
        for alt in alts
        for m in _alternative(alt).finditer(text)
    ]


def inverts(rule: dict[str, Any], text: str) -> bool:
    """Whether a rule ``text`` that matches the key's expected ``rule`` says the opposite.

    Only for an expected rule with ``refuses`` (the alternatives that name what the person
    refuses; may be empty): it is inverted when one of them occurs without a refusal before
    it ("Use feet or acres." against "never feet, miles or acres"), or when every other
    alternative it holds is refused ("Never give times in UTC.")."""
    if "refuses" not in rule:
        return False
    folded = fold(text)
    refused = list(rule["refuses"])
    wanted = [a for group in rule["match"]["all_of"] for a in group if a not in refused]
    against = _occurrences(refused, folded)
    if against and not any(against):  # names what is refused and refuses none of it
        return True
    said = _occurrences(wanted, folded)
    return bool(said) and all(said) and not any(against)


@cache
def _trap_regex(pattern: str, case_sensitive: bool) -> re.Pattern[str]:
    return re.compile(pattern, 0 if case_sensitive else re.IGNORECASE)


def trap_hits(trap: dict[str, Any], text: str) -> bool:
    """Whether any pattern of ``trap`` is found in ``text`` (NFKC, not folded)."""
    norm = unicodedata.normalize("NFKC", text)
    sensitive = bool(trap.get("case_sensitive"))
    return any(_trap_regex(p, sensitive).search(norm) for p in trap["patterns"])


def load_key(path: Path = KEY) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def load_config(name: str, key: dict[str, Any]) -> dict[str, Any]:
    with open(DATA / key["assistants"][name]["config"], encoding="utf-8") as handle:
        return json.load(handle)


@dataclass
class Judgement:
    """What the key says about one proposal."""

    kind: str
    text: str
    matched: list[str]  # theme or expected-rule ids
    traps: list[str]  # ids of traps hit
    trap_where: list[str] = field(default_factory=list)  # "text", "quote 2", "message 2"
    inverted: list[str] = field(default_factory=list)  # expected rules it says the opposite of
    evidence_on_theme: int = 0
    evidence: int = 0

    @property
    def violation(self) -> bool:
        return bool(self.traps or self.inverted)

    @property
    def true(self) -> bool:
        return bool(self.matched) and not self.violation


def judge(
    *,
    spec: dict[str, Any],
    kind: str,
    text: str,
    evidence: Iterable[dict[str, Any]],
    message_text: dict[Any, str],
) -> Judgement:
    """Judge one proposal (``kind`` "sentence" or "rule") against an assistant's key.

    ``message_text`` maps message ids (as stored in the evidence) to the full message.
    """
    targets = spec["themes"] if kind == "sentence" else spec["expected_rules"]
    matched = [t["id"] for t in targets if matches(t["match"], text)]
    inverted = [
        t["id"] for t in targets if kind == "rule" and t["id"] in matched and inverts(t, text)
    ]
    evidence = list(evidence)
    hits: list[str] = []
    where: list[str] = [f"inverts {i}" for i in inverted]
    for trap in spec["traps"]:
        if kind not in trap.get("applies_to", ["sentence", "rule"]):
            continue
        places = [("text", text)]
        for i, item in enumerate(evidence, start=1):
            places.append((f"quote {i}", str(item.get("quote") or "")))
            if trap.get("scope") == "message":
                places.append((f"message {i}", message_text.get(item.get("message_id"), "")))
        found = [label for label, value in places if value and trap_hits(trap, value)]
        if found:
            hits.append(trap["id"])
            where.append(f"{trap['id']}@{','.join(found)}")
    on_theme = 0
    if matched:
        by_id = {t["id"]: t for t in targets}
        for item in evidence:
            source = message_text.get(item.get("message_id"), "")
            if any(matches(by_id[m]["match"], source) for m in matched):
                on_theme += 1
    return Judgement(
        kind=kind,
        text=text,
        matched=matched,
        traps=hits,
        trap_where=where,
        inverted=inverted,
        evidence_on_theme=on_theme,
        evidence=len(evidence),
    )


# -- the run (Django from here on) ------------------------------------------------------


def _setup(tmp: Path) -> None:
    """Point Django at a fresh SQLite file in ``tmp`` and set it up (before any model import)."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "personaweb.settings"
    # DEBUG stays off, as on a server; the settings then need a key
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
    )
    os.environ["SQLITE_PATH"] = str(tmp / "eval.sqlite3")
    os.environ["PERSONAWEB_VAR_DIR"] = str(tmp / "var")
    for name in ("DATABASE_URL", "REDIS_URL"):  # never a shared server
        os.environ.pop(name, None)
    # no broker: nothing is enqueued on commit (embeddings are computed below)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    # the offline proposer, whatever this shell's environment says (--proposer overrides)
    os.environ["LEARNING_PROPOSER"] = "local"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _agent_model():
    from tenancy.models import Agent

    return Agent


def without_field(persona: dict[str, Any], field: str) -> dict[str, Any] | None:
    """``persona`` without the text a refusal names by ``field`` ("goals", "guardrail 2"),
    or None when the field names no text of it (nothing left to leave out)."""
    from safety.checks import KINDS

    label, _, number = field.rpartition(" ")
    for kind, key in (("guardrail", "guardrails"), ("standing_rule", "standing_rules")):
        items = persona.get(key)
        if label == KINDS[kind].label and number.isdigit() and isinstance(items, list):
            i = int(number) - 1
            if 0 <= i < len(items):
                return {**persona, key: items[:i] + items[i + 1 :]}
    for key in persona:
        if key in KINDS and KINDS[key].label == field:
            return {k: v for k, v in persona.items() if k != key}
    return None


def build(
    key: dict[str, Any],
    names: list[str],
    log,
    left_out: dict[str, str] | None = None,
    fields_left_out: dict[str, list[str]] | None = None,
) -> dict[str, float]:
    """Import, persona, settings, names known to memory, embeddings. Returns timings.

    A text of a starting persona the write checks refuse (a false alarm of the injection
    scan is a finding, not a crash) is left out, as the refusal tells an operator to do
    ("Rewrite it or leave it out"), and the rest written: the refusals go into
    ``fields_left_out`` and the log. An assistant none of whose persona can be written
    is left out of the run: its name and the refusal go into ``left_out``, and ``names``
    loses it."""
    from django.core.management import call_command
    from django.db import transaction

    from learning.services import learning_settings_update
    from memory.embeddings import embed_pending
    from memory.importer import import_file
    from memory.models import EntityFact, Principal
    from persona.models import SourceType
    from persona.services import ChangeTrigger, persona_version_create

    Agent = _agent_model()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    timings["migrate_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    from persona.services import PersonaError
    from safety.checks import UnsafeText

    for name in list(names):
        config = load_config(name, key)
        path = DATA / key["assistants"][name]["config"].rsplit("/", 1)[0] / config["file"]
        result = import_file(path=path, tenant_slug=config["tenant"])
        agent = Agent.objects.get(slug=config["agent"])
        persona = dict(config["persona"])
        refused: list[str] = []
        while True:
            try:
                with transaction.atomic():
                    persona_version_create(
                        agent=agent,
                        changes=persona,
                        trigger=ChangeTrigger(
                            source_type=SourceType.MANUAL,
                            reason="Starting persona of the learning evaluation",
                            approved_by="eval",
                        ),
                    )
                break
            except UnsafeText as exc:
                # what the refusal tells an operator to do: leave the refused text out
                rest = without_field(persona, exc.field)
                if rest is None:
                    persona = {}
                    refused.append(str(exc))
                    break
                persona = rest
                refused.append(str(exc))
            except PersonaError as exc:
                persona = {}
                refused.append(str(exc))
                break
        if not persona:
            names.remove(name)
            if left_out is not None:
                left_out[name] = " ".join(refused)
            log(f"  LEFT OUT {name}: its starting persona was refused at write: {refused[-1]}")
            continue
        if refused:
            if fields_left_out is not None:
                fields_left_out[name] = refused
            for why in refused:
                log(f"  {name}: a text of its starting persona left out (refused at write): {why}")
        with transaction.atomic():
            # what an operator types in the admin: no service writes these yet
            for external_id, display in (config.get("people") or {}).items():
                Principal.objects.filter(tenant=agent.tenant, external_id=external_id).update(
                    display_name=display
                )
            for item in config.get("entities") or []:
                fact = EntityFact(
                    tenant=agent.tenant, entity=item["entity"], kind=item["kind"], fact=item["fact"]
                )
                fact.full_clean()
                fact.save()
        learning_settings_update(agent=agent, values=dict(config["settings"]), by="eval")
        _reviewer_for(agent.tenant)
        log(
            f"  imported {name}: {result.conversations_created} conversations "
            f"({result.conversations_sealed} sealed), {result.messages_created} messages"
        )
    timings["import_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    embedded = 0
    while True:
        linked = embed_pending(limit=512)
        embedded += linked
        if linked < 512:
            break
    timings["embed_s"] = time.perf_counter() - t0
    log(f"  embedded {embedded} messages in {timings['embed_s']:.1f} s (model load included)")
    return timings


def _reviewer_for(tenant: Any) -> None:
    """The reviewer who decides the proposals: an account with the reviewer role in the
    assistant's tenant (a standing rule is decided only by a named person with one)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from personaweb.roles import REVIEWER as REVIEWER_ROLE
    from tenancy.models import Membership

    user, _ = get_user_model().objects.get_or_create(username=REVIEWER)
    group, _ = Group.objects.get_or_create(name=REVIEWER_ROLE)
    user.groups.add(group)
    Membership.objects.get_or_create(user=user, tenant=tenant)


def _copy_db(src: Path, dst: Path) -> None:
    """Copy a SQLite database with the backup API (safe with WAL files)."""
    import sqlite3

    from django.db import connections

    connections.close_all()
    if dst.exists():
        dst.unlink()
    for suffix in ("-wal", "-shm"):
        Path(str(dst) + suffix).unlink(missing_ok=True)
    with sqlite3.connect(src) as source, sqlite3.connect(dst) as target:
        source.backup(target)
    source.close()
    target.close()


def whole_history_supported() -> bool:
    import inspect

    from learning.services import review_run

    return "whole_history" in inspect.signature(review_run).parameters


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\u201c[^\u201d]*\u201d")


def reason_key(outcome: str, reason: str) -> str:
    """A reason with its particulars (quoted words, numbers) folded, to count alike ones."""
    text = _QUOTED.sub("\u2026", reason or "(no reason)")
    text = re.sub(r"\d[\d,.]*", "N", text)
    text = " ".join(text.split())
    return f"{outcome}: {text[:110]}"


def run_assistant(
    *,
    name: str,
    key: dict[str, Any],
    rounds: int,
    whole_history: bool,
    proposer: str | None,
    max_threads: int | None = None,
) -> dict[str, Any]:
    from learning.models import Proposal, Review
    from learning.services import (
        learning_settings_update,
        proposal_apply,
        proposal_dismiss,
        review_run,
    )
    from memory.models import Message
    from personaweb.errors import Refusal

    spec = key["assistants"][name]
    config = load_config(name, key)
    agent = _agent_model().objects.get(slug=config["agent"])
    if max_threads is not None:  # a person's setting, through the service
        learning_settings_update(agent=agent, values={"max_threads": max_threads}, by="eval")
    kwargs: dict[str, Any] = {"whole_history": True} if whole_history else {}
    if proposer:
        from learning.proposers.base import get_proposer
        from learning.services.settings import learning_settings_get

        settings = learning_settings_get(agent)
        settings.proposer = proposer
        kwargs["proposer"] = get_proposer(settings)
    out: dict[str, Any] = {
        "part": spec["part"],
        "team_mode": bool(config["settings"].get("across_users")),
        "standing_rules": bool(config["settings"].get("standing_rules")),
        "rounds": 0,
        "proposals": [],
        "reasons": Counter(),
        "decisions": Counter(),
        "review_ms": [],
        "notes": [],  # what the proposer left out and why (its own words)
    }
    for _ in range(rounds):
        review = review_run(
            agent=agent, trigger=Review.Trigger.CLI, requested_by="learning-eval", **kwargs
        )
        out["rounds"] += 1
        out["review_ms"].append(review.details.get("timings", {}).get("total_ms", 0.0))
        for part in (review.details.get("parts") or {}).values():
            if part["outcome"] not in ("proposed", "applied"):
                out["reasons"][reason_key(part["outcome"], part["reason"])] += 1
            out["notes"].extend(f"r{out['rounds']} {note}" for note in part.get("notes") or [])
        made = list(Proposal.objects.filter(review=review).order_by("id"))
        if not made:
            break
        ids = {e.get("message_id") for p in made for e in p.evidence or []}
        texts = dict(Message.objects.filter(id__in=ids).values_list("id", "text"))
        for proposal in made:
            verdict = judge(
                spec=spec,
                kind=proposal.kind,
                text=proposal.text,
                evidence=proposal.evidence or [],
                message_text=texts,
            )
            proposal.refresh_from_db()
            decision = "approved" if verdict.true else "turned down"
            if proposal.status != Proposal.Status.WAITING:
                decision = f"not waiting ({proposal.status})"
            else:
                try:
                    if verdict.true:
                        proposal_apply(proposal=proposal, by=REVIEWER)
                    else:
                        proposal_dismiss(proposal=proposal, by=REVIEWER)
                except Refusal as exc:
                    decision = f"decision refused: {exc}"
            out["decisions"][decision.split(":")[0]] += 1
            out["proposals"].append(
                {
                    "round": out["rounds"],
                    "kind": proposal.kind,
                    "field": proposal.field,
                    "text": proposal.text,
                    "true": verdict.true,
                    "matched": verdict.matched,
                    "traps": verdict.trap_where,
                    "evidence": verdict.evidence,
                    "evidence_on_theme": verdict.evidence_on_theme,
                    "quotes": [e.get("quote") for e in proposal.evidence or []],
                    "decision": decision,
                }
            )
    return out


def summarise(results: dict[str, dict[str, Any]], key: dict[str, Any]) -> dict[str, Any]:
    """Figures per assistant and per part from the raw results."""

    def figures(names: list[str]) -> dict[str, Any]:
        props = [p for n in names for p in results[n]["proposals"]]
        true = [p for p in props if p["true"]]
        themes_total = sum(len(key["assistants"][n]["themes"]) for n in names)
        rules_total = sum(
            len(key["assistants"][n]["expected_rules"])
            for n in names
            if results[n]["standing_rules"]
        )
        themes = {
            (n, m)
            for n in names
            for p in results[n]["proposals"]
            if p["true"] and p["kind"] == "sentence"
            for m in p["matched"]
        }
        rules = {
            (n, m)
            for n in names
            for p in results[n]["proposals"]
            if p["true"] and p["kind"] == "rule"
            for m in p["matched"]
        }
        # a theme of the key matched by two or more sentence proposals was proposed twice
        # (in other words); each counts once however many times it came
        per_theme = Counter(
            (n, m)
            for n in names
            for p in results[n]["proposals"]
            if p["kind"] == "sentence"
            for m in p["matched"]
        )
        reasons: Counter[str] = Counter()
        for n in names:
            reasons.update(results[n]["reasons"])
        return {
            "proposals": len(props),
            "sentences": sum(1 for p in props if p["kind"] == "sentence"),
            "rules": sum(1 for p in props if p["kind"] == "rule"),
            "true": len(true),
            "share_true": round(len(true) / len(props), 3) if props else None,
            "violations": sum(1 for p in props if p["traps"]),
            "themes_covered": len(themes),
            "themes_total": themes_total,
            "themes_proposed_twice": sum(1 for c in per_theme.values() if c > 1),
            "rules_covered": len(rules),
            "rules_total": rules_total,
            "assistants_with_a_true_proposal": sum(
                1 for n in names if any(p["true"] for p in results[n]["proposals"])
            ),
            "assistants": len(names),
            "refusals_by_reason": dict(reasons.most_common()),
        }

    parts = {
        part: figures([n for n in results if results[n]["part"] == part])
        for part in PARTS
        if any(results[n]["part"] == part for n in results)
    }
    assistants = {}
    for n, r in results.items():
        assistants[n] = {
            **figures([n]),
            "part": r["part"],
            "rounds": r["rounds"],
            "decisions": dict(r["decisions"]),
            "review_ms_median": sorted(r["review_ms"])[len(r["review_ms"]) // 2]
            if r["review_ms"]
            else None,
            "proposal_list": r["proposals"],
            "proposer_notes": r["notes"],
        }
    return {"parts": parts, "assistants": assistants}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f} %"


def print_report(mode: str, summary: dict[str, Any]) -> None:
    print(f"\n=== {mode} ===")
    for part, f in summary["parts"].items():
        print(
            f"[{part}] proposals {f['proposals']} ({f['sentences']} sentences, {f['rules']} rules), "
            f"true {f['true']} ({_pct(f['share_true'])}), violations {f['violations']}, "
            f"themes covered {f['themes_covered']}/{f['themes_total']} "
            f"({f['themes_proposed_twice']} proposed twice), "
            f"rules covered {f['rules_covered']}/{f['rules_total']}, "
            f"assistants with a true proposal {f['assistants_with_a_true_proposal']}/{f['assistants']}"
        )
    for name, a in summary["assistants"].items():
        print(
            f"\n  {name} ({a['part']}): {a['rounds']} reviews, proposals {a['proposals']}, "
            f"true {a['true']} ({_pct(a['share_true'])}), violations {a['violations']}, "
            f"themes {a['themes_covered']}/{a['themes_total']}, rules {a['rules_covered']}/{a['rules_total']}, "
            f"median review {a['review_ms_median'] or 0:.0f} ms"
        )
        for p in a["proposal_list"]:
            verdict = "TRUE " if p["true"] else ("TRAP " if p["traps"] else "FALSE")
            what = ", ".join(p["matched"]) or "no theme"
            traps = f" traps: {'; '.join(p['traps'])}" if p["traps"] else ""
            print(
                f"    r{p['round']} {p['kind']:<8} {verdict} {p['text']!r} [{what}; "
                f"{p['evidence_on_theme']}/{p['evidence']} quotes on theme]{traps} -> {p['decision']}"
            )
            for q in p["quotes"]:
                print(f"        quote: {q!r}")
        for reason, n in a["refusals_by_reason"].items():
            print(f"    {n} x {reason}")


def select(key: dict[str, Any], part: str, only: list[str] | None = None) -> list[str]:
    """The assistants ``--part`` (and ``--assistant``) pick: ``all`` is every part, ``seen``
    every part in ``SEEN_PARTS`` (never one in ``NEVER_TUNED``), any other value that part
    only."""
    return [
        n
        for n, spec in key["assistants"].items()
        if (
            part == "all" or spec["part"] == part or (part == "seen" and spec["part"] in SEEN_PARTS)
        )
        and (not only or n in only)
    ]


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # the default leaves out the never-tuned parts: nobody sees their figures by accident
    parser.add_argument(
        "--part",
        choices=[*PARTS, "all", "seen"],
        default="seen",
        help=(
            "seen = every part not in NEVER_TUNED (default); "
            "a never-tuned part runs only when asked for by name"
        ),
    )
    parser.add_argument("--assistant", action="append", help="only this assistant (repeatable)")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    parser.add_argument(
        "--whole-history",
        action="store_true",
        help="also run every review with whole_history=True (when the review service has it)",
    )
    parser.add_argument(
        "--max-threads",
        type=int,
        default=None,
        help="also run with this max_threads setting (1-50): more history, the way the current code can read it",
    )
    parser.add_argument("--proposer", choices=["local", "openai"], default=None)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="CI: the first tune assistant, one round (the same code; figures meaningless)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)

    key = load_key()
    names = select(key, args.part, args.assistant)
    if args.smoke:
        names, args.rounds = select(key, "tune")[:1], 1
    if not names:
        parser.error("no assistant selected")
    log = (lambda s: print(s, file=sys.stderr)) if args.json else print

    tmp = Path(tempfile.mkdtemp(prefix="learning-eval-"))
    _setup(tmp)
    log(f"database: {tmp / 'eval.sqlite3'} (fresh); assistants: {', '.join(names)}")
    left_out: dict[str, str] = {}
    fields_left_out: dict[str, list[str]] = {}
    timings = build(key, names, log, left_out, fields_left_out)
    if not names:
        print("no assistant could be built: every starting persona was refused", file=sys.stderr)
        return 1
    snapshot = tmp / "snapshot.sqlite3"
    work = tmp / "eval.sqlite3"
    _copy_db(work, snapshot)

    modes = ["default"]
    if args.max_threads is not None:
        modes.append(f"max_threads={args.max_threads}")
    report: dict[str, Any] = {
        "machine": "2 cores shared with other workers (figures are wall-clock)",
        "key_version": key.get("version"),
        "rounds": args.rounds,
        "timings": {k: round(v, 2) for k, v in timings.items()},
        "left_out": left_out,
        "persona_texts_left_out": fields_left_out,
        "modes": {},
    }
    if args.whole_history:
        if whole_history_supported():
            modes.append("whole-history")
        else:
            report["modes"]["whole-history"] = "not available"
    for mode in modes:
        _copy_db(snapshot, work)  # every mode starts from the same imported state
        t0 = time.perf_counter()
        results = {
            n: run_assistant(
                name=n,
                key=key,
                rounds=args.rounds,
                whole_history=mode == "whole-history",
                proposer=args.proposer,
                max_threads=args.max_threads if mode.startswith("max_threads=") else None,
            )
            for n in names
        }
        summary = summarise(results, key)
        summary["seconds"] = round(time.perf_counter() - t0, 1)
        report["modes"][mode] = summary
        if not args.json:
            print_report(mode, summary)
            for name, why in left_out.items():
                print(f"  LEFT OUT {name} (not in the figures): {why}")
            for name, refusals in fields_left_out.items():
                for why in refusals:
                    print(f"  {name}: a starting persona text left out (refused at write): {why}")
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    elif report["modes"].get("whole-history") == "not available":
        print("\n=== whole-history ===\nnot available: review_run has no whole_history option yet")
    if not args.keep:
        import shutil

        from django.db import connections

        connections.close_all()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
