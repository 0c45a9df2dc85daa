""" "Don't mention this again" for one person (issue 26, point 2): a learned line of an
assistant's persona, or an entry of the person's own document, is muted for that person.

* **Nothing is deleted.** The persona version and the document keep their words; a
  ``Mute`` row records who muted what, when and why, and an unmute records who took it
  back and when (the row stays: the months can be counted, ``muted_per_month``).
* **It never reaches a host for that person.** A plan built for them (``persona.plans``)
  leaves the line out of the agent prefix (``without_muted``: the sentence and its
  "Learned:" note, or the standing rule) and the entry out of the owner row; the /v1 and
  MCP persona reads of a token bound to them, their document's host routes and the
  Hermes export do the same. Anybody else is still given the line.
* **Plans never serve a stale prefix.** A mute or unmute bumps the person's
  ``OwnerDocument.mute_state`` in the same transaction; a plan pinned at another state
  rotates at the next plan call (reason ``muted``), and the prefix route's hot path
  compares the same number (``persona.plans.rotation_due``).
* **Nothing brings it back.** A line is matched by its words (``text_key``), so learning
  the same sentence again (after a hand edit removed it) is still muted for the person;
  reviewers see that a proposal says what someone muted (``muted_line_counts``), and
  decide (the line stays right for everyone else). An entry's words are never nominated
  again for the person, and affirming a nomination that says them is refused.

Only the person (signed in with their owner account) or an operator of their team mutes
or unmutes (``mute_refusal``); another tenant's person is not found.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from memory.models import Principal
from persona.errors import PersonaError
from persona.learned_lines import (
    LearnedLine,
    learned_lines,
    learned_lines_of_agents,
    text_key,
)
from persona.models import OwnerAccount, OwnerDocument
from persona.models_mutes import Mute
from personaweb.actors import TEAM_MANAGE, Actor
from personaweb.errors import NotPermitted, NotReachable
from tenancy.models import Agent

logger = logging.getLogger(__name__)

MAX_REASON_CHARS = 500


class MuteRefusal(PersonaError):
    """The mute or unmute was refused; nothing changed."""


# --- what is muted for a person --------------------------------------------------------


@dataclass(frozen=True)
class MutedFor:
    """What is muted for one person: ``state`` (their ``mute_state``), the lines of one
    assistant as ``(section, text_key)`` and the keys of their entries."""

    state: int = 0
    lines: frozenset[tuple[str, str]] = frozenset()
    entry_keys: frozenset[str] = frozenset()


NOTHING_MUTED = MutedFor()


def muted_for(principal_id: int | None, *, agent_id: int | None = None) -> MutedFor:
    """What is muted for ``principal_id`` (and ``agent_id``'s lines). Two queries. The
    state is read before the rows: a mute committing in between makes the next plan call
    rotate again, never pins new state with old rows."""
    if not principal_id:
        return NOTHING_MUTED
    state = (
        OwnerDocument.objects.filter(principal_id=principal_id)
        .values_list("mute_state", flat=True)
        .first()
        or 0
    )
    if not state:
        return NOTHING_MUTED
    wanted = Q(kind=Mute.Kind.ENTRY)
    if agent_id is not None:
        wanted |= Q(kind=Mute.Kind.LINE, agent_id=agent_id)
    lines, entries = set(), set()
    for kind, section, key, entry_key in (
        Mute.objects.active()
        .filter(wanted, principal_id=principal_id)
        .values_list("kind", "section", "text_key", "entry_key")
    ):
        if kind == Mute.Kind.LINE:
            lines.add((section, key))
        else:
            entries.add(entry_key)
    return MutedFor(state=state, lines=frozenset(lines), entry_keys=frozenset(entries))


def muted_from(mutes: Iterable[Mute], *, agent_id: int | None) -> MutedFor:
    """``muted_for`` from mutes in force already read (``active_mutes``), for a page's
    preview (the state is left at 0: a preview pins nothing)."""
    mutes = list(mutes)
    return MutedFor(
        lines=frozenset(
            (m.section, m.text_key)
            for m in mutes
            if m.kind == Mute.Kind.LINE and m.agent_id == agent_id
        ),
        entry_keys=frozenset(m.entry_key for m in mutes if m.kind == Mute.Kind.ENTRY),
    )


def active_mutes(principal_id: int) -> list[Mute]:
    """The mutes in force for a person, newest first (with the assistant: one query)."""
    return list(Mute.objects.active().filter(principal_id=principal_id).select_related("agent"))


def muted_entry_text_keys(principal_id: int) -> set[str]:
    """The ``text_key`` of every entry muted for the person (one query)."""
    return set(
        Mute.objects.active()
        .filter(principal_id=principal_id, kind=Mute.Kind.ENTRY)
        .values_list("text_key", flat=True)
    )


def muted_line_counts(pairs: Iterable[tuple[int, str]]) -> dict[tuple[int, str], int]:
    """For each ``(agent id, words)`` (a proposal's): how many people have a line of that
    agent with these words muted, by the same pair (one query; pairs nobody muted are
    left out). Reviewers see it beside the proposal: learning may propose a line again
    after a hand edit took it out, and it stays muted for those people (it is matched by
    its words), so the reviewer decides knowing that."""
    wanted = {(agent_id, text_key(text)): (agent_id, text) for agent_id, text in pairs}
    if not wanted:
        return {}
    counts = Counter(
        Mute.objects.active()
        .filter(
            kind=Mute.Kind.LINE,
            agent_id__in={a for a, _ in wanted},
            text_key__in={k for _, k in wanted},
        )
        .values_list("agent_id", "text_key")
    )
    return {wanted[pair]: n for pair, n in counts.items() if pair in wanted}


# --- who may --------------------------------------------------------------------------


def is_owner(actor: Actor, principal_id: int) -> bool:
    user = getattr(actor, "user", None)
    if actor.kind != "user" or user is None or not getattr(user, "pk", None):
        return False
    return OwnerAccount.objects.filter(principal_id=principal_id, user_id=user.pk).exists()


def may_mute(actor: Actor, principal: Principal) -> bool:
    """May ``actor`` mute and unmute what ``principal`` is told (pages draw the buttons
    from this; the services ask ``mute_refusal``)."""
    return mute_refusal(actor, principal) is None


def mute_refusal(actor: Actor, principal: Principal) -> str | None:
    """Why ``actor`` may not mute for ``principal`` (None: they may). Raises
    ``NotReachable`` for a person out of the actor's reach (another tenant: a 404)."""
    if not actor.reaches_principal(principal):
        raise NotReachable("No person with that id here.")
    if actor.kind == "system" or (actor.kind == "user" and actor.may(TEAM_MANAGE)):
        return None
    if is_owner(actor, principal.pk):
        return None
    return (
        "Only the person themself (on “My persona”) or an operator of their team may "
        "mute or unmute what they are told; ask an operator."
    )


def _authorise(actor: Actor, principal: Principal) -> str:
    refusal = mute_refusal(actor, principal)
    if refusal:
        raise NotPermitted(refusal)
    return actor.name[:150] or "someone"


def _reason(reason: str) -> str:
    from safety.checks import check_write

    reason = " ".join((reason or "").split())
    if len(reason) > MAX_REASON_CHARS:
        raise MuteRefusal(
            f"The reason is {len(reason)} characters; the limit is {MAX_REASON_CHARS}. Shorten it."
        )
    if reason:
        check_write(reason, "reason")
    return reason


def _bump(principal: Principal) -> None:
    """One more mute state for the person (their plans rotate at the next plan call)."""
    doc, _ = OwnerDocument.objects.get_or_create(
        principal=principal, defaults={"tenant_id": principal.tenant_id}
    )
    locked = OwnerDocument.objects.select_for_update().get(pk=doc.pk)
    locked.mute_state += 1
    locked.save(update_fields=["mute_state", "updated_at"])


def _create(**fields: Any) -> Mute:
    try:
        with transaction.atomic():
            return Mute.objects.create(**fields)
    except IntegrityError:
        raise MuteRefusal("This is muted for them already.") from None


# --- writers --------------------------------------------------------------------------


@transaction.atomic
def line_mute(
    *,
    actor: Actor,
    agent: Agent,
    principal: Principal,
    section: str,
    text: str,
    reason: str = "",
    now: datetime | None = None,
) -> Mute:
    """Mute one learned line of ``agent``'s persona for ``principal``: plans built for
    them leave it out (everyone else still gets it). Refused for a line that is not a
    learned line of the persona head, and for one muted for them already."""
    from persona.selectors import persona_head

    if agent.tenant_id != principal.tenant_id:
        raise NotReachable("No person with that id here.")
    by = _authorise(actor, principal)
    reason = _reason(reason)
    key = text_key(text)
    line = next(
        (
            ln
            for ln in learned_lines(persona_head(agent=agent))
            if ln.section == section and ln.key == key
        ),
        None,
    )
    if line is None:
        raise MuteRefusal(
            f"That is not a learned line of {agent.name}'s persona now (reload the page). "
            "Only lines that came from learning are muted for one person; edit the persona "
            "to change the others."
        )
    if (
        Mute.objects.active()
        .filter(
            kind=Mute.Kind.LINE, principal=principal, agent=agent, section=section, text_key=key
        )
        .exists()
    ):
        raise MuteRefusal("This line is muted for them already.")
    now = now or timezone.now()
    mute = _create(
        tenant_id=principal.tenant_id,
        principal=principal,
        kind=Mute.Kind.LINE,
        agent=agent,
        section=section,
        text=line.text[:1000],
        text_key=key,
        proposal_id=line.proposal_id,
        muted_at=now,
        muted_by=by,
        reason=reason,
    )
    _bump(principal)
    logger.info("learned line muted for principal %s by %s (mute %s)", principal.pk, by, mute.pk)
    return mute


@transaction.atomic
def entry_mute(
    *,
    actor: Actor,
    principal: Principal,
    key: str,
    reason: str = "",
    now: datetime | None = None,
) -> Mute:
    """Mute one entry of ``principal``'s document: it stays in the document (the owner
    sees it muted) and no host is given it. Refused for a key not in the head."""
    from persona.owner import doc_head

    by = _authorise(actor, principal)
    reason = _reason(reason)
    entry = next((e for e in doc_head(principal.pk).entries if e.key == key), None)
    if entry is None:
        raise MuteRefusal("That entry is not in the document (reload the page).")
    if (
        Mute.objects.active()
        .filter(kind=Mute.Kind.ENTRY, principal=principal, entry_key=key)
        .exists()
    ):
        raise MuteRefusal("This entry is muted already.")
    now = now or timezone.now()
    mute = _create(
        tenant_id=principal.tenant_id,
        principal=principal,
        kind=Mute.Kind.ENTRY,
        entry_key=key,
        text=entry.text,
        text_key=text_key(entry.text),
        muted_at=now,
        muted_by=by,
        reason=reason,
    )
    _bump(principal)
    logger.info("owner entry muted for principal %s by %s (mute %s)", principal.pk, by, mute.pk)
    return mute


@transaction.atomic
def mute_undo(*, actor: Actor, mute: Mute, now: datetime | None = None) -> Mute:
    """Unmute: the line or entry reaches the person's hosts again from the next plan
    call. The row stays, with who unmuted it and when."""
    locked = Mute.objects.select_for_update().select_related("principal").get(pk=mute.pk)
    by = _authorise(actor, locked.principal)
    if locked.unmuted_at is not None:
        raise MuteRefusal(
            f"This was unmuted already (by {locked.unmuted_by or 'someone'}); reload the page."
        )
    locked.unmuted_at = now or timezone.now()
    locked.unmuted_by = by
    locked.save(update_fields=["unmuted_at", "unmuted_by"])
    _bump(locked.principal)
    logger.info("mute %s undone by %s", locked.pk, by)
    return locked


def mute_in_reach(actor: Actor, pk: object) -> Mute:
    """The mute ``pk`` if ``actor`` reaches its person (``NotReachable`` otherwise)."""
    try:
        number = int(str(pk))
    except ValueError:
        raise NotReachable("No such mute here.") from None
    mute = Mute.objects.select_related("principal", "agent").filter(pk=number).first()
    if mute is None or not actor.reaches_principal(mute.principal):
        raise NotReachable("No such mute here.")
    return mute


# --- figures --------------------------------------------------------------------------


def muted_per_month(
    *, tenant_ids: Iterable[int] | None, since: datetime
) -> dict[str, Counter[str]]:
    """Mutes made per month since ``since`` by kind (``line``, ``entry``), as
    ``{"YYYY-MM": Counter}`` (one query; unmuted ones count in the month they were made)."""
    rows = Mute.objects.filter(muted_at__gte=since)
    if tenant_ids is not None:
        rows = rows.filter(tenant_id__in=list(tenant_ids))
    out: dict[str, Counter[str]] = {}
    for kind, at in rows.values_list("kind", "muted_at"):
        out.setdefault(f"{timezone.localtime(at):%Y-%m}", Counter())[kind] += 1
    return out


# --- what pages show --------------------------------------------------------------------


@dataclass(frozen=True)
class LineRow:
    """One learned line of an assistant, as a page shows it for one person."""

    agent: Agent
    line: LearnedLine
    #: the mute in force for the person (None: they are given it)
    mute: Mute | None
    #: muted, and no longer a learned line of the persona (an edit took it out): the
    #: mute stays (the words come back muted if learning adds them again) and may be undone
    gone: bool = False

    @property
    def token(self) -> str:
        """What a page posts to name the line (``line_from_token`` reads it back)."""
        return f"{self.agent.pk}:{self.line.section}:{self.line.key}"


def muting_rows(
    principal: Principal, agents: Iterable[Agent], *, mutes: list[Mute] | None = None
) -> tuple[list[LineRow], dict[str, Mute]]:
    """The learned lines of ``agents`` (each with the person's mute of it, if any, then
    the lines muted for the person that a persona no longer holds) and the person's
    entry mutes in force, by entry key. Two queries, whatever the number of
    assistants."""
    by_id = {a.pk: a for a in agents if a.tenant_id == principal.tenant_id}
    lines = learned_lines_of_agents(by_id.values())
    if mutes is None:
        mutes = active_mutes(principal.pk)
    line_mutes = {(m.agent_id, m.section, m.text_key): m for m in mutes if m.kind == Mute.Kind.LINE}
    rows = [
        LineRow(agent=by_id[agent_id], line=ln, mute=line_mutes.get((agent_id, ln.section, ln.key)))
        for agent_id in sorted(lines, key=lambda pk: (by_id[pk].name, pk))
        for ln in lines[agent_id]
    ]
    shown = {(r.agent.pk, r.line.section, r.line.key) for r in rows}
    rows += [
        LineRow(
            agent=by_id[m.agent_id],
            line=LearnedLine(
                section=m.section,
                text=m.text,
                key=m.text_key,
                proposal_id=m.proposal_id,
                version=None,
            ),
            mute=m,
            gone=True,
        )
        for key, m in line_mutes.items()
        if key not in shown and m.agent_id in by_id
    ]
    entries = {m.entry_key: m for m in mutes if m.kind == Mute.Kind.ENTRY}
    return rows, entries


def line_from_token(principal: Principal, token: str) -> tuple[Agent, LearnedLine]:
    """The assistant and learned line a page posted (``LineRow.token``), in the person's
    tenant; ``MuteRefusal`` when it is not (or no longer) a learned line there."""
    from persona.selectors import persona_head

    agent_id, _, rest = str(token).partition(":")
    section, _, key = rest.partition(":")
    agent = (
        Agent.objects.filter(pk=int(agent_id), tenant_id=principal.tenant_id).first()
        if agent_id.isascii() and agent_id.isdigit() and len(agent_id) < 12
        else None
    )
    line = None
    if agent is not None:
        line = next(
            (
                ln
                for ln in learned_lines(persona_head(agent=agent))
                if ln.section == section and ln.key == key
            ),
            None,
        )
    if agent is None or line is None:
        raise MuteRefusal(
            "That line is no longer a learned line of the assistant's persona (reload the page)."
        )
    return agent, line
