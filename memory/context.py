"""``build_context``: what an assistant should know about a person for one question.

Read-only and side-effect free (nothing is stored, not even the query's vector). A
fixed number of queries whatever the number of beliefs: the person, their active
beliefs (with stored vectors), the query vector's lookup, open intentions, routines.

Ranking (seed 003, PersonaTrace)::

    score = (0.15 + 0.85 * similarity) * (0.35 + 0.65 * retention)

``similarity`` mixes a lexical score (query content words weighted by their IDF over
the person's candidate beliefs) and the embedding cosine of the query and statement,
each normalised over the candidate set (divided by the best candidate's, min-max for
the cosine) so neither dominates by scale. A **time facet** runs only for questions
about time ("when", "due", "by Friday"...): beliefs with a due time or a validity
window are matched on those fields, not on words. Beliefs whose validity ended
(``valid_until < now``) never answer a question in the present tense; beliefs not yet
valid appear only for time questions. Another person's beliefs are never read: the
query is scoped to one principal of the agent's tenant.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from memory.models import Belief, Intention, Principal, Routine
from memory.models_beliefs import PINNED_CATEGORIES, SENSITIVITY_BY_NAME, Sensitivity
from memory.text import content_words, normalize

#: The seed's score: similarity floor and weight, retention floor and weight.
SIM_FLOOR, SIM_WEIGHT = 0.15, 0.85
RET_FLOOR, RET_WEIGHT = 0.35, 0.65
#: Share of the embedding cosine in the similarity when vectors are used.
EMBEDDING_SHARE = 0.5
#: A belief the time facet matches gets at least this similarity.
TIME_FACET_SIMILARITY = 0.6
MAX_PINNED = 6
EVIDENCE_FOR_FIRST = 3
ROUTINE_PROBE_HOURS = 12

_TIME_INTENT = re.compile(
    r"(?<![a-z0-9])(?:when|due|deadline|deadlines|until|till|by when|what time|what date|"
    r"which day|how long|how soon|schedule|scheduled|calendar|date|dates|today|tonight|"
    r"tomorrow|yesterday|this week|next week|this weekend|next weekend|this month|"
    r"next month|this year|next year|soon|upcoming|coming up|later|ago|since|expire|expires|"
    r"expiry|end|ends|start|starts|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|may|june|july|august|september|october|november|december)"
    r"(?![a-z0-9])"
)
_PAST_INTENT = re.compile(
    r"(?<![a-z0-9])(?:used to|previously|in the past|formerly|back then|before|ago|"
    r"earlier|former|last year|last month|last week|did|was|were|had|history|anymore)"
    r"(?![a-z0-9])"
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def time_intent(query: str) -> bool:
    return bool(_TIME_INTENT.search(normalize(query).text))


def past_intent(query: str) -> bool:
    return bool(_PAST_INTENT.search(normalize(query).text))


def time_window(query: str, now: datetime) -> tuple[datetime, datetime]:
    """The span a time question asks about (from its words; default the next 30 days)."""
    text = normalize(query).text
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if "today" in text or "tonight" in text:
        return now - timedelta(hours=12), day + timedelta(days=1)
    if "tomorrow" in text:
        return day + timedelta(days=1), day + timedelta(days=2)
    if "yesterday" in text:
        return day - timedelta(days=1), day
    if "this week" in text:
        return now, day + timedelta(days=7 - day.weekday())
    if "next week" in text:
        start = day + timedelta(days=7 - day.weekday())
        return start, start + timedelta(days=7)
    if "weekend" in text:
        start = day + timedelta(days=(5 - day.weekday()) % 7)
        return start, start + timedelta(days=2)
    if "this month" in text:
        return now, day + timedelta(days=31)
    if "next month" in text:
        return now, day + timedelta(days=62)
    for i, name in enumerate(_WEEKDAYS):
        if re.search(rf"(?<![a-z]){name}(?![a-z])", text):
            start = day + timedelta(days=(i - day.weekday()) % 7)
            return start, start + timedelta(days=1)
    return now - timedelta(days=1), now + timedelta(days=30)


@functools.lru_cache(maxsize=65_536)
def _terms(text: str) -> frozenset[str]:
    """Content-word stems of a statement (cached: statements repeat across queries)."""
    return frozenset(content_words(text))


@dataclass(frozen=True)
class PackItem:
    id: int
    category: str
    statement: str
    score: float
    similarity: float
    lexical: float
    cosine: float | None
    retention: float
    confidence: float
    corroboration_count: int
    why: str
    pinned: bool = False
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    due_at: datetime | None = None
    evidence_quote: str | None = None
    evidence_message_id: int | None = None
    source_host: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "statement": self.statement,
            "category": self.category,
            "score": round(self.score, 4),
            "why": self.why,
            "similarity": round(self.similarity, 4),
            "lexical": round(self.lexical, 4),
            "cosine": None if self.cosine is None else round(self.cosine, 4),
            "retention": round(self.retention, 4),
            "confidence": self.confidence,
            "corroboration_count": self.corroboration_count,
            "pinned": self.pinned,
            "valid_from": _iso(self.valid_from),
            "valid_until": _iso(self.valid_until),
            "due_at": _iso(self.due_at),
            "evidence": (
                None
                if self.evidence_quote is None
                else {
                    "quote": self.evidence_quote,
                    "message_id": self.evidence_message_id,
                    "host": self.source_host or None,
                }
            ),
        }


@dataclass(frozen=True)
class AgendaItem:
    id: int
    action: str
    due_at: datetime
    score: float
    overdue: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "action": self.action,
            "due_at": _iso(self.due_at),
            "score": round(self.score, 4),
            "overdue": self.overdue,
        }


@dataclass(frozen=True)
class RoutineProbe:
    id: int
    action: str
    time: str
    status: str
    question: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "action": self.action,
            "time": self.time,
            "status": self.status,
            "question": self.question,
        }


@dataclass
class ContextPack:
    principal: str
    query: str
    now: datetime
    time_intent: bool
    used_embeddings: bool
    items: list[PackItem] = field(default_factory=list)
    pinned: list[PackItem] = field(default_factory=list)
    agenda: list[AgendaItem] = field(default_factory=list)
    routine_probes: list[RoutineProbe] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "principal": self.principal,
            "query": self.query,
            "now": _iso(self.now),
            "time_intent": self.time_intent,
            "used_embeddings": self.used_embeddings,
            "items": [i.as_dict() for i in self.items],
            "pinned": [i.as_dict() for i in self.pinned],
            "agenda": [a.as_dict() for a in self.agenda],
            "routine_probes": [r.as_dict() for r in self.routine_probes],
        }


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def seed_score(similarity: float, retention: float) -> float:
    return (SIM_FLOOR + SIM_WEIGHT * similarity) * (RET_FLOOR + RET_WEIGHT * retention)


_FIELDS = (
    "id",
    "category",
    "statement",
    "confidence",
    "corroboration_count",
    "valid_from",
    "valid_until",
    "due_at",
    "stability_days",
    "last_reinforced_at",
    "evidence_quote",
    "evidence_message_id",
    "source_host",
    "embedding__vector",
)


def _query_vector(query: str) -> np.ndarray:
    from memory.embeddings import vectors_for_texts

    return vectors_for_texts([query], store=False)[0]


def build_context(
    *,
    agent: Any,
    principal_external_id: str,
    query: str,
    now: datetime,
    limit: int = 10,
    use_embeddings: bool | None = None,
    use_time_facet: bool = True,
    max_sensitivity: str = "confidential",
) -> ContextPack:
    """The pack for one question about one person of ``agent``'s tenant (no writes)."""
    from memory.services_beliefs import embeddings_enabled

    if use_embeddings is None:
        use_embeddings = embeddings_enabled()
    limit = max(1, min(int(limit), 100))
    level = SENSITIVITY_BY_NAME.get(max_sensitivity, Sensitivity.CONFIDENTIAL)
    is_time = time_intent(query)
    is_past = past_intent(query)
    pack = ContextPack(
        principal=principal_external_id,
        query=query,
        now=now,
        time_intent=is_time,
        used_embeddings=False,
    )
    principal = (
        Principal.objects.filter(tenant_id=agent.tenant_id, external_id=principal_external_id)
        .only("id")
        .first()
    )
    if principal is None:
        return pack

    candidates = Belief.objects.filter(
        tenant_id=agent.tenant_id,
        principal_id=principal.id,
        status=Belief.Status.ACTIVE,
        sensitivity__lte=level,
    )
    # what may answer: never an ended belief for the present, a future one only for time
    if not is_past:
        candidates = candidates.exclude(valid_until__lt=now)
    if not is_time:
        candidates = candidates.exclude(valid_from__gt=now)
    rows = list(candidates.values_list(*_FIELDS))

    query_terms = _terms(query)
    n = len(rows)
    lexical = np.zeros(n, dtype=np.float64)
    if n and query_terms:
        df: dict[str, int] = dict.fromkeys(query_terms, 0)
        row_terms = [_terms(row[2] + " " + row[1].replace("_", " ")) for row in rows]
        for terms in row_terms:
            for t in query_terms & terms:
                df[t] += 1
        idf = {t: math.log((n + 1) / (df[t] + 1)) + 1.0 for t in query_terms}
        total = sum(idf.values())
        for i, terms in enumerate(row_terms):
            hit = query_terms & terms
            if hit:
                lexical[i] = sum(idf[t] for t in hit) / total
        if lexical.max() > 0:
            lexical = lexical / lexical.max()

    cosine: np.ndarray | None = None
    cos_norm = np.zeros(n, dtype=np.float64)
    if use_embeddings and n:
        from memory.embeddings import DIM, VECTOR_DTYPE

        qvec = _query_vector(query)
        has = np.fromiter(
            (row[13] is not None and len(row[13]) == DIM * 4 for row in rows), dtype=bool, count=n
        )
        matrix = np.zeros((n, DIM), dtype=np.float32)
        if has.any():
            # one buffer for all stored vectors (float32, little endian) instead of n copies
            blob = b"".join(bytes(row[13]) for row, ok in zip(rows, has, strict=True) if ok)
            matrix[has] = np.frombuffer(blob, dtype=VECTOR_DTYPE).reshape(-1, DIM)
            cosine = matrix @ qvec
            present = cosine[has]
            low, high = float(present.min()), float(present.max())
            span = high - low
            cos_norm = np.where(has, (cosine - low) / span if span > 1e-9 else 1.0, 0.0)
            pack.used_embeddings = True

    if pack.used_embeddings:
        similarity = EMBEDDING_SHARE * cos_norm + (1 - EMBEDDING_SHARE) * lexical
    else:
        similarity = lexical.copy()

    window = time_window(query, now) if is_time and use_time_facet else None
    # scores for every candidate as arrays; items are built only for what is returned
    now_ts = now.timestamp()
    reinforced = np.fromiter((row[9].timestamp() for row in rows), dtype=np.float64, count=n)
    stability = np.fromiter((row[8] for row in rows), dtype=np.float64, count=n)
    retention = np.exp(-np.maximum(now_ts - reinforced, 0.0) / 86_400 / np.maximum(stability, 1e-6))
    timed = np.zeros(n, dtype=bool)
    if window is not None:
        for i, row in enumerate(rows):
            if any(t is not None and window[0] <= t <= window[1] for t in (row[7], row[5], row[6])):
                timed[i] = True
        similarity = np.where(
            timed,
            np.maximum(
                similarity, TIME_FACET_SIMILARITY + (1 - TIME_FACET_SIMILARITY) * similarity
            ),
            similarity,
        )
    scores = (SIM_FLOOR + SIM_WEIGHT * similarity) * (RET_FLOOR + RET_WEIGHT * retention)
    confidence = np.fromiter((row[3] for row in rows), dtype=np.float64, count=n)
    ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=n)
    # best score first; higher confidence, then lower id break ties (stable and total)
    order = np.lexsort((ids, -confidence, -scores))[:limit] if n else np.zeros(0, dtype=np.int64)

    def item(i: int, *, with_evidence: bool) -> PackItem:
        (bid, category, statement, conf, count, valid_from, valid_until, due_at) = rows[i][:8]
        reasons = []
        if lexical[i] > 0:
            reasons.append(f"words {lexical[i]:.2f}")
        if cosine is not None:
            reasons.append(f"meaning {cos_norm[i]:.2f}")
        if timed[i]:
            reasons.append("time facet: " + _when(due_at, valid_from, valid_until))
        if valid_until is not None and valid_until < now:
            reasons.append(f"ended {valid_until:%Y-%m-%d}")
        reasons.append(f"retention {retention[i]:.2f}")
        return PackItem(
            id=bid,
            category=category,
            statement=statement,
            score=float(scores[i]),
            similarity=float(similarity[i]),
            lexical=float(lexical[i]),
            cosine=None if cosine is None else float(cosine[i]),
            retention=float(retention[i]),
            confidence=conf,
            corroboration_count=count,
            why=", ".join(reasons),
            pinned=category in PINNED_CATEGORIES,
            valid_from=valid_from,
            valid_until=valid_until,
            due_at=due_at,
            evidence_quote=(rows[i][10] or None) if with_evidence else None,
            evidence_message_id=rows[i][11] if with_evidence else None,
            source_host=rows[i][12],
        )

    pack.items = [item(int(i), with_evidence=k < EVIDENCE_FOR_FIRST) for k, i in enumerate(order)]
    pinned_rows = [i for i, row in enumerate(rows) if row[1] in PINNED_CATEGORIES]
    pinned_rows.sort(key=lambda i: (-rows[i][3] * retention[i], rows[i][0]))
    pack.pinned = [item(i, with_evidence=False) for i in pinned_rows[:MAX_PINNED]]
    pack.agenda = _agenda(principal.id, now)
    pack.routine_probes = _routine_probes(principal.id, now)
    return pack


