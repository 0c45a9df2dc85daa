"""Context plans: the system-prompt prefix pinned per (agent, principal, session).

What a host calls
-----------------
* Once at the start of every turn, the **plan call**
  ``plan_get_or_rotate(agent=..., principal=..., session_key=...)``. It creates the
  plan the first time (epoch 1), rotates it one epoch when the agent's persona has a
  new version since the plan was built (recording a ``PlanRotation``), and otherwise
  returns the plan unchanged without writing anything. One read when nothing changed.
* On every model call of the turn (tool loops make several),
  ``prefix_fetch(agent_id=..., principal_id=..., session_key=...)``: the pinned prefix
  and its sha256. Zero queries on a cache hit, one indexed read on a miss. It never
  rotates: within an epoch the prefix bytes are constant, which is what keeps the
  model provider's prefix cache warm.

Cache coherence: the cache entry for a session is replaced in the rotation's
``transaction.on_commit``, and readers only ever *add* (never overwrite) an entry, so a
reader that loaded the old epoch just before the rotation committed cannot put it back
over the new one. With the Redis cache (``REDIS_URL``) this holds across processes;
with the per-process local-memory cache another process can hold the old epoch for at
most ``PREFIX_CACHE_SECONDS`` after a rotation, unless the host passes the ``epoch``
it got from its plan call, which makes a mismatching cached entry a miss.

Whether a pinned plan is still the answer is one comparison, ``rotation_due``, of the
versions it was built from with the current ones (``PlanVersions``: numbers that only
grow); the /v1 prefix route's hot path (``api.prefix``) asks it of the same numbers read
in its one query, so it never answers a plan a plan call would rotate.

The owner document (PRODUCT.md section 3, ``persona.owner``) renders directly after
the agent persona, pinned like the rest: the plan records the document version and
row state it was built from, the sensitivity ceiling (entries above it are left out
when the plan is created) and the entries left out as dormant. An edit rotates one epoch
at the next plan call with reason ``persona_changed``; an entry going dormant (or
coming back) with ``entry_dormant``. An empty document adds zero bytes.

What the person muted (``persona.mutes``: a learned line of the agent's persona, an entry
of their document) is left out of their plans: the plan records the person's mute state
(``OwnerDocument.mute_state``), the lines it left out (``muted_lines``) and the entries
(with the dormant ones in ``owner_doc_hidden``); a mute or unmute rotates it one epoch at
the next plan call with reason ``muted``.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import NamedTuple

from django.core.cache import cache
from django.db import IntegrityError, connection, models, transaction

from memory.redaction import is_redacted
from persona.errors import PersonaError
from persona.models import AgentPersonaVersion, ContextPlan, PlanRotation
from persona.mutes import MutedFor
from persona.render import render_persona
from persona.tokens import count_tokens
from tenancy.models import Agent

#: The agent prefix may not exceed this many tokens (counted by ``count_tokens``). The
#: persona's own limits keep it far below (about 5,000 tokens at the very most).
AGENT_PREFIX_MAX_TOKENS = 20_000
#: The owner document row's own cap (``persona.owner.MAX_ROW_TOKENS``); the prefix
#: ceiling is the exact sum of the two.
OWNER_ROW_MAX_TOKENS = 2_000
PREFIX_MAX_TOKENS = AGENT_PREFIX_MAX_TOKENS + OWNER_ROW_MAX_TOKENS
PREFIX_CACHE_SECONDS = 30


class PlanError(PersonaError):
    pass


class PlanCapExceeded(PlanError):
    def __init__(self, *, what: str, tokens: int, limit: int) -> None:
        super().__init__(
            f"The {what} is {tokens:,} tokens; the limit is {limit:,}. "
            f"Shorten the persona and start the session again."
        )


class PlanNotFound(PlanError):
    pass


class Prefix(NamedTuple):
    prefix_text: str
    sha256: str


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def principal_key_for(principal_id: int | None) -> str:
    return str(principal_id) if principal_id else ""


def prefix_cache_key(*, agent_id: int, principal_key: str, session_key: str) -> str:
    # session keys are host labels up to 200 characters: hash them so every cache
    # backend accepts the key
    digest = hashlib.sha1(session_key.encode("utf-8")).hexdigest()
    return f"pw:prefix:{agent_id}:{principal_key}:{digest}"


def _cache_value(plan: ContextPlan) -> tuple[int, int, str, str]:
    return (plan.epoch, plan.persona_version, plan.prefix_text, plan.prefix_sha256)


def _cache_key_for(plan: ContextPlan) -> str:
    return prefix_cache_key(
        agent_id=plan.agent_id, principal_key=plan.principal_key, session_key=plan.session_key
    )


def _publish_on_commit(plan: ContextPlan) -> None:
    key, value = _cache_key_for(plan), _cache_value(plan)
    transaction.on_commit(lambda: cache.set(key, value, PREFIX_CACHE_SECONDS))


def plan_build(plan: ContextPlan) -> str:
    """Rebuild the prefix bytes of ``plan`` from the versions it is pinned to.

    Byte-identical to ``plan.prefix_text`` for as long as the injection pattern table
    is unchanged.
    """
    from persona.learned_lines import without_muted

    version = AgentPersonaVersion.objects.get(agent_id=plan.agent_id, version=plan.persona_version)
    version = without_muted(version, [tuple(pair) for pair in plan.muted_lines or []])
    return _prefix_for(version, plan_entries(plan))


def plan_entries(plan: ContextPlan) -> list:
    """The owner-document entries ``plan`` renders (its version, ceiling and the entries
    it left out as dormant or muted), in document order. One query."""
    from persona.models import OwnerEntry

    if not (plan.owner_doc_version and plan.principal_id):
        return []
    hidden = set(plan.owner_doc_hidden)
    return [
        e
        for e in OwnerEntry.objects.filter(
            version__document__principal_id=plan.principal_id,
            version__version=plan.owner_doc_version,
        ).order_by("position")
        if e.sensitivity <= plan.sensitivity_ceiling
        and e.key not in hidden
        and not is_redacted(e.text)
    ]


def _prefix_for(
    version: AgentPersonaVersion, entries: list | None = None, *, wait: bool = True
) -> str:
    from persona.owner import render_row

    text = render_persona(version, wait=wait)
    row = render_row(entries or [], wait=wait)
    # an empty document adds zero bytes: the prefix is exactly the agent persona's
    return f"{text}\n\n{row}" if row else text


@dataclass(frozen=True)
class PrefixPreview:
    """What a plan created now would pin, computed without writing one."""

    text: str
    row: str
    #: entries that render, and those left out (above the ceiling, dormant, muted)
    shown: list
    above_ceiling: list
    dormant: list
    muted: list
    #: some text is still being scanned (it shows as the scanning placeholder)
    pending: bool


def prefix_preview(
    *,
    version: AgentPersonaVersion,
    entries: list,
    max_sensitivity: str | None = None,
    wait: bool = True,
    muted: MutedFor | None = None,
) -> PrefixPreview:
    """The prefix a new plan of ``version``'s agent for the person whose document head
    holds ``entries`` would pin (same filter, same bytes as plan creation), for a page's
    preview. ``muted``: what the person muted (``persona.mutes.muted_for``), left out as
    a plan leaves it out. ``wait=False`` never waits for the embedding model."""
    from persona.learned_lines import without_muted
    from persona.mutes import NOTHING_MUTED
    from persona.owner import render_row, row_filter
    from safety.injection import SCANNING_PLACEHOLDER

    muted = muted or NOTHING_MUTED
    ceiling = _ceiling(max_sensitivity)
    shown, hidden = row_filter(entries, ceiling=ceiling, muted=muted.entry_keys)
    text = _prefix_for(without_muted(version, muted.lines), shown, wait=wait)
    return PrefixPreview(
        text=text,
        row=render_row(shown, wait=wait),
        shown=shown,
        above_ceiling=[
            e
            for e in entries
            if e.sensitivity > ceiling and not e.dormant and e.key not in muted.entry_keys
        ],
        dormant=[e for e in hidden if e.dormant],
        muted=[e for e in hidden if e.key in muted.entry_keys],
        pending=SCANNING_PLACEHOLDER in text,
    )


@dataclass(frozen=True)
class _Owner:
    version: int | None
    state: int
    entries: list
    hidden: list[str]
    #: what the person muted (``persona.mutes``)
    muted: MutedFor


def _owner(principal_id: int | None, ceiling: int, agent_id: int) -> _Owner:
    from persona.mutes import muted_for
    from persona.owner import row_entries

    # the mute state is read first: see ``muted_for``
    muted = muted_for(principal_id, agent_id=agent_id)
    version, state, entries, hidden = row_entries(
        principal_id, ceiling=ceiling, muted=muted.entry_keys
    )
    return _Owner(version=version or None, state=state, entries=entries, hidden=hidden, muted=muted)


def _head_version(agent_id: int, persona_version: int) -> AgentPersonaVersion:
    if not persona_version:
        raise PlanError("This agent has no persona yet; save one before starting a session.")
    return AgentPersonaVersion.objects.get(agent_id=agent_id, version=persona_version)


def _built(version: AgentPersonaVersion, owner: _Owner | None = None) -> tuple[str, str, int]:
    from persona.learned_lines import without_muted
    from persona.owner import MAX_ENTRIES, render_row

    if owner is not None:
        version = without_muted(version, owner.muted.lines)
    agent_tokens = count_tokens(render_persona(version))
    if agent_tokens > AGENT_PREFIX_MAX_TOKENS:
        raise PlanCapExceeded(
            what="agent persona prefix", tokens=agent_tokens, limit=AGENT_PREFIX_MAX_TOKENS
        )
    entries = owner.entries if owner else []
    if len(entries) > MAX_ENTRIES:
        raise PlanCapExceeded(what="owner persona document", tokens=len(entries), limit=MAX_ENTRIES)
    row_tokens = count_tokens(render_row(entries))
    if row_tokens > OWNER_ROW_MAX_TOKENS:
        raise PlanCapExceeded(
            what="owner persona document", tokens=row_tokens, limit=OWNER_ROW_MAX_TOKENS
        )
    text = _prefix_for(version, entries)
    tokens = count_tokens(text)
    if tokens > PREFIX_MAX_TOKENS:
        raise PlanCapExceeded(what="prompt prefix", tokens=tokens, limit=PREFIX_MAX_TOKENS)
    return text, sha256_text(text), tokens


class PlanVersions(NamedTuple):
    """What a plan's prefix is built from, as numbers that only ever grow: the agent's
    persona version (every edit of a field, a guardrail or a standing rule, an approval
    and an undo make a new one), the person's owner-document version (every change of
    its entries), the document's row state (an entry going dormant or coming back) and
    the person's mute state (a line or entry muted or unmuted for them). A plan pinned at
    the versions that are current now is exactly the plan a plan call returns now;
    anything else rotates it (``rotation_due``)."""

    persona_version: int
    doc_version: int | None
    doc_state: int
    mute_state: int = 0


def rotation_due(*, pinned: PlanVersions, current: PlanVersions) -> str | None:
    """Why a plan built from ``pinned`` must rotate now that ``current`` holds, or None
    when nothing it was built from changed (then the pinned prefix is the answer)."""
    if pinned.persona_version != current.persona_version:
        return PlanRotation.Reason.AGENT_PERSONA_CHANGED
    if (pinned.doc_version or None) != (current.doc_version or None):
        return PlanRotation.Reason.PERSONA_CHANGED
    if current.doc_version and pinned.doc_state != current.doc_state:
        return PlanRotation.Reason.ENTRY_DORMANT
    if pinned.mute_state != current.mute_state:
        return PlanRotation.Reason.MUTED
    return None


def pinned_versions(plan: ContextPlan) -> PlanVersions:
    return PlanVersions(
        plan.persona_version, plan.owner_doc_version, plan.owner_doc_state, plan.mute_state
    )


def _rotation_reason(
    plan: ContextPlan,
    *,
    persona_version: int,
    doc_version: int | None,
    doc_state: int,
    mute_state: int,
) -> str | None:
    """Why ``plan`` must rotate, or None when nothing it was built from changed."""
    return rotation_due(
        pinned=pinned_versions(plan),
        current=PlanVersions(persona_version, doc_version, doc_state, mute_state),
    )


def _doc_of(plan: ContextPlan) -> tuple[int | None, int, int]:
    """(head version, row state, mute state) of the plan's person's document, from the
    joined row."""
    from persona.models import OwnerDocument

    person = plan.principal
    if person is None:
        return None, 0, 0
    try:
        doc = person.owner_document
    except OwnerDocument.DoesNotExist:
        return None, 0, 0
    return (doc.version or None), doc.row_state, doc.mute_state


def _find(agent_id: int, principal_key: str, session_key: str):
    return ContextPlan.objects.filter(
        agent_id=agent_id, principal_key=principal_key, session_key=session_key
    )


def plan_get_or_rotate(
    *, agent: Agent, principal=None, session_key: str = "", max_sensitivity: str | None = None
) -> ContextPlan:
    """The plan call: the pinned plan of (agent, principal, session), rotated when due.

    Nothing changed -> the same plan, no write. The persona has a new version -> one
    rotation to the next epoch with a ``PlanRotation`` (reason ``agent_persona_changed``;
    ``persona_changed`` for the owner document, ``entry_dormant`` when an entry went
    dormant), under a row lock so two concurrent plan calls rotate once.
    ``max_sensitivity`` (default ``internal``) is the session's ceiling for owner
    document entries, fixed when the plan is created.
    """
    principal_key = principal_key_for(principal.pk if principal is not None else None)
    session_key = session_key or ""
    # Fast path: one read joining the agent's head version and the owner document.
    plan = (
        _find(agent.pk, principal_key, session_key)
        .select_related("agent", "principal__owner_document")
        .first()
    )
    if plan is not None:
        doc_version, doc_state, mute_state = _doc_of(plan)
        if (
            _rotation_reason(
                plan,
                persona_version=plan.agent.persona_version,
                doc_version=doc_version,
                doc_state=doc_state,
                mute_state=mute_state,
            )
            is None
        ):
            _refresh_cache(_cache_key_for(plan), _cache_value(plan))
            return plan
    ceiling = _ceiling(max_sensitivity)
    try:
        return _plan_write(
            agent=agent,
            principal=principal,
            principal_key=principal_key,
            session_key=session_key,
            ceiling=ceiling,
        )
    except IntegrityError:
        # Another plan call created (or rotated) this plan at the same moment; its
        # result is the one to use.
        return _plan_write(
            agent=agent,
            principal=principal,
            principal_key=principal_key,
            session_key=session_key,
            ceiling=ceiling,
        )


def _ceiling(name: str | None) -> int:
    from memory.models_beliefs import SENSITIVITY_BY_NAME, Sensitivity

    if name is None:
        return int(Sensitivity.INTERNAL)
    if name not in SENSITIVITY_BY_NAME:
        raise PlanError(
            f"The sensitivity ceiling {name!r} is not one of {', '.join(SENSITIVITY_BY_NAME)}."
        )
    return int(SENSITIVITY_BY_NAME[name])


@transaction.atomic
def _plan_write(
    *, agent: Agent, principal, principal_key: str, session_key: str, ceiling: int
) -> ContextPlan:
    plan = _find(agent.pk, principal_key, session_key).select_for_update().first()
    current = Agent.objects.filter(pk=agent.pk).values_list("persona_version", flat=True).get()
    principal_id = principal.pk if principal is not None else None
    if plan is None:
        version = _head_version(agent.pk, current)
        owner = _owner(principal_id, ceiling, agent.pk)
        text, sha, tokens = _built(version, owner)
        with transaction.atomic():
            plan = ContextPlan.objects.create(
                agent_id=agent.pk,
                principal=principal,
                principal_key=principal_key,
                session_key=session_key,
                epoch=1,
                persona_version=version.version,
                owner_doc_version=owner.version,
                owner_doc_state=owner.state,
                owner_doc_hidden=owner.hidden,
                mute_state=owner.muted.state,
                muted_lines=sorted(map(list, owner.muted.lines)),
                sensitivity_ceiling=ceiling,
                prefix_text=text,
                prefix_sha256=sha,
                token_count=tokens,
            )
        _publish_on_commit(plan)
        return plan
    owner = _owner(plan.principal_id, plan.sensitivity_ceiling, agent.pk)
    reason = _rotation_reason(
        plan,
        persona_version=current,
        doc_version=owner.version,
        doc_state=owner.state,
        mute_state=owner.muted.state,
    )
    if reason is None:
        # a concurrent plan call rotated it while this one waited for the lock
        return plan
    version = _head_version(agent.pk, current)
    text, sha, tokens = _built(version, owner)
    rotation = PlanRotation(
        plan=plan,
        from_epoch=plan.epoch,
        to_epoch=plan.epoch + 1,
        reason=reason,
        old_sha256=plan.prefix_sha256,
        new_sha256=sha,
        from_persona_version=plan.persona_version,
        to_persona_version=version.version,
        from_owner_doc_version=plan.owner_doc_version,
        to_owner_doc_version=owner.version,
    )
    plan.epoch += 1
    plan.persona_version = version.version
    plan.owner_doc_version = owner.version
    plan.owner_doc_state = owner.state
    plan.owner_doc_hidden = owner.hidden
    plan.mute_state = owner.muted.state
    plan.muted_lines = sorted(map(list, owner.muted.lines))
    plan.prefix_text = text
    plan.prefix_sha256 = sha
    plan.token_count = tokens
    plan.save(
        update_fields=[
            "epoch",
            "persona_version",
            "owner_doc_version",
            "owner_doc_state",
            "owner_doc_hidden",
            "mute_state",
            "muted_lines",
            "prefix_text",
            "prefix_sha256",
            "token_count",
            "updated_at",
        ]
    )
    rotation.save()
    _publish_on_commit(plan)
    return plan


def plans_rebuild(
    *, agent_id: int | None = None, principal_id: int | None = None, reason: str
) -> int:
    """Rotate, now and inside the caller's transaction, every plan of this agent or this
    person to a prefix built from what is stored now (``reason``: why, on the rotation).
    Used when stored words change without a new version (a redaction): a pinned prefix
    must not keep them until the next plan call. The cache entries are replaced on
    commit. Returns how many plans rotated."""
    plans = ContextPlan.objects.select_for_update().order_by("id")
    if agent_id is not None:
        plans = plans.filter(agent_id=agent_id)
    if principal_id is not None:
        plans = plans.filter(principal_id=principal_id)
    if agent_id is None and principal_id is None:
        return 0
    locked = list(plans)
    heads = dict(
        Agent.objects.filter(id__in={p.agent_id for p in locked}).values_list(
            "id", "persona_version"
        )
    )
    versions: dict[int, AgentPersonaVersion] = {}
    rotated = 0
    for plan in locked:
        head = heads.get(plan.agent_id) or plan.persona_version
        if plan.agent_id not in versions or versions[plan.agent_id].version != head:
            versions[plan.agent_id] = _head_version(plan.agent_id, head)
        owner = _owner(plan.principal_id, plan.sensitivity_ceiling, plan.agent_id)
        text, sha, tokens = _built(versions[plan.agent_id], owner)
        PlanRotation.objects.create(
            plan=plan,
            from_epoch=plan.epoch,
            to_epoch=plan.epoch + 1,
            reason=reason,
            old_sha256=plan.prefix_sha256,
            new_sha256=sha,
            from_persona_version=plan.persona_version,
            to_persona_version=head,
            from_owner_doc_version=plan.owner_doc_version,
            to_owner_doc_version=owner.version,
        )
        plan.epoch += 1
        plan.persona_version = head
        plan.owner_doc_version = owner.version
        plan.owner_doc_state = owner.state
        plan.owner_doc_hidden = owner.hidden
        plan.mute_state = owner.muted.state
        plan.muted_lines = sorted(map(list, owner.muted.lines))
        plan.prefix_text = text
        plan.prefix_sha256 = sha
        plan.token_count = tokens
        plan.save()
        _publish_on_commit(plan)
        rotated += 1
    return rotated


def _column(name: str) -> str:
    field = ContextPlan._meta.get_field(name)
    assert isinstance(field, models.Field) and field.column
    return field.column


@functools.cache
def _fetch_sql(vendor: str) -> str:
    """The hot-path read as plain SQL: the ORM spends far longer compiling this query
    (about 1 ms) than the database spends answering it from the unique index."""
    q = connection.ops.quote_name
    meta = ContextPlan._meta
    cols = ", ".join(
        q(_column(f)) for f in ("epoch", "persona_version", "prefix_text", "prefix_sha256")
    )
    where = " AND ".join(f"{q(_column(f))} = %s" for f in ("agent", "principal_key", "session_key"))
    return f"SELECT {cols} FROM {q(meta.db_table)} WHERE {where}"


def prefix_fetch(
    *,
    agent_id: int,
    principal_id: int | None = None,
    session_key: str = "",
    epoch: int | None = None,
    use_cache: bool = True,
) -> Prefix:
    """The pinned prefix and its sha256, for every model call.

    Zero queries on a cache hit, one indexed read otherwise. ``epoch`` (from the plan
    call) makes a cached entry of another epoch a miss. Raises ``PlanNotFound`` when
    the session has no plan yet: make the plan call first.
    """
    principal_key = principal_key_for(principal_id)
    key = prefix_cache_key(agent_id=agent_id, principal_key=principal_key, session_key=session_key)
    hit = cache.get(key) if use_cache else None
    if hit is not None and (epoch is None or hit[0] == epoch):
        return Prefix(hit[2], hit[3])
    with connection.cursor() as cursor:
        cursor.execute(_fetch_sql(connection.vendor), [agent_id, principal_key, session_key])
        row = cursor.fetchone()
    if row is None:
        raise PlanNotFound(
            "This session has no context plan yet; make the plan call (plan_get_or_rotate) "
            "at the start of the turn, then fetch the prefix."
        )
    if use_cache:
        _refresh_cache(key, tuple(row), known=hit)
    return Prefix(row[2], row[3])


_UNREAD = ()


def _refresh_cache(key: str, value: tuple, *, known: tuple | None = _UNREAD) -> None:
    """Store ``value`` unless the cache may hold a newer epoch.

    Readers add (never blindly set), so one that loaded the old epoch just before a
    rotation committed cannot put it back over the entry the rotation published; an
    entry known to hold an older epoch is replaced.
    """
    if known is _UNREAD:
        known = cache.get(key)
    if known is None:
        cache.add(key, value, PREFIX_CACHE_SECONDS)
    elif known[0] < value[0]:
        cache.set(key, value, PREFIX_CACHE_SECONDS)
