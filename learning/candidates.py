"""Recurring patterns a review saw and did not propose, with the reason why.

A proposer reports what it saw (``ProposerResult.candidates``), the review adds what it
refused itself and what recurs only outside the conversations it read, and stores the
list on ``Review.passed_over`` (at most ``MAX_RECORDED``). The review log reads it
through ``explain`` to say, pattern by pattern, why nothing was proposed.
"""

from __future__ import annotations

from typing import Any

from safety.text import folded_spaces

#: at most this many passed-over patterns are stored on one review
MAX_RECORDED = 12
MAX_TEXT_CHARS = 200
MAX_DETAIL_CHARS = 240

TOO_FEW_CONVERSATIONS = "too_few_conversations"
TOO_FEW_PEOPLE = "too_few_people"
OUTSIDE_WINDOW = "outside_window"
IN_PERSONA = "in_persona"
TURNED_DOWN = "turned_down"
#: the policy, the names check or the quote verifier refused it (``detail`` says how)
REFUSED = "refused"
#: the proposer says a theme is kept out of the persona ("avoid"): the review tells
#: turned down from already in the persona by the content key
AVOIDED = "avoided"

LABELS = {
    TOO_FEW_CONVERSATIONS: "too few conversations",
    TOO_FEW_PEOPLE: "too few people",
    OUTSIDE_WINDOW: "outside the recent conversations",
    IN_PERSONA: "already in the persona",
    TURNED_DOWN: "turned down before",
    REFUSED: "refused",
}


def candidate(
    *,
    kind: str,
    text: str,
    reason: str,
    conversations: int = 0,
    people: int = 0,
    detail: str = "",
    key: str = "",
) -> dict[str, Any]:
    """One passed-over pattern (``key`` is the content key, dropped when stored)."""
    return {
        "kind": kind,
        "text": " ".join(text.split())[:MAX_TEXT_CHARS],
        "reason": reason,
        "conversations": int(conversations),
        "people": int(people),
        "detail": " ".join(detail.split())[:MAX_DETAIL_CHARS],
        "key": key,
    }


def resolve(items: list[dict[str, Any]], *, rejected: frozenset[str]) -> list[dict[str, Any]]:
    """Each ``avoided`` pattern told apart (turned down before or already in the persona),
    the same pattern once (its first reason), at most ``MAX_RECORDED``, keys dropped."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for item in items:
        ident = (item.get("kind", ""), item.get("key") or item.get("text", "").casefold())
        if ident in seen:
            continue
        seen.add(ident)
        entry = {k: v for k, v in item.items() if k != "key"}
        if entry["reason"] == AVOIDED:
            entry["reason"] = TURNED_DOWN if item.get("key") in rejected else IN_PERSONA
        out.append(entry)
        if len(out) >= MAX_RECORDED:
            break
    return out


def explain(item: dict[str, Any], *, settings: Any) -> str:
    """Why a passed-over pattern was not proposed, said against the agent's settings
    as they are now (the page shows the counts the review saw)."""
    reason = item.get("reason")
    n = item.get("conversations") or 0
    people = item.get("people") or 0
    rule = item.get("kind") == "rule"
    needed = (
        getattr(settings, "min_corrections", 0)
        if rule
        else getattr(settings, "min_conversations", 0)
    )
    convs = f"{n} conversation{'s' if n != 1 else ''}"
    who = f"{people} {'person' if people == 1 else 'people'}"
    if reason == TOO_FEW_CONVERSATIONS:
        setting = "min corrections" if rule else "min conversations"
        return f"In {convs}; a {'rule' if rule else 'proposal'} needs {needed} ({setting})."
    if reason == TOO_FEW_PEOPLE:
        return (
            f"Said by {who} in {convs}; team mode needs "
            f"{getattr(settings, 'min_users', 0)} people (min users)."
        )
    if reason == OUTSIDE_WINDOW:
        return (
            f"Recurs in {convs} ({who}) over the whole history, but not often enough in the "
            f"{getattr(settings, 'max_threads', 0)} most recent conversations a review reads."
        )
    if reason == IN_PERSONA:
        return "The persona says this already."
    if reason == TURNED_DOWN:
        return "It was turned down or undone before; it is never proposed again."
    detail = item.get("detail") or ""
    return detail or "Refused by the checks every proposal meets."


PART_LABELS = {"sentence": "Goals/background", "rule": "Standing rule"}


def review_reasons(*, reason: str, details: Any) -> list[str]:
    """A review's reasons as a list, one per part ("Goals/background: ..."), each
    reason once: when both parts give the same one it is said once, without a label.
    Reviews recorded before the parts were kept split their one text at the labels."""
    import re

    parts = (details or {}).get("parts") if isinstance(details, dict) else None
    pairs: list[tuple[str, str]] = []
    if isinstance(parts, dict) and parts:
        for kind in ("sentence", "rule"):
            part = parts.get(kind)
            if isinstance(part, dict) and str(part.get("reason") or "").strip():
                pairs.append((PART_LABELS[kind], str(part["reason"]).strip()))
    else:
        for piece in re.split(r"\s+(?=(?:Goals/background|Standing rule): )", reason or ""):
            label, sep, rest = piece.strip().partition(": ")
            if sep and label in PART_LABELS.values():
                pairs.append((label, rest.strip()))
            elif piece.strip():
                pairs.append(("", piece.strip()))
    said: dict[str, int] = {}
    for _, text in pairs:
        key = folded_spaces(text)
        said[key] = said.get(key, 0) + 1
    out: list[str] = []
    seen: set[str] = set()
    for label, text in pairs:
        key = folded_spaces(text)
        if key in seen:
            continue
        seen.add(key)
        out.append(text if said[key] > 1 or not label or len(pairs) == 1 else f"{label}: {text}")
    return out


#: Why a message was never read as evidence (``safety.evidence``), as the log says it.
UNSAFE_WHY = {
    "secret": "holding a secret",
    "directive": "telling the assistant who to be",
    "injection": "matching the injection scan",
}


def unsafe_lines(details: Any) -> list[str]:
    """What a review left unread for safety and why, one line per reason and finding
    ("Not read, holding a secret (GitHub Token): 2 messages, in conversations c-1,
    c-4."): from ``details["unsafe"]`` (the listed ones) and ``details["excluded"]``
    (the counts). Never a word of a message: the kinds of credential and the scan's
    pattern ids only."""
    if not isinstance(details, dict):
        return []
    listed = [u for u in details.get("unsafe") or [] if isinstance(u, dict)]
    excluded = details.get("excluded")
    if not isinstance(excluded, dict):
        excluded = {}
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for u in listed:
        kind = str(u.get("kind") or "")
        if kind in UNSAFE_WHY:
            found = tuple(str(f) for f in u.get("found") or [])
            groups.setdefault((kind, found), []).append(str(u.get("conversation") or ""))
    out: list[str] = []
    for (kind, found), conversations in groups.items():
        n = len(conversations)
        what = f" ({', '.join(found)})" if found else ""
        where = ", ".join(dict.fromkeys(c for c in conversations if c))
        out.append(
            f"Not read, {UNSAFE_WHY[kind]}{what}: {n} message{'s' if n != 1 else ''}"
            + (f", in conversation{'s' if ',' in where else ''} {where}." if where else ".")
        )
    for kind, why in UNSAFE_WHY.items():
        more = int(excluded.get(kind) or 0) - sum(1 for u in listed if u.get("kind") == kind)
        if more > 0:
            out.append(f"Not read, {why}: {more} more message{'s' if more != 1 else ''}.")
    return out