def _when(due_at: datetime | None, start: datetime | None, end: datetime | None) -> str:
    if due_at is not None:
        return f"due {due_at:%Y-%m-%d %H:%M}"
    if start is not None and end is not None:
        return f"valid {start:%Y-%m-%d} to {end:%Y-%m-%d}"
    if start is not None:
        return f"from {start:%Y-%m-%d}"
    return f"until {end:%Y-%m-%d}" if end is not None else ""


#: How far around ``now`` the agenda looks (lead times and grace are per row).
AGENDA_BEHIND = timedelta(days=7)
AGENDA_AHEAD = timedelta(days=30)


def _agenda(principal_id: int, now: datetime) -> list[AgendaItem]:
    rows = Intention.objects.filter(
        principal_id=principal_id,
        state=Intention.State.OPEN,
        due_at__gte=now - AGENDA_BEHIND,
        due_at__lte=now + AGENDA_AHEAD,
    ).order_by("due_at")
    out = []
    for intention in rows:
        score = intention.agenda_score(now)
        if score > 0:
            out.append(
                AgendaItem(
                    id=intention.pk,
                    action=intention.action,
                    due_at=intention.due_at,
                    score=score,
                    overdue=now > intention.due_at,
                )
            )
    out.sort(key=lambda a: (-a.score, a.due_at))
    return out


