"""Texts written for a version of the software: one kind of work under several nouns.

"release notes for 2.14 from these", "changelog for 4.7.1 hotfix", "changelog entry for 2.16",
"NEWS.md for 0.4.0": a developer names the write-up of a release by whichever noun the
place it goes calls it, and each noun alone may recur in too few conversations. What the
requests share is what the text is written for, a version number, and that is structure,
not a list of the nouns: the kinds of text asked for a version are one kind of work, named
by all of them ("Writes release notes and changelogs."), so every quote shares a word with
the sentence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from learning import language
from learning.proposers.local.tokens import tokens
from learning.proposers.local.words import (
    GENERIC_HEADS,
    PEOPLE_WORDS,
    TIME_MODIFIERS,
    VAGUE_MODIFIERS,
    WRITTEN_HEADS,
)

if TYPE_CHECKING:
    from learning.proposers.local.requests import Request
    from learning.proposers.local.themes import Theme, _Reading


#: "for" and up to three words (a product or component: "for FeedDesk 4.7", "for our
#: lua-resty-gate library 0.4.0"), then a number with dots, a "v" before it or a
#: pre-release after it ("2.14", "v2.14", "4.7.1", "2.4.0-rc1")
_FOR_VERSION = re.compile(
    r"\bfor\s+((?:[\w'-]+\s+){0,3}?)(v?)(\d+(?:\.\d+)+)(-[a-z]+\d*)?(?![\w.])", re.IGNORECASE
)


def written_for_a_version(text: str) -> bool:
    """Whether the clause ``text`` asks for something for a version number. A number with
    one dot is a time or an amount as often ("for my thursday 5.30 group", "for 2.5 metres
    of fence"): it is a version only with a "v" before it or a pre-release after it, or
    when no word of time stands right before it and no noun it counts follows it. A date
    written with dots ends on a year of four digits."""
    for m in _FOR_VERSION.finditer(text):
        before, v, number, pre = m.group(1).split(), m.group(2), m.group(3), m.group(4)
        if len(number.rsplit(".", 1)[1]) == 4:
            continue  # a date ends on its year: "for 12.03.2025"
        if v or pre or number.count(".") >= 2:
            return True
        if before and before[-1].lower() in TIME_MODIFIERS:
            continue
        after = tokens(text[m.end() :])
        if after and after[0].text.isalpha() and language.can_be(after[0].low, "NOUN"):
            continue  # "5.30 group", "2.5 metres"
        return True
    return False


def _kind(rd: _Reading, r: Request) -> tuple[str, str]:
    """What ``r`` makes, as the noun written right before its head and the head
    ("release", "note"; "changelog", "entry"; "", "changelog"): no word that says how,
    when or for whom."""
    mods = [
        m
        for m in r.mods
        if m not in VAGUE_MODIFIERS
        and m not in TIME_MODIFIERS
        and m not in PEOPLE_WORDS
        and m not in rd.exclude
        and (language.can_be(m, "NOUN") or not language.is_english_word(m))
    ]
    return (mods[-1] if mods else "", r.head)


def _merged(kinds: set[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, str]]:
    """Each kind to the one it is named under: a compound whose first noun is a head asked
    for alone is that head ("changelog entry" beside "changelog")."""
    return {
        (mod, head): ("", mod) if mod and ("", mod) in kinds else (mod, head) for mod, head in kinds
    }


def version_themes(rd: _Reading) -> list[Theme]:
    """The texts asked for a version number (``written_for_a_version``) in two kinds or
    more, none recurring enough alone, as one theme: "release notes for 2.14", "changelog
    for 4.7.1 hotfix", "changelog entry for 2.16" -> "Writes release notes and
    changelogs.". Its requests are every request for one of those kinds, with a number or
    not; a kind that recurs enough alone is a theme of its own and joins nothing."""
    from learning.proposers.local.themes import Theme, _theme_requests
    from learning.proposers.local.wording import _work_sentence

    asked = [
        r
        for r in rd.requests
        if r.head
        and not r.reported
        and not r.named
        and r.head not in rd.exclude
        and written_for_a_version(r.message.text[r.start : r.end])
    ]
    if not asked:
        return []
    made = [r for r in rd.requests if r.head and not r.reported and not r.named]
    under = _merged({_kind(rd, r) for r in made})
    # a text named by a generic head alone ("notes for 2.14") says no kind of its own
    chosen = {k for k in (under[_kind(rd, r)] for r in asked) if k[0] or k[1] not in GENERIC_HEADS}
    groups: dict[tuple[str, str], list[Request]] = defaultdict(list)
    for r in made:
        if under[_kind(rd, r)] in chosen:
            groups[under[_kind(rd, r)]].append(r)
    if len(groups) < 2:
        return []
    convs = {k: {r.message.conversation_id for r in rs} for k, rs in groups.items()}
    if any(len(c) >= rd.min_conversations for c in convs.values()):
        return []
    # most asked first; at a tie a text ("release notes") before a thing ("changelog"):
    # the sentence takes its verb from the first
    order = sorted(groups, key=lambda k: (-len(convs[k]), k[1] not in WRITTEN_HEADS, k))
    parts = []
    for k in order:
        sub = Theme(head=k[1], qualifier=k[0], kind="mod" if k[0] else "")
        sub.requests = _theme_requests(groups[k], lambda r: True)
        parts.append(_work_sentence(sub).rstrip("."))
    verb = parts[0].split(" ", 1)[0]
    objects = [p.split(" ", 1)[1].removeprefix("the ") for p in parts]
    name = f"{verb} {', '.join(objects[:-1])} and {objects[-1]}."
    theme = Theme(
        head=order[0][1],
        qualifier=order[0][0],
        kind="mod" if order[0][0] else "",
        requests=_theme_requests([r for k in order for r in groups[k]], lambda r: True),
        name=name,
    )
    return [theme] if rd.recurs(theme) else []
