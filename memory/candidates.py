"""A person's active beliefs as ``build_context`` scores them (``Candidates``), read in
one of two ways:

- from the beliefs themselves: one indexed read of the person's active beliefs joined
  to their stored vectors. At ten times the bench's data that is 10,000 scattered belief
  rows plus 10,000 lookups of vectors (222-245 ms on a quiet machine), then the
  content-word postings of every statement, worked out in Python;
- from the person's ``BeliefBlock``: one row holding the same arrays, rows, vectors
  and postings, packed when it was built. It is read only when its token is the
  person's current ``beliefs_token`` (a new random value in every transaction that
  changes a belief of theirs), so a block is either exact or unused.

Blocks are kept for people with at least ``BLOCK_MIN_ROWS`` active beliefs (fewer are
cheap to read row by row) and rebuilt by a task: after a change to a person who has a
block, and when a read had to fall back to the beliefs for a person big enough.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import Q

from memory.bank_topics import topic_weights
from memory.models import Belief, BeliefBlock, Principal
from memory.models_beliefs import PINNED_CATEGORIES

logger = logging.getLogger(__name__)

#: a person with fewer active beliefs gets no block
BLOCK_MIN_ROWS = 1_000
#: the format of ``BeliefBlock.data``: a block of another format is never read
#: (2: superseded rows with the active row that answers for them; 3: the question bank's
#: topic votes of each row)
BLOCK_FORMAT = 3

FIELDS = (
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
#: positions of the time fields in a row (``FIELDS`` without the vector)
_TIME_FIELDS = (5, 6, 7, 9)


@dataclass
class Candidates:
    """A person's active beliefs as arrays, ready to score (cached per person)."""

    rows: list[tuple[Any, ...]]  # FIELDS without the vector
    ids: np.ndarray
    confidence: np.ndarray
    stability: np.ndarray
    reinforced: np.ndarray  # timestamps
    sensitivity: np.ndarray
    valid_from_ts: np.ndarray  # NaN when open
    valid_until_ts: np.ndarray
    due_ts: np.ndarray
    has_vec: np.ndarray
    matrix: np.ndarray  # (n, DIM) float32, zero rows where no vector is stored
    postings: dict[str, np.ndarray]  # content-word stem -> row indices
    pinned: np.ndarray  # rows of the pinned categories
    promoted: np.ndarray  # standing in the owner's persona document
    #: False for a superseded belief: never an answer itself, only a way to its heir
    active: np.ndarray
    #: for a superseded row, the active row that took its place (through a chain of
    #: supersessions); -1 for every active row
    heir: np.ndarray
    #: (the encoder it was computed with, each row's hubness): filled by the first query
    #: that needs it (``memory.context``); it does not depend on the query
    hub: tuple[object, np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: each row's category as an index into ``memory.context.CATEGORY_HINTS`` (filled
    #: by the first query that needs it)
    category_codes: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: (the question bank's digest, "" for none; for each row whose validity ended, the
    #: row that took over from it (``successors``), -1 for none): filled by the first
    #: query that needs it
    successor: tuple[str, np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: (the names known before, the names the person goes by: ``memory.context._names_of``)
    names: tuple[tuple[str, ...], list[str]] | None = field(default=None, compare=False, repr=False)
    #: (the names the person goes by, for each row the content-word stems naming whom it is
    #: about when that is someone else, empty for the person: ``memory.subjects``)
    subjects: tuple[tuple[str, ...], list[frozenset[str]]] | None = field(
        default=None, compare=False, repr=False
    )
    #: each row's stored question-bank topic votes (``memory.bank_topics``; NaN where none
    #: is stored under ``bank_votes_digest``, the digest most rows were stored under)
    bank_votes: np.ndarray | None = field(default=None, compare=False, repr=False)
    bank_votes_digest: str = field(default="", compare=False, repr=False)
    #: (the bank's digest, every row's votes, the missing ones computed): filled by the
    #: first query that needs it (``memory.context``)
    topic_votes: tuple[str, np.ndarray] | None = field(default=None, compare=False, repr=False)
    #: (the bank's digest, every row's cosine with its nearest bank statement of each
    #: topic): filled by the first query that needs it (``memory.context``)
    topic_likeness: tuple[str, np.ndarray] | None = field(default=None, compare=False, repr=False)

    @property
    def n(self) -> int:
        """Rows, superseded ones included (the arrays' length)."""
        return len(self.rows)

    @property
    def active_count(self) -> int:
        return int(self.active.sum())

    def readable(self, level: int) -> np.ndarray:
        """The active rows a reader cleared up to sensitivity ``level`` may see."""
        return self.active & (self.sensitivity <= level)


def _ts(values: list[datetime | None]) -> np.ndarray:
    return np.array([math.nan if v is None else v.timestamp() for v in values], dtype=np.float64)


def load_from_beliefs(principal_id: int) -> Candidates:
    """The person's candidates read from their belief rows and stored vectors: the
    active beliefs, and the superseded ones whose chain of ``superseded_by`` reaches an
    active one (their words and meaning lead to the belief that replaced them)."""
    from memory.context import _terms
    from memory.embeddings import DIM, VECTOR_DTYPE

    # one indexed read per person (belief_principal_status); the rows are put in id
    # order here, not by the database: a sort of rows as wide as their vectors spills
    # to disk at the default work_mem
    raw = sorted(
        Belief.objects.filter(
            Q(status=Belief.Status.ACTIVE)
            | Q(status=Belief.Status.SUPERSEDED, superseded_by__isnull=False),
            principal_id=principal_id,
        )
        .order_by()
        .values_list(
            *FIELDS,
            "sensitivity",
            "promoted",
            "superseded_by_id",
            "status",
            "embedding__bank_votes",
            "embedding__bank_digest",
        ),
        key=lambda r: r[0],
    )
    raw = _with_heirs(raw)
    n = len(raw)
    rows = [r[:13] for r in raw]
    has = np.fromiter(
        (r[13] is not None and len(r[13]) == DIM * 4 for r in raw), dtype=bool, count=n
    )
    matrix = np.zeros((n, DIM), dtype=np.float32)
    if has.any():
        # one buffer for all stored vectors (float32, little endian) instead of n copies
        blob = b"".join(bytes(r[13]) for r, ok in zip(raw, has, strict=True) if ok)
        matrix[has] = np.frombuffer(blob, dtype=VECTOR_DTYPE).reshape(-1, DIM)
    postings: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        for t in _terms(r[2] + " " + r[1].replace("_", " ")):
            postings.setdefault(t, []).append(i)
    active = np.fromiter((r[16] is None for r in raw), dtype=bool, count=n)
    votes, digest = _stored_votes([r[17] for r in raw], [r[18] for r in raw])
    position = {r[0]: i for i, r in enumerate(rows)}
    return Candidates(
        rows=rows,
        ids=np.fromiter((r[0] for r in rows), dtype=np.int64, count=n),
        confidence=np.fromiter((r[3] for r in rows), dtype=np.float64, count=n),
        stability=np.maximum(np.fromiter((r[8] for r in rows), dtype=np.float64, count=n), 1e-6),
        reinforced=_ts([r[9] for r in rows]),
        sensitivity=np.fromiter((r[14] for r in raw), dtype=np.int64, count=n),
        promoted=np.fromiter((bool(r[15]) for r in raw), dtype=bool, count=n),
        valid_from_ts=_ts([r[5] for r in rows]),
        valid_until_ts=_ts([r[6] for r in rows]),
        due_ts=_ts([r[7] for r in rows]),
        has_vec=has,
        matrix=matrix,
        postings={t: np.array(ix, dtype=np.int64) for t, ix in postings.items()},
        pinned=np.array(
            [i for i, r in enumerate(raw) if r[1] in PINNED_CATEGORIES and r[16] is None],
            dtype=np.int64,
        ),
        active=active,
        heir=np.fromiter(
            (-1 if r[16] is None else position[r[16]] for r in raw), dtype=np.int64, count=n
        ),
        bank_votes=votes,
        bank_votes_digest=digest,
    )


def _stored_votes(data: list[Any], digests: list[str | None]) -> tuple[np.ndarray, str]:
    """The rows' stored topic votes under the digest most of them were stored with (NaN
    for the others: computed again by the first query) and that digest."""
    from memory.bank_topics import VOTES_DTYPE, VOTES_WIDTH

    counts: dict[str, int] = {}
    for d in digests:
        if d:
            counts[d] = counts.get(d, 0) + 1
    digest = max(counts, key=lambda d: counts[d]) if counts else ""
    votes = np.full((len(data), VOTES_WIDTH), np.nan, dtype=np.float32)
    size = VOTES_WIDTH * VOTES_DTYPE.itemsize
    ok = np.fromiter(
        (
            d == digest and b is not None and len(b) == size
            for b, d in zip(data, digests, strict=True)
        ),
        dtype=bool,
        count=len(data),
    )
    if ok.any():
        # one buffer for all stored rows, as for the vectors
        blob = b"".join(bytes(b) for b, good in zip(data, ok, strict=True) if good)
        votes[ok] = np.frombuffer(blob, dtype=VOTES_DTYPE).reshape(-1, VOTES_WIDTH)
    return votes, digest


def _with_heirs(raw: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The active rows as read (their heir None), and each superseded row whose chain
    of ``superseded_by`` ends at one of them, with that row's id as its heir; other
    superseded rows (replaced by a belief since retired or deleted) are left out."""
    status = {r[0]: (r[17], r[16]) for r in raw}
    out = []
    for r in raw:
        if r[17] == Belief.Status.ACTIVE:
            out.append((*r[:16], None, *r[18:]))
            continue
        heir, seen = r[16], {r[0]}
        while heir is not None and heir not in seen and heir in status:
            seen.add(heir)
            kind, then = status[heir]
            if kind == Belief.Status.ACTIVE:
                out.append((*r[:16], heir, *r[18:]))
                break
            heir = then
    return out


# --- the packed block --------------------------------------------------------------------

_ARRAYS = (
    "ids",
    "confidence",
    "stability",
    "reinforced",
    "sensitivity",
    "valid_from_ts",
    "valid_until_ts",
    "due_ts",
    "has_vec",
    "matrix",
    "pinned",
    "promoted",
    "active",
    "heir",
    "bank_votes",
)


def pack(cand: Candidates) -> bytes:
    """``cand`` as one ``.npz`` (numeric arrays only: read back without pickle): its
    arrays, the rows as JSON (times in ISO 8601) and the postings as a term list with
    one flat array of row indices and the offsets into it."""
    terms = sorted(cand.postings)
    lengths = [len(cand.postings[t]) for t in terms]
    offsets = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = (
        np.concatenate([cand.postings[t] for t in terms]).astype(np.int32)
        if terms
        else np.zeros(0, dtype=np.int32)
    )
    rows = [[v.isoformat() if isinstance(v, datetime) else v for v in row] for row in cand.rows]
    text = json.dumps(
        {
            "format": BLOCK_FORMAT,
            "rows": rows,
            "terms": terms,
            "bank_votes_digest": cand.bank_votes_digest,
        },
        separators=(",", ":"),
    ).encode()
    out = io.BytesIO()
    np.savez(
        out,
        **{name: getattr(cand, name) for name in _ARRAYS},
        posting_rows=flat,
        posting_offsets=offsets,
        text=np.frombuffer(text, dtype=np.uint8),
    )
    return out.getvalue()


def unpack(data: bytes) -> Candidates | None:
    """The candidates packed by ``pack``, or None for a block of another format."""
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in npz.files}
    meta = json.loads(arrays.pop("text").tobytes())
    if meta.get("format") != BLOCK_FORMAT:
        return None
    rows: list[tuple[Any, ...]] = []
    parse = datetime.fromisoformat
    for row in meta["rows"]:
        for i in _TIME_FIELDS:
            if row[i] is not None:
                row[i] = parse(row[i])
        rows.append(tuple(row))
    flat, offsets = arrays.pop("posting_rows").astype(np.int64), arrays.pop("posting_offsets")
    postings = {t: flat[offsets[i] : offsets[i + 1]] for i, t in enumerate(meta["terms"])}
    digest = meta["bank_votes_digest"]
    return Candidates(rows=rows, postings=postings, bank_votes_digest=digest, **arrays)


def read_block(principal_id: int, token: str) -> Candidates | None:
    """The person's block if it was built for ``token`` (one query), else None."""
    if not token:
        return None
    query = BeliefBlock.objects.filter(principal_id=principal_id, token=token).values_list(
        "data", flat=True
    )[:1]
    sql, params = query.query.sql_with_params()
    row = _fetch_one(sql, params, binary=True)
    return None if row is None else unpack(bytes(row[0]))


def _fetch_one(sql: str, params: Any, *, binary: bool) -> tuple[Any, ...] | None:
    """One row of ``sql``; on PostgreSQL with ``binary`` in psycopg's binary format: a
    bytea of 17 MiB arrives as itself instead of twice its size in hex text (117 ms
    instead of 461 ms, measured under load). Run through Django's cursor, so the query
    is logged and counted like any other."""
    from django.db import connection
    from django.db.backends.utils import CursorDebugWrapper

    with connection.cursor() as cursor:
        if not binary or connection.vendor != "postgresql":
            cursor.execute(sql, params)
            return cursor.fetchone()

        import psycopg

        # Django's cursors bind on the client, which cannot ask for binary results
        with psycopg.Cursor(connection.connection) as raw:

            def run(sql: str, params: Any, many: bool, context: Any) -> Any:
                return raw.execute(sql, params, binary=True)

            log = (
                cursor.debug_sql(sql, params)
                if isinstance(cursor, CursorDebugWrapper)
                else contextlib.nullcontext()
            )
            with log:
                cursor._execute_with_wrappers(sql, params, many=False, executor=run)
            return raw.fetchone()


def read_person(principal_id: int, token: str, block_token: str) -> Candidates:
    """The person's candidates from their block when it is current (the person's
    ``belief_block_token`` is their ``beliefs_token``: no query is spent on a block that
    is not), else from their beliefs (then, for a person with many, a worker is asked to
    pack the block)."""
    cand = read_block(principal_id, token) if token and block_token == token else None
    if cand is None:
        cand = load_from_beliefs(principal_id)
        if token and cand.active_count >= BLOCK_MIN_ROWS and _first_ask(principal_id, token):
            schedule_rebuild(principal_id)
    return cand


def _first_ask(principal_id: int, token: str) -> bool:
    """Whether this is the first fallback read of the person's beliefs at ``token`` to
    ask for a rebuild (every process shares the cache): many reads before the worker is
    done ask once."""
    from django.core.cache import cache

    return bool(cache.add(f"memory:belief-block:{principal_id}:{token}", 1, timeout=600))


def rebuild_block(principal_id: int) -> int | None:
    """Build the person's block from their beliefs; returns its rows, or None when the
    person has too few active beliefs for one (any old block is then removed).

    The token is read before the beliefs: the rows read are at least as new as it, so a
    block is never labelled newer than its content; when a change lands meanwhile the
    token is no longer current and nothing is stored."""
    token = (
        Principal.objects.filter(pk=principal_id).values_list("beliefs_token", flat=True).first()
    )
    if not token:
        return None
    _keep_bank_votes(principal_id)
    cand = load_from_beliefs(principal_id)
    if cand.active_count < BLOCK_MIN_ROWS:
        with transaction.atomic():
            Principal.objects.filter(pk=principal_id).update(belief_block_token="")
            BeliefBlock.objects.filter(principal_id=principal_id).delete()
        return None
    data = pack(cand)
    with transaction.atomic():
        # one statement checks the token is still current and marks the block so: it
        # holds the person's row until the commit, so a belief change either landed
        # before it (no row matches: nothing stored) or waits and makes the block unused
        if Principal.objects.filter(pk=principal_id, beliefs_token=token).update(
            belief_block_token=token
        ):
            BeliefBlock.objects.update_or_create(
                principal_id=principal_id, defaults={"token": token, "rows": cand.n, "data": data}
            )
    return cand.n


def _keep_bank_votes(principal_id: int) -> None:
    """A worker whose model is loaded stores the question bank's votes of the person's
    statements that have none of the current bank (written before the bank, or under
    another one): the block carries them, and no reader computes them again."""
    from memory.services_beliefs import embeddings_enabled
    from safety.encoder import model_loaded

    if embeddings_enabled() and model_loaded():
        from memory.embeddings import belief_bank_votes_fill

        belief_bank_votes_fill(principal_id)


def schedule_rebuild(principal_id: int) -> None:
    """Ask a worker to rebuild the person's block (not in eager mode: tests and a
    single-process setup read the beliefs instead). A broker that is down is logged."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    from memory.tasks import rebuild_belief_block

    try:
        rebuild_belief_block.apply_async((principal_id,), retry=False)
    except Exception:
        logger.warning("could not enqueue a belief block rebuild", exc_info=True)


def after_change(principal_id: int) -> None:
    """``transaction.on_commit`` hook of a belief change: a person who has a block gets
    it rebuilt (the old one is unused from this commit on)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    if BeliefBlock.objects.filter(principal_id=principal_id).exists():
        schedule_rebuild(principal_id)


def forget_blocks(principal_ids: list[int]) -> None:
    """Remove the packed blocks of these people in the transaction that wipes words
    from their beliefs (a deleted belief, the quotes of a sealed conversation): a wiped
    text must not wait in a block, even an unused one, for the worker's rebuild."""
    if principal_ids:
        BeliefBlock.objects.filter(principal_id__in=principal_ids).delete()


#: A belief whose validity starts within this many days of another's end took over from
#: it ("Drives a Yaris" from the day "Cycled to work" ended) ...
SUCCESSION_DAYS = 7.0
#: ... and one of the ended belief's own category within this many ("Runs with Stockport
#: Harriers" three weeks after "Played five-a-side in Belfast" ended)
SUCCESSION_SAME_KIND_DAYS = 30.0
#: ... among this many starts on either side of the end, nearest in time first
SUCCESSION_NEAREST = 8
#: ... else one of its own category, open-ended, among the first
#: ``SUCCESSION_NEAREST`` to start after it ended, up to this many days later: a life has
#: gaps between an old job and the next ("Tunes pianos for Harbour & Keys", a year after
#: "Drove an articulated lorry" ended: an injury, then retraining); 0 turns it off
SUCCESSION_GAP_DAYS = 540.0
#: a successor of another category has no end of its own (an episode, "Took a course in
#: June", takes over nothing of another kind)
EPISODE_NO_HEIR = True
#: across a gap, the nearest in meaning of the open-ended beliefs of its category to
#: start (the latest to start only among equals): interests and habits are taken up side
#: by side, and the last of them to start ("Is learning British Sign Language") is no
#: nearer the sevillanas she danced than the choir she sings in; False: the latest first
GAP_HEIR_NEAREST = True
#: a successor of the ended belief's own category across a gap comes before one of
#: another category begun that week: "Teaches music at a primary school", begun two
#: months after the teacher training ended, took it over, not "Has had qualified teacher
#: status since July", begun five days after it
SAME_KIND_BEFORE_OTHER = True
#: a belief with a start and an end that held at least this many days was a way of life
#: ("Rented a room in a shared student house", for a year), not an episode: it has a
#: successor as a belief with no start has; 0 gives every ended row one, inf none
WAY_OF_LIFE_DAYS = 180.0
#: within the same-category window, closeness loses this much per window's width of
#: delay between the end and the start: "Swims in the sea every Saturday", begun twelve
#: days after "Went to spin classes" ended, took it over, not "Is learning Irish at an
#: evening class" begun three weeks after (a class too, nearer in words only); 0 off
SUCCESSION_DELAY_WEIGHT = 0.6


def _nearest_starts(run: np.ndarray, starts: np.ndarray, end: float) -> np.ndarray:
    """The rows of ``run`` (sorted by start) whose starts are nearest ``end``: a bounded
    number, so the work per person stays linear however many start in the same week."""
    middle = int(np.searchsorted(starts[run], end))
    return run[max(middle - SUCCESSION_NEAREST, 0) : middle + SUCCESSION_NEAREST]


def successors(
    cand: Candidates,
    codes: np.ndarray,
    topics: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """For each row whose validity ended, the row that took over from it, else -1; for
    a superseded row, the active belief that replaced it.

    A successor starts (``valid_from``) within ``SUCCESSION_SAME_KIND_DAYS`` of the row's
    end and is of its category (``codes``), else after the end, within
    ``SUCCESSION_GAP_DAYS``, of its category and with no end (a gap between an old job and
    the next: there the nearest in meaning, then the latest to start), else within
    ``SUCCESSION_DAYS``, of any category and with no end of its own (``EPISODE_NO_HEIR``;
    ``SAME_KIND_BEFORE_OTHER`` orders these two); it is not itself
    ended by then; among several, the highest in cosine of the stored vectors plus, with
    ``topics`` (each row's topic votes of the question bank, ``memory.bank_topics``, and its
    cosine with the bank's nearest example statement of each topic,
    ``memory.context.topic_likeness``), its likeness to the topics the ended row is read as,
    weighed by its votes: "Went spearfishing off Cabo de
    Palos" was taken over by the padel begun that month, not by the Portuguese lessons a
    little nearer in the whole sentence. An episode (a row with a start of its own as
    well as an end, shorter than ``WAY_OF_LIFE_DAYS``:
    "Drove the van over on the ferry") was not replaced when it ended, it was over: it
    has no successor. Independent of the question and of the time of asking: computed
    once per candidate set (an heir that ended too hands on at the time of asking:
    ``memory.context.SUCCESSION_CHAIN``)."""
    # a superseded row's heir is known: the belief that replaced it
    out = np.where(cand.active, -1, cand.heir).astype(np.int64)
    ends, starts = cand.valid_until_ts, cand.valid_from_ts
    started = np.flatnonzero(~np.isnan(starts) & cand.active)
    if not len(started):
        return out
    by_time = started[np.argsort(starts[started], kind="stable")]
    # the same starts by category, then time: one sorted run per category
    by_kind = started[np.lexsort((starts[started], codes[started]))]
    kinds = codes[by_kind]
    with np.errstate(invalid="ignore"):
        lasting = np.isnan(starts) | (ends - starts >= WAY_OF_LIFE_DAYS * 86_400)
    ended = np.flatnonzero(~np.isnan(ends) & lasting & cand.active)
    for e in ended:
        kind = by_kind[np.searchsorted(kinds, codes[e]) : np.searchsorted(kinds, codes[e], "right")]
        # the first of its category to start after it ended with no end in sight (not
        # a passing state: "Has a cold until Friday"), for a gap
        later = kind[np.searchsorted(starts[kind], ends[e], "right") :]
        later = later[np.isnan(ends[later])][:SUCCESSION_NEAREST]
        runs = [
            (kind, SUCCESSION_SAME_KIND_DAYS),
            (by_time, SUCCESSION_DAYS),
            (later, SUCCESSION_GAP_DAYS),
        ]
        if SAME_KIND_BEFORE_OTHER:
            runs[1], runs[2] = runs[2], runs[1]
        for run, days in runs:
            near = run if run is later else _nearest_starts(run, starts, ends[e])
            # within the window, not itself, not ended by then (an open end is NaN: kept)
            near = near[
                (np.abs(starts[near] - ends[e]) <= days * 86_400)
                & (near != e)
                & ~(ends[near] <= ends[e])
            ]
            if run is by_time and EPISODE_NO_HEIR:
                # of another category, only what holds on: "Took a sauna-building course in
                # June", begun five days after "Taught chemistry" ended, did not take over
                # his work (an episode of its own, over in a fortnight)
                near = near[np.isnan(ends[near])]
            if len(near):
                closeness = np.zeros(len(near))
                if run is kind and SUCCESSION_DELAY_WEIGHT:
                    delay = np.abs(starts[near] - ends[e]) / (days * 86_400)
                    closeness -= SUCCESSION_DELAY_WEIGHT * delay
                if cand.has_vec[e]:
                    closeness += cand.matrix[near] @ cand.matrix[e]
                    if topics is not None:
                        votes, likeness = topics
                        weights = topic_weights(votes[e : e + 1], likeness.shape[1])[0]
                        closeness += likeness[near] @ weights
                # across a gap, the nearest in meaning (the choir she sings in, not the
                # sign-language class begun after it), the latest to start among equals
                if run is later and not GAP_HEIR_NEAREST:
                    out[e] = near[int(np.lexsort((closeness, starts[near]))[-1])]
                elif run is later:
                    out[e] = near[int(np.lexsort((starts[near], closeness))[-1])]
                else:
                    out[e] = near[int(np.argmax(closeness))]
                break
    return out