def _routine_probes(principal_id: int, now: datetime) -> list[RoutineProbe]:
    today = now.date()
    rows = Routine.objects.filter(
        principal_id=principal_id,
        status__in=[Routine.Status.CANDIDATE, Routine.Status.CONFIRMED, Routine.Status.TRUSTED],
    )
    out = []
    for routine in rows:
        if not routine.applies_on(today):
            continue
        if routine.last_feedback_on == today and routine.last_feedback in (
            Routine.Feedback.SKIPPED_TODAY,
            Routine.Feedback.DENIED,
        ):
            continue
        at = datetime.combine(today, routine.time, tzinfo=now.tzinfo)
        if abs((at - now).total_seconds()) > ROUTINE_PROBE_HOURS * 3600:
            continue
        hhmm = routine.time.strftime("%H:%M")
        question = (
            f"Is {routine.action.rstrip('.')} a weekly thing, today at {hhmm}?"
            if routine.status == Routine.Status.CANDIDATE
            else f"Is {routine.action.rstrip('.')} still on today at {hhmm}?"
        )
        out.append(
            RoutineProbe(
                id=routine.pk,
                action=routine.action,
                time=hhmm,
                status=routine.status,
                question=question,
            )
        )
    out.sort(key=lambda p: p.time)
    return out


