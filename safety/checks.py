"""The two safety checks every surface uses: ``check_write`` before text is stored and
``render_safe`` before stored text reaches a prompt, a host or an exported file.

Both run the same layers:

1. the secret scan (``safety.secrets.find_secrets``): a credential is never stored, and
   one stored before this check existed is never shown;
2. the injection scan (``safety.injection.scan``): the word patterns of
   ``safety.patterns`` *and* the learned layer.

**At write the learned layer is waited for** (a write may take the few seconds of a
model load; it runs before the writer's transaction wherever the writer allows).

**At render it is not, unless told**: ``wait=None`` means "the process default"
(``render_wait()``: the ``PERSONAWEB_PAGE_SCAN_WAIT`` setting, off on a server, on in
the test suite). A render that does not wait and meets a text the learned layer cannot
judge yet (the embedding model not loaded in this process and the text's vectors not
stored) gets a *pending* result: the text is **withheld** as
``safety.injection.SCANNING_PLACEHOLDER``, never handed over as trusted, and the
background warm-up stores its vectors so the next render shows it. Text written through
``check_write`` already has its vectors stored (the write's scan stored them), so a
host's read of such text needs no model at all. The pinned prompt prefix always waits
(``wait=True``): its bytes must not depend on a model load.

A text a later model or pattern update blocks is withheld at render as
``[BLOCKED: <ids>]`` and marked on the pages that list it (the agent page's guardrails);
the stored text stays so a person can remove it.

``kind`` names what the text is (``KINDS``); it decides the words of the refusal and
whether the injection scan applies (a version's *reason* is never put in a prompt: it is
checked for secrets only).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from safety import memo
from safety.errors import UnsafeText
from safety.injection import (
    SCANNING_PLACEHOLDER,
    ScanResult,
    from_record,
    keep_here,
    placeholder,
    scan_many,
    semantic_default,
    settled_here,
    to_record,
)
from safety.secrets import SecretFound, find_secrets

__all__ = [
    "KINDS",
    "InjectionFound",
    "SecretFound",
    "TextKind",
    "UnsafeText",
    "Verdict",
    "check_write",
    "render_safe",
    "render_safe_many",
    "render_wait",
    "verdicts",
]


@dataclass(frozen=True)
class TextKind:
    label: str  # how a refusal names the text ("guardrail")
    should_be: str  # what the text should read like instead of an instruction
    injection: bool = True  # the text reaches a prompt or a host: injection-scanned


KINDS: dict[str, TextKind] = {
    "name": TextKind("name", "a name"),
    "role": TextKind("role", "a description of the assistant's role"),
    "goals": TextKind("goals", "a goal of the assistant"),
    "background": TextKind("background", "background about the assistant"),
    "guardrail": TextKind("guardrail", "a limit the assistant keeps"),
    "persona_entry": TextKind("entry", "a line of the assistant's persona"),
    "standing_rule": TextKind("standing rule", "a house rule about how the work is done"),
    "owner_entry": TextKind("entry", "something the person says about themselves"),
    "belief": TextKind("statement", "a fact about the person"),
    "quote": TextKind("evidence quote", "the person's own words"),
    "intention": TextKind("action", "something the person means to do"),
    "routine": TextKind("action", "something the person does regularly"),
    "entity": TextKind("entity name", "a name"),
    "entity_fact": TextKind("fact", "a fact about a person, company, place or thing"),
    "proposal": TextKind("sentence", "a sentence about the assistant"),
    "rule_proposal": TextKind("rule", "a house rule about how the work is done"),
    "reason": TextKind("reason", "a reason", injection=False),
}


class InjectionFound(UnsafeText):
    """The text reads like an instruction to the model; nothing was written."""

    def __init__(self, *, field: str, kind: str, pattern_ids: Sequence[str]) -> None:
        self.field = field
        self.kind = kind
        self.pattern_ids = tuple(pattern_ids)
        super().__init__(
            f"The {field} matches the injection scan ({', '.join(self.pattern_ids)}); it reads "
            f"like an instruction to the model, not {KINDS[kind].should_be}. Rewrite it or "
            "leave it out; nothing was saved."
        )


def _kind(kind: str) -> TextKind:
    try:
        return KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown text kind {kind!r}; one of {', '.join(KINDS)}") from None


def check_write(text: str, kind: str, *, field: str | None = None) -> None:
    """Refuse ``text`` before it is stored as ``kind`` (see ``KINDS``).

    Raises ``SecretFound`` for a credential and ``InjectionFound`` for an injection-scan
    hit (word patterns or the learned layer, waited for); both are ``UnsafeText``, a
    ``personaweb.errors.Refusal`` whose message names ``field`` (default: the kind's
    label) and the reason. Empty text passes (emptiness is the caller's rule).
    """
    spec = _kind(kind)
    label = field or spec.label
    if not isinstance(text, str) or not text.strip():
        return
    kinds = _secret_kinds_many([text])[text]
    if kinds:
        raise SecretFound(field=label, kinds=list(kinds))
    if spec.injection:
        semantic = semantic_default()
        result = scan_many([text], semantic=semantic, wait=True)[0]
        if result.blocked:
            raise InjectionFound(field=label, kind=kind, pattern_ids=result.pattern_ids)
        # passed both: every process that renders it reads this instead of scanning
        _remember([text], semantic, {text: result}, {text: kinds})


def render_wait() -> bool:
    """Whether a render told ``wait=None`` waits for the learned layer (see the module
    docstring): the ``PERSONAWEB_PAGE_SCAN_WAIT`` setting (pages and host reads)."""
    from django.conf import settings

    return bool(getattr(settings, "PERSONAWEB_PAGE_SCAN_WAIT", False))


_SECRET_CACHE_SIZE = 4096
_secret_cache: OrderedDict[str, tuple[str, ...]] = OrderedDict()
_secret_lock = threading.Lock()


def _secret_kinds_many(texts: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """The secret kinds found in each non-empty text, by text: from this process's cache,
    else the detector."""
    wanted = list(dict.fromkeys(t for t in texts if t and t.strip()))
    found: dict[str, tuple[str, ...]] = {}
    with _secret_lock:
        for text in wanted:
            hit = _secret_cache.get(text)
            if hit is not None:
                _secret_cache.move_to_end(text)
                found[text] = hit
    fresh = {t: tuple(find_secrets(t)) for t in wanted if t not in found}
    _keep_secret_kinds(fresh)
    return found | fresh


def _keep_secret_kinds(kinds: dict[str, tuple[str, ...]]) -> None:
    if not kinds:
        return
    with _secret_lock:
        _secret_cache.update(kinds)
        for text in kinds:
            _secret_cache.move_to_end(text)
        while len(_secret_cache) > _SECRET_CACHE_SIZE:
            _secret_cache.popitem(last=False)


# --- verdicts recorded for every process (``safety.memo``) ---------------------------
# One record per text holds both scans (the secret kinds and the injection scan's
# result): a render reads the texts this process has not judged yet in one query, and
# records the ones it had to scan in one write.


def _record_kind(semantic: bool) -> str:
    return "render" if semantic else "render-patterns"


def _judged_here(text: str, semantic: bool) -> bool:
    with _secret_lock:
        known = text in _secret_cache
    return known and settled_here(text, semantic)


def _recall(texts: Sequence[str], semantic: bool) -> list[str]:
    """Seed this process's caches with the verdicts recorded for ``texts``; returns the
    texts nobody has recorded (this render judges them and records them)."""
    todo = [t for t in dict.fromkeys(texts) if t and t.strip() and not _judged_here(t, semantic)]
    if not todo:
        return []
    recorded = memo.recall(_record_kind(semantic), todo)
    kinds: dict[str, tuple[str, ...]] = {}
    for text, record in recorded.items():
        result = from_record(record.get("scan") if isinstance(record, dict) else None)
        secrets = record.get("secrets") if isinstance(record, dict) else None
        if result is None or not isinstance(secrets, list):
            continue  # unreadable: judged again
        keep_here(text, semantic, result)
        kinds[text] = tuple(str(k) for k in secrets)
    _keep_secret_kinds(kinds)
    return [t for t in todo if t not in kinds]


def _remember(
    texts: Sequence[str],
    semantic: bool,
    results: dict[str, ScanResult],
    secrets: dict[str, tuple[str, ...]],
) -> None:
    """Record the settled verdicts of ``texts`` (a pending scan is never recorded)."""
    memo.remember(
        _record_kind(semantic),
        {
            t: {"scan": to_record(results[t]), "secrets": list(secrets.get(t, ()))}
            for t in texts
            if t in results and not results[t].pending
        },
    )


@dataclass(frozen=True)
class Verdict:
    """What ``render_safe`` decided for one text."""

    blocked: bool
    pending: bool
    ids: tuple[str, ...]  # "secret" first when a credential was found, then the scan's ids

    @property
    def placeholder(self) -> str:
        return SCANNING_PLACEHOLDER if self.pending else placeholder(self.ids)


_SHOWN = Verdict(blocked=False, pending=False, ids=())


def verdicts(texts: Sequence[str], *, wait: bool | None = None) -> list[Verdict]:
    """The render-time verdict of every text (one batch for the learned layer)."""
    wait = render_wait() if wait is None else wait
    semantic = semantic_default()
    unrecorded = _recall(texts, semantic)
    results: list[ScanResult] = scan_many(list(texts), semantic=semantic, wait=wait)
    out: list[Verdict] = []
    secrets = _secret_kinds_many(texts)
    _remember(unrecorded, semantic, dict(zip(texts, results, strict=True)), secrets)
    for text, result in zip(texts, results, strict=True):
        secret = bool(secrets.get(text))
        if secret:
            ids = ("secret", *(i for i in result.pattern_ids if not result.pending))
            out.append(Verdict(blocked=True, pending=False, ids=ids))
        elif result.pending:
            out.append(Verdict(blocked=True, pending=True, ids=result.pattern_ids))
        elif result.blocked:
            out.append(Verdict(blocked=True, pending=False, ids=result.pattern_ids))
        else:
            out.append(_SHOWN)
    return out


def render_safe_many(texts: Sequence[str], *, wait: bool | None = None) -> list[str]:
    """``render_safe`` for many texts, scanned as one batch."""
    return [
        v.placeholder if v.blocked else text
        for text, v in zip(texts, verdicts(texts, wait=wait), strict=True)
    ]


def render_safe(text: str, *, wait: bool | None = None) -> str:
    """``text`` as it may be shown to a model, a host or an exported file: unchanged, or
    ``[BLOCKED: <ids>]`` (a secret or an injection-scan hit), or the scanning placeholder
    while a render that does not wait cannot judge it yet (see the module docstring)."""
    return render_safe_many([text], wait=wait)[0]
