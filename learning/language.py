"""English words for persona learning: parts of speech, lemmas and inflection.

A thin layer over ``lemminflect`` (a lexicon of English word forms with their
lemmas, shipped inside the package: no download, no model, no network), so the
local proposer can tell a verb from a noun ("Review this diff" against "Weekend post
please"), turn "replies" into "reply" and "draft" into "drafts", and the refusal
policy can tell an ordinary word ("Mills", "Rose") from a name ("Priya").

The lexicon says what a word *can* be, not what it is in a given sentence; the
callers decide with the words around it.
"""

from __future__ import annotations

import functools

import lemminflect

_UPOS = {"VERB", "NOUN", "ADJ", "ADV", "AUX", "PROPN"}


@functools.lru_cache(maxsize=16384)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    return dict(lemminflect.getAllLemmas(word.lower()))


def is_english_word(word: str) -> bool:
    """Whether the lexicon knows ``word`` (in any part of speech)."""
    return bool(_lemmas(word))


def can_be(word: str, pos: str) -> bool:
    """Whether ``word`` can be a ``pos`` ("VERB", "NOUN", "ADJ", "ADV", "AUX")."""
    assert pos in _UPOS
    return pos in _lemmas(word)


def lemma(word: str, pos: str) -> str:
    """The lemma of ``word`` as a ``pos``; an unknown word is its own lemma, except
    that a plausible plural noun loses its "s" ("rotas" -> "rota")."""
    found = _lemmas(word).get(pos)
    if found:
        return found[0]
    low = word.lower()
    if pos == "NOUN" and not _lemmas(word) and low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


def third_person(verb: str) -> str:
    """'draft' -> 'drafts', 'summarise' -> 'summarises', 'reply' -> 'replies'."""
    forms = [f for f in lemminflect.getInflection(verb, tag="VBZ") if f.isalpha()]
    if forms:  # never "proof-reads" for "proofread"
        return forms[0]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ies"
    return verb + "s"


def plural(noun: str) -> str:
    """'reply' -> 'replies', 'rota' -> 'rotas', 'PR' -> 'PRs'; 'notes' and an unknown
    word written as a plural ('docs') stay as they are."""
    if noun.isupper():
        return noun + "s"
    if noun.endswith("s") and not noun.endswith("ss"):
        if can_be(noun, "NOUN") and lemma(noun, "NOUN") != noun:
            return noun  # already plural
        if not is_english_word(noun) and not noun.endswith(("us", "is")):
            return noun  # an unknown word written as a plural: "docs", "rotas"
    if is_mass(noun):
        return noun  # "documentation", "aftercare", "research"
    forms = lemminflect.getInflection(noun, tag="NNS")
    if forms and forms[0] != noun:
        return forms[0]
    if noun.endswith(("s", "sh", "ch", "x", "z")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def is_mass(noun: str) -> bool:
    """A noun the lexicon gives no plural of its own first: "documentation",
    "aftercare", "research" (not "quote", "explanation")."""
    forms = lemminflect.getInflection(noun.lower(), tag="NNS")
    return bool(forms) and forms[0] == noun.lower() and can_be(noun, "NOUN")


def is_comparative(word: str) -> bool:
    """'shorter', 'punchier', 'simpler': an adjective's comparative form."""
    low = word.lower()
    if not low.endswith("er"):
        return False
    base = _lemmas(low).get("ADJ")
    return base is not None and bool(base) and base[0] != low


# plurals English keeps before another noun ("sales reports", "arts centre")
PLURAL_MODIFIERS = frozenset(
    ["sales", "arts", "customs", "arms", "accounts", "communications", "operations", "admissions"]
)


def modifier_form(noun: str) -> str:
    """A noun as it stands before another noun: in the singular ("reading lists", not
    "readings lists"; "PR descriptions"), unless the lexicon holds the plural as a word
    of its own ("goods", "savings", "news", "sports") or English keeps it
    (``PLURAL_MODIFIERS``: "sales reports"); an unknown word stays as written."""
    low = noun.lower()
    if low in PLURAL_MODIFIERS or not low.endswith("s") or low.endswith("ss"):
        return noun
    if len(noun) > 2 and noun[:-1].isupper():
        return noun[:-1]  # an acronym's plural: "PRs"
    lemmas = _lemmas(low).get("NOUN")
    if not lemmas or low in lemmas:
        return noun
    single = lemmas[0]
    if plural(single) != low:
        return noun
    if noun == low:
        return single
    return single.capitalize() if noun == low.capitalize() else noun