def render_context(pack: ContextPack) -> str:
    """A ready text block for a host's prompt (``inject()``-style). Every statement goes
    through the injection scan again; a hit renders as ``[BLOCKED: ...]``."""
    from memory.safety.injection import render_safe

    def safe(text: str) -> str:
        return render_safe(text, semantic=False)

    lines = [f"## What you know about this person (as of {pack.now:%Y-%m-%d %H:%M} UTC)"]
    if pack.pinned:
        lines.append("Always keep in mind:")
        lines += [f"- [{it.category}] {safe(it.statement)}" for it in pack.pinned]
    shown = [it for it in pack.items if not it.pinned or it.id not in {p.id for p in pack.pinned}]
    if shown:
        lines.append("Relevant to this message:")
        for it in shown:
            extra = []
            if it.due_at:
                extra.append(f"due {it.due_at:%Y-%m-%d %H:%M}")
            if it.valid_until:
                extra.append(f"until {it.valid_until:%Y-%m-%d}")
            if it.confidence < 0.5:
                extra.append("unsure")
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(f"- [{it.category}] {safe(it.statement)}{tail}")
    if pack.agenda:
        lines.append("Agenda:")
        for a in pack.agenda:
            state = "overdue since" if a.overdue else "due"
            lines.append(f"- {safe(a.action)} ({state} {a.due_at:%Y-%m-%d %H:%M})")
    if pack.routine_probes:
        lines.append("Routines to check (ask, do not assume):")
        lines += [f"- {safe(p.question)}" for p in pack.routine_probes]
    if len(lines) == 1:
        lines.append("(nothing stored)")
    return "\n".join(lines)
