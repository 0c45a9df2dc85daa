"""Belief proposers for consolidation (issue 11).

A proposer reads one person's new user messages and proposes first-person
statements: ``BeliefCandidate(category, statement, quote, confidence)``. It proposes;
``memory.consolidation`` verifies each quote word for word and applies the rules.

``local`` (the offline default) is deliberately conservative: it only takes a clause
that opens with the person speaking about themselves in a few plain shapes
(preferences, dislikes, constraints, identity and place, projects, expertise, goals,
habits) and rewrites it in the third person ("I prefer short answers" -> "Prefers
short answers."). Questions, hypotheticals, code and quoted text are skipped. It never
loads a model and makes no network call.

``openai`` asks the configured OpenAI-compatible endpoint (``LEARNING_MODEL_*``) for
the same JSON; its quotes are verified exactly like the local ones.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings

from memory.models_beliefs import BeliefCategory
from memory.verification import MIN_QUOTE_WORDS, ReadMessage
from safety.text import readable_text

logger = logging.getLogger(__name__)

LOCAL_CONFIDENCE = 0.6
_CLAUSE = re.compile(r"[^.!?;\n]+[.!?;]?")
MAX_OBJECT_WORDS = 14


@dataclass(frozen=True)
class BeliefCandidate:
    category: str
    statement: str
    quote: str  # the person's words, as written (verified by the caller)
    confidence: float = LOCAL_CONFIDENCE
    message_id: int | None = None  # a hint only


class BeliefProposer(Protocol):
    def propose(self, messages: Sequence[ReadMessage]) -> list[BeliefCandidate]: ...


# --- the local proposer -------------------------------------------------------------------

_LEAD = (
    r"(?:(?:also|and|but|so|well|ok|okay|oh|honestly|actually|generally|personally|btw|fyi|"
    r"for the record|by the way|just so you know|to be clear|as you know|remember that|"
    r"note that|please note that|keep in mind that)[, ]+)*"
)

#: (category, pattern, statement template). ``{x}`` is the rest of the clause, rewritten
#: in the third person. The pattern matches at the start of a clause (after a lead-in).
_SHAPES: list[tuple[str, str, str]] = [
    ("likes", r"i (?:really |much |generally |usually |always )?prefer (?P<x>.+)", "Prefers {x}."),
    ("likes", r"i(?:'d| would) (?:much |really )?prefer (?P<x>.+)", "Prefers {x}."),
    ("likes", r"i (?:really |absolutely )?(?:love|enjoy) (?P<x>.+)", "Enjoys {x}."),
    ("likes", r"i (?:really )?like (?P<x>(?!to |it |that |this |when |if ).+)", "Likes {x}."),
    (
        "dislikes",
        r"i (?:really )?(?:hate|dislike|can't stand|cannot stand) (?P<x>.+)",
        "Dislikes {x}.",
    ),
    (
        "dislikes",
        r"i (?:really )?(?:don't|do not) like (?P<x>(?!to |it |that |this |when |if ).+)",
        "Dislikes {x}.",
    ),
    (
        "constraints",
        r"i (?:can only|can't|cannot|can not) (?P<x>(?:work|travel|meet|take calls|attend|be reached|drive|fly|start|join|use) .+)",
        "{neg}{x}.",
    ),
    (
        "constraints",
        r"i(?:'m| am) (?:only )?(?:available|reachable) (?P<x>.+)",
        "Is {only}available {x}.",
    ),
    ("constraints", r"i(?:'m| am) (?:not|never) available (?P<x>.+)", "Is not available {x}."),
    ("constraints", r"i (?:only|never|don't|do not) work (?P<x>.+)", "{work} {x}."),
    ("identity", r"my name is (?P<x>[A-Za-z][\w'-]*(?: [A-Z][\w'-]*)?)", "Is called {x}."),
    ("identity", r"i work as (?P<x>an? .+)", "Works as {x}."),
    (
        "identity",
        r"i(?:'m| am) (?P<x>an? (?!bit |little |lot |few |big fan |fan |huge fan |quick |short |long )\w.+)",
        "Is {x}.",
    ),
    ("explicit_facts", r"i (?:live|am based|'m based) in (?P<x>.+)", "{lives} in {x}."),
    ("explicit_facts", r"i(?:'m| am) (?:based|located) in (?P<x>.+)", "Is based in {x}."),
    ("explicit_facts", r"i(?:'m| am) from (?P<x>.+)", "Is from {x}."),
    (
        "projects",
        r"i(?:'m| am) (?:currently |still )?(?:working on|building|developing|writing) (?P<x>(?:a|an|the|my|our|this) .+)",
        "Is working on {x}.",
    ),
    ("projects", r"my (?:current |main |new )?project is (?P<x>.+)", "Is working on {x}."),
    (
        "expertise",
        r"i(?:'m| am) (?:an expert|experienced|fluent|skilled) (?P<x>(?:in|with|at) .+)",
        "Is {expert} {x}.",
    ),
    (
        "expertise",
        r"i(?:'ve| have) (?:been )?(?:worked|working|been working|used|been using) (?P<x>.+ for (?:\d+|many|several|a few|ten|five|two|three|four) years)",
        "Has {has} {x}.",
    ),
    ("expertise", r"i speak (?P<x>.+)", "Speaks {x}."),
    (
        "goals",
        r"my (?:main |big |long-term |biggest )?goal (?:this (?:year|quarter|month) )?is to (?P<x>.+)",
        "Wants to {x}.",
    ),
    ("goals", r"i(?:'m| am) trying to (?P<x>.+)", "Is trying to {x}."),
    ("habit", r"i (?:usually|normally|typically|always) (?P<v>\w+) (?P<x>.+)", "Usually {v} {x}."),
]

_COMPILED = [
    (cat, re.compile(r"^\s*" + _LEAD + "(?:" + pat + r")$", re.I), tpl) for cat, pat, tpl in _SHAPES
]

_CUT = re.compile(
    r"\s+(?:but|because|although|though|unless|so that|so|which|and i|and you|and can|"
    r"can you|could you|please|if you|when you)\b.*$|\s*,\s*(?:but|so|and|because|though)\b.*$",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"^\s*(?:if|when|whether|maybe|perhaps|what if|do i|did i|am i|should i|would i|can i)\b", re.I
)
_PRONOUNS = [
    (re.compile(r"\bmyself\b", re.I), "themselves"),
    (re.compile(r"\bmy\b", re.I), "their"),
    (re.compile(r"\bmine\b", re.I), "theirs"),
    (re.compile(r"\bme\b", re.I), "them"),
    (re.compile(r"\bi'm\b", re.I), "they're"),
    (re.compile(r"\bi\b", re.I), "they"),
    (re.compile(r"\byour\b", re.I), "the assistant's"),
    (re.compile(r"\byou\b", re.I), "the assistant"),
]
_VERB_ES = re.compile(r"(?:s|sh|ch|x|z|o)$")


def _third_person(verb: str) -> str:
    low = verb.lower()
    irregular = {"have": "has", "do": "does", "go": "goes", "be": "is"}
    if low in irregular:
        return irregular[low]
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return low[:-1] + "ies"
    if _VERB_ES.search(low):
        return low + "es"
    return low + "s"


def _object(text: str) -> str | None:
    text = _CUT.sub("", text).strip(" ,:-\"'")
    text = text.rstrip(".!;")
    if not text or "?" in text:
        return None
    out = text
    for pattern, repl in _PRONOUNS:
        out = pattern.sub(repl, out)
    if len(out.split()) > MAX_OBJECT_WORDS:
        return None
    return out


def _statement(template: str, match: re.Match[str], clause: str) -> str | None:
    x = _object(match.group("x"))
    if not x:
        return None
    low = clause.lower()
    fill: dict[str, str] = {"x": x}
    if "{v}" in template:
        verb = match.group("v")
        if verb.lower() in {"am", "was", "have", "had", "do", "did", "get", "go"}:
            return None
        fill["v"] = _third_person(verb)
    fill["neg"] = ("Can only " if "can only" in low else "Cannot ") if "{neg}" in template else ""
    fill["only"] = "only " if " only " in f" {low} " else ""
    if "{work}" in template:
        fill["work"] = (
            "Only works"
            if "only work" in low
            else "Never works"
            if "never work" in low
            else "Does not work"
        )
    fill["lives"] = "Is based" if "based" in low else "Lives"
    if "{expert}" in template:
        m = re.search(r"(expert|experienced|fluent|skilled)", low)
        fill["expert"] = "an expert" if m and m.group(1) == "expert" else (m.group(1) if m else "")
    if "{has}" in template:
        fill["has"] = "used" if "used" in low or "using" in low else "worked"
    sentence = template.format(**fill)
    sentence = re.sub(r"\s+", " ", sentence).strip()
    return sentence[0].upper() + sentence[1:]


def _clauses(text: str) -> Iterable[tuple[int, int]]:
    for m in _CLAUSE.finditer(text):
        start, end = m.start(), m.end()
        while start < end and text[start].isspace():
            start += 1
        while end > start and (text[end - 1].isspace() or text[end - 1] in ".!;"):
            end -= 1
        if end > start:
            yield start, end


class LocalBeliefProposer:
    """Conservative, offline: plain first-person statements only."""

    def propose(self, messages: Sequence[ReadMessage]) -> list[BeliefCandidate]:
        out: list[BeliefCandidate] = []
        for message in messages:
            out.extend(self.from_text(message.text, message_id=message.id))
        return out

    def from_text(self, text: str, *, message_id: int | None = None) -> list[BeliefCandidate]:
        readable = readable_text(text)
        found: list[BeliefCandidate] = []
        for start, end in _clauses(readable):
            clause = readable[start:end]
            if not clause.strip() or clause.rstrip().endswith("?") or _HYPOTHETICAL.match(clause):
                continue
            if "  " in clause.strip():  # a blanked-out code span sits inside: skip
                continue
            for category, pattern, template in _COMPILED:
                match = pattern.match(clause)
                if not match:
                    continue
                statement = _statement(template, match, clause)
                if not statement:
                    break
                # the quote: the clause up to where the object was cut, as written
                cut = _CUT.search(clause)
                quote = text[start : start + (cut.start() if cut else len(clause))].strip()
                quote = quote.rstrip(",.;:!")
                if len(quote.split()) < MIN_QUOTE_WORDS:
                    break
                found.append(
                    BeliefCandidate(
                        category=category,
                        statement=statement,
                        quote=quote,
                        message_id=message_id,
                    )
                )
                break
        return found


# --- the openai proposer ------------------------------------------------------------------

_SYSTEM = (
    "You read messages a person wrote to their assistant and list durable first-person "
    "facts about that person: preferences, dislikes, constraints, identity, place, "
    "projects, expertise, goals, habits. Only what the person plainly says about "
    "themselves; nothing about other people, health, money or credentials; nothing the "
    "person asks the assistant to do once. Answer JSON: "
    '{"beliefs": [{"category": one of %s, "statement": a short third-person sentence '
    'such as "Prefers short answers.", "quote": the exact words of the message (at least '
    '4 words), "confidence": 0..1}]}'
)


class OpenAIBeliefProposer:
    """The configured OpenAI-compatible endpoint; every quote is still verified."""

    def __init__(self) -> None:
        from openai import OpenAI

        self.client = OpenAI(
            base_url=settings.LEARNING_MODEL_BASE_URL or None,
            api_key=settings.LEARNING_MODEL_API_KEY or "none",
            timeout=60.0,
            max_retries=1,
        )
        self.model = settings.LEARNING_MODEL or "gpt-4o-mini"

    def propose(self, messages: Sequence[ReadMessage]) -> list[BeliefCandidate]:
        if not messages:
            return []
        lines = [f"[{m.id}] {readable_text(m.text).strip()}" for m in messages]
        reply = self.client.chat.completions.create(
            model=self.model,
            messages=[
                {"role": "system", "content": _SYSTEM % ", ".join(BeliefCategory.values)},
                {"role": "user", "content": "\n".join(lines)},
            ],
            response_format={"type": "json_object"},
            temperature=0,
        )
        return parse_openai_reply(reply.choices[0].message.content or "")


def parse_openai_reply(content: str) -> list[BeliefCandidate]:
    """The candidates of a model reply; anything malformed is dropped, never guessed."""
    try:
        data: Any = json.loads(content)
    except ValueError:
        logger.warning("the belief proposer's reply was not JSON; nothing proposed")
        return []
    items = data.get("beliefs") if isinstance(data, dict) else None
    out: list[BeliefCandidate] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        category, statement, quote = item.get("category"), item.get("statement"), item.get("quote")
        confidence = item.get("confidence", LOCAL_CONFIDENCE)
        if (
            category in BeliefCategory.values
            and isinstance(statement, str)
            and isinstance(quote, str)
            and isinstance(confidence, int | float)
            and 0 <= confidence <= 1
        ):
            out.append(
                BeliefCandidate(
                    category=category,
                    statement=statement.strip(),
                    quote=quote,
                    confidence=float(confidence),
                )
            )
    return out


def belief_proposer(name: str | None = None) -> BeliefProposer:
    """The proposer named by ``MEMORY_PROPOSER`` (``local`` unless set)."""
    name = name or getattr(settings, "MEMORY_PROPOSER", "local")
    if name == "openai":
        return OpenAIBeliefProposer()
    return LocalBeliefProposer()
