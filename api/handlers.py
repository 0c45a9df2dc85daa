"""What each host operation does once authorised: one function per operation of
``api.operations.OPERATIONS``, called by both transports (the /v1 routes and the MCP
tools) with the ``Target`` that ``authorize`` returned. Each is thin: it calls the
services and selectors the dashboard and the CLI call, and answers a JSON-ready dict.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from pydantic import TypeAdapter

from api import selectors, services
from api.errors import (
    NO_MEMORY_MESSAGE,
    NO_NOMINATION_MESSAGE,
    Conflict,
    Malformed,
    NotFound,
)
from api.operations import Target


def plain(data: Any) -> Any:
    """JSON-ready values (datetimes as ISO text)."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


#: operation -> the type of its success answer on /v1 (registered by ``api.http.route``)
ANSWERS: dict[str, Any] = {}


@functools.cache
def _adapter(shape: Any) -> TypeAdapter[Any]:
    return TypeAdapter(shape)


def answer(name: str, data: Any) -> Any:
    """The JSON of operation ``name``'s answer exactly as its /v1 route sends it: through
    the route's response type (so a time is a time, however the selector wrote it) and
    Django's JSON encoder, as django-ninja renders it. One text for every time on every
    transport: ISO 8601 in UTC with milliseconds and ``Z`` (``2026-11-29T12:00:00.123Z``)."""
    shape = ANSWERS.get(name)
    if shape is not None:
        adapter = _adapter(shape)
        data = adapter.dump_python(adapter.validate_python(data))
    return plain(data)


def page_of(
    qs: Any, *, fields: list[tuple[str, bool]], kinds: list[type], after: str | None, limit: int
) -> Any:
    from personaweb.paging import decode_cursor, keyset_page

    if after and decode_cursor(after, kinds=kinds) is None:
        raise Malformed("The after cursor is not one this API made; pass `next` as it came.")
    return keyset_page(qs, fields=fields, kinds=kinds, cursor=after, size=limit)


# --- host ----------------------------------------------------------------------------------


def agents_list(t: Target, *, after: str | None = None, limit: int = 50) -> dict[str, Any]:
    qs = selectors.agents_of_tenant(tenant_id=t.tenant_id, agent_id=t.actor.agent_id)
    page = page_of(qs, fields=[("slug", False)], kinds=[str], after=after, limit=limit)
    return {
        "items": [
            {"slug": a.slug, "name": a.name, "persona_version": a.persona_version}
            for a in page.rows
        ],
        "next": page.next_cursor,
    }


def persona_read(t: Target) -> dict[str, Any]:
    return selectors.persona_head_dict(agent=t.agent, principal_id=_bound_person_id(t))


def _bound_person_id(t: Target) -> int | None:
    """The person a token is bound to (by id, or by the host's id for a stdio server):
    what they muted is left out of what the token reads."""
    if t.actor.principal_id is not None:
        return t.actor.principal_id
    if t.actor.principal_key is not None and t.agent is not None:
        from memory.models import Principal

        return (
            Principal.objects.filter(tenant_id=t.agent.tenant_id, external_id=t.actor.principal_key)
            .values_list("pk", flat=True)
            .first()
        )
    return None


def persona_update(
    t: Target, *, reason: str, changes: dict[str, Any], expected_version: int | None
) -> dict[str, Any]:
    from persona.models import SourceType
    from persona.services import ChangeTrigger, persona_version_create

    if not changes:
        raise services.HostInputError("Nothing to change: give name, role, goals or background.")
    version = persona_version_create(
        agent=t.agent,
        changes=changes,
        trigger=ChangeTrigger(
            source_type=SourceType.UPDATE_PERSONA, reason=reason, approved_by=t.by
        ),
        expected_version=expected_version,
    )
    return {"version": version.version, "fields_changed": list(version.fields_changed)}


def record_turn(
    t: Target,
    *,
    conversation: str,
    user_text: str,
    assistant_text: str | None = None,
    at: Any = None,
    sealed: bool | None = None,
    context_pack: int | None = None,
) -> dict[str, Any]:
    assert t.principal is not None
    result = services.turn_record(
        agent=t.agent,
        principal=t.principal,
        conversation=conversation,
        user_text=user_text,
        assistant_text=assistant_text,
        at=at,
        sealed=sealed,
        context_pack=context_pack,
    )
    return {
        "conversation": result.conversation.external_id,
        "created_conversation": result.created_conversation,
        "sealed": result.conversation.sealed,
        "message_ids": [m.pk for m in result.messages],
    }


def prompt_prefix_plan(t: Target, *, session: str = "") -> Any:
    if "\x00" in session:
        raise services.HostInputError("The session may not contain NUL characters.")
    return services.prefix_plan(agent=t.agent, principal=t.person or t.principal, session=session)


def prefix_dict(plan: Any) -> dict[str, Any]:
    return prefix_answer(
        prefix=plan.prefix_text,
        sha256=plan.prefix_sha256,
        epoch=plan.epoch,
        persona_version=plan.persona_version,
        tokens=plan.token_count,
        rotated_reason=selectors.rotation_reason(plan),
    )


def prefix_answer(
    *,
    prefix: str,
    sha256: str,
    epoch: int,
    persona_version: int,
    tokens: int,
    rotated_reason: str | None,
) -> dict[str, Any]:
    """The prefix operation's answer (``api.http.PrefixOut``), from a plan or from the
    hot path's one query (``api.prefix``)."""
    return {
        "prefix": prefix,
        "sha256": sha256,
        "epoch": epoch,
        "persona_version": persona_version,
        "tokens": tokens,
        "rotated_reason": rotated_reason,
    }


def prompt_prefix(t: Target, *, session: str = "") -> dict[str, Any]:
    return prefix_dict(prompt_prefix_plan(t, session=session))


def prompt_explain(t: Target, *, session: str = "") -> dict[str, Any]:
    """Every line of the session's prefix with its story (``persona.provenance``): the
    pinned plan's, or what a plan call would pin now; nothing is written. A caller bound
    to one person reads the stories without the words learning quoted from other
    people's conversations."""
    from persona.provenance import explain_session

    if "\x00" in session:
        raise services.HostInputError("The session may not contain NUL characters.")
    return explain_session(
        agent=t.agent,
        principal=t.person,
        session_key=session,
        quotes=not t.actor.bound_to_person,
        new_person=t.person is None and bool(t.principal),
    ).as_dict()


# --- learning -------------------------------------------------------------------------------


def learning_status(t: Target) -> dict[str, Any]:
    return selectors.learning_status_dict(agent=t.agent)


def reviews_list(t: Target, *, after: str | None = None, limit: int = 50) -> dict[str, Any]:
    from datetime import datetime

    page = page_of(
        selectors.reviews_of_agent(agent=t.agent),
        fields=[("queued_at", True), ("id", True)],
        kinds=[datetime, int],
        after=after,
        limit=limit,
    )
    return {
        "items": [selectors.review_dict(r, agent=t.agent) for r in page.rows],
        "next": page.next_cursor,
    }


def review_get(t: Target, *, review_id: int) -> dict[str, Any]:
    review = selectors.review_in_tenant(
        tenant_id=t.tenant_id, review_id=review_id, agent_id=t.actor.agent_id
    )
    if review is None:
        raise NotFound()
    return selectors.review_dict(review, agent=review.agent)


def review_now(t: Target) -> dict[str, Any]:
    review = services.review_request(agent=t.agent, by=t.by)
    return {"review_id": review.pk, "status": review.status}


def _proposal(t: Target, proposal_id: int) -> Any:
    proposal = selectors.proposal_in_tenant(
        tenant_id=t.tenant_id, proposal_id=proposal_id, agent_id=t.actor.agent_id
    )
    if proposal is None:
        raise NotFound()
    return proposal


def _decided(proposal: Any) -> dict[str, Any]:
    return {
        "proposal_id": proposal.pk,
        "status": proposal.status,
        "applied_version": proposal.applied_version,
        "persona_version": proposal.agent.persona_version,
    }


def proposal_approve(t: Target, *, proposal_id: int, text: str | None = None) -> dict[str, Any]:
    from learning.services import proposal_apply

    proposal = _proposal(t, proposal_id)
    text = text or None
    if text is not None and text.strip() == proposal.text:
        text = None
    result = proposal_apply(proposal=proposal, by=t.actor, text=text)
    result.agent.refresh_from_db(fields=["persona_version"])
    return _decided(result)


def proposal_turn_down(t: Target, *, proposal_id: int) -> dict[str, Any]:
    from learning.services import proposal_dismiss

    proposal = _proposal(t, proposal_id)
    return _decided(proposal_dismiss(proposal=proposal, by=t.actor))


def undo(t: Target) -> dict[str, Any]:
    from learning.services import UndoRefused, change_undo

    latest = selectors.latest_applied(agent=t.agent)
    if latest is None:
        raise UndoRefused("There is no learned change to undo: nothing learned is in force.")
    version = change_undo(agent=t.agent, by=t.actor, proposal=latest)
    return {"proposal_id": latest.pk, "persona_version": version.version}


# --- memory of one person --------------------------------------------------------------------


def beliefs_search(
    t: Target,
    *,
    q: str | None = None,
    category: str | None = None,
    status: str = "active",
    after: str | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    return selectors.memory_page(
        tenant_id=t.tenant_id,
        principal_id=t.person.pk,
        agent_id=t.agent.pk if t.agent is not None else None,
        category=category,
        status=status,
        text=q,
        after=after,
        limit=limit,
    )


def _belief(t: Target, belief_id: int) -> Any:
    from memory.selectors_beliefs import belief_in_tenant

    belief = belief_in_tenant(tenant_id=t.tenant_id, belief_id=belief_id, principal_id=t.person.pk)
    if belief is None:
        raise NotFound(NO_MEMORY_MESSAGE)
    return belief


def belief_evidence(t: Target, *, belief_id: int) -> dict[str, Any]:
    return selectors.memory_detail(_belief(t, belief_id))


def build_context(t: Target, *, query: str, now: Any = None, limit: int = 10) -> dict[str, Any]:
    return selectors.context_pack(
        agent=t.agent,
        tenant_id=t.tenant_id,
        principal=t.person.external_id,
        query=query,
        now=now,
        limit=limit,
    )


def memory_write(t: Target, **fields: Any) -> dict[str, Any]:
    assert t.principal is not None
    return services.memory_write(agent=t.agent, principal=t.principal, by=t.by, **fields)


def belief_retire(t: Target, *, belief_id: int, delete: bool = False) -> dict[str, Any]:
    from memory.services_beliefs import belief_retire as retire

    done = retire(belief=_belief(t, belief_id), delete=delete)
    return {"id": done.pk, "status": done.status}


def intentions_list(t: Target, *, state: str = "open", limit: int = 50) -> dict[str, Any]:
    from django.utils import timezone

    from memory.models import Intention
    from memory.selectors_beliefs import ANY_STATUS, intention_dict, intentions_of_principal
    from memory.services_beliefs import BeliefRefusal

    if state != ANY_STATUS and state not in Intention.State.values:
        raise BeliefRefusal(
            f"The state {state!r} is not one of {', '.join([*Intention.State.values, ANY_STATUS])}."
        )
    rows = intentions_of_principal(
        tenant_id=t.tenant_id,
        principal_id=t.person.pk,
        state=None if state == ANY_STATUS else state,
    )[:limit]
    now = timezone.now()
    return {"items": [intention_dict(i, now=now) for i in rows]}


def intention_done(t: Target, *, intention_id: int) -> dict[str, Any]:
    from django.utils import timezone

    from memory.models import Intention
    from memory.selectors_beliefs import intention_dict, intention_in_tenant
    from memory.services_beliefs import intention_set_state

    intention = intention_in_tenant(
        tenant_id=t.tenant_id, intention_id=intention_id, principal_id=t.person.pk
    )
    if intention is None:
        raise NotFound(NO_MEMORY_MESSAGE)
    done = intention_set_state(intention=intention, state=Intention.State.DONE)
    return intention_dict(done, now=timezone.now())


def routine_label(
    t: Target,
    *,
    action: str,
    weekdays: list[int],
    time: str,
    anchor_date: str | None = None,
    valid_until: str | None = None,
    status: str = "confirmed",
) -> dict[str, Any]:
    from django.utils import timezone

    from memory.selectors_beliefs import routine_dict
    from memory.services_beliefs import routine_label as label

    assert t.principal is not None
    routine = label(
        agent=t.agent,
        principal_external_id=t.principal,
        action=action,
        weekdays=weekdays,
        time=time,
        anchor_date=anchor_date or timezone.localdate().isoformat(),
        valid_until=valid_until,
        status=status,
    )
    return routine_dict(routine)


def routine_feedback(t: Target, *, routine_id: int, feedback: str) -> dict[str, Any]:
    from memory.selectors_beliefs import routine_dict, routine_in_tenant
    from memory.services_beliefs import routine_feedback as record

    routine = routine_in_tenant(
        tenant_id=t.tenant_id, routine_id=routine_id, principal_id=t.person.pk
    )
    if routine is None:
        raise NotFound(NO_MEMORY_MESSAGE)
    return routine_dict(record(routine=routine, feedback=feedback))


# --- the person's own persona document -------------------------------------------------------


def persona_entries_list(t: Target, *, order: str = "document") -> dict[str, Any]:
    """``order`` document: as written (what a PUT sends back); listing: permanent first,
    then the most reinforced (seed 000's order)."""
    return selectors.owner_doc_dict(t.person.pk, listing=order == "listing")


def persona_document_write(
    t: Target, *, expected_version: int, entries: list[dict[str, Any]]
) -> dict[str, Any]:
    from persona import owner

    written_by, author = owner.owner_writer(actor=t.actor, principal=t.person)
    try:
        version = owner.owner_doc_write(
            principal=t.person,
            expected_version=expected_version,
            entries=entries,
            written_by=written_by,
            author=author,
            # a host never sees a muted entry, so its write cannot remove one
            keep_keys=selectors.muted_entry_keys(t.person.pk),
        )
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    if version is None:
        return {**selectors.owner_doc_dict(t.person.pk), "changed": False}
    return {**selectors.owner_version_dict(version, principal_id=t.person.pk), "changed": True}


def persona_history(t: Target, *, after: str | None = None, limit: int = 20) -> dict[str, Any]:
    return selectors.owner_history_page(principal_id=t.person.pk, after=after, limit=limit)


def nominations_list(
    t: Target, *, state: str | None = None, after: str | None = None, limit: int = 50
) -> dict[str, Any]:
    return selectors.nomination_page(
        principal_id=t.person.pk, state=state, after=after, limit=limit
    )


def _nomination(t: Target, nomination_id: int) -> dict[str, Any]:
    found = selectors.nomination_of(principal_id=t.person.pk, nomination_id=nomination_id)
    if found is None:
        raise NotFound(NO_NOMINATION_MESSAGE)
    return selectors.nomination_dicts([found])[0]


def nomination_affirm(t: Target, *, nomination_id: int) -> dict[str, Any]:
    from persona import owner

    by, author = owner.owner_writer(actor=t.actor, principal=t.person)
    try:
        version = owner.nomination_affirm(
            principal=t.person, nomination_id=nomination_id, by=by, author=author
        )
    except owner.OwnerNominationNotFound:
        raise NotFound(NO_NOMINATION_MESSAGE) from None
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    return {"version": version.version, "nomination": _nomination(t, nomination_id)}


def nomination_decline(t: Target, *, nomination_id: int) -> dict[str, Any]:
    from persona import owner

    try:
        declined = owner.nomination_decline(
            principal=t.person, nomination_id=nomination_id, by=t.by
        )
    except owner.OwnerNominationNotFound:
        raise NotFound(NO_NOMINATION_MESSAGE) from None
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    return selectors.nomination_dicts([declined])[0]


def persona_entry_reinforce(t: Target, *, key: str) -> dict[str, Any]:
    from persona.owner import OwnerEntryNotFound, owner_entry_reinforce

    if key in selectors.muted_entry_keys(t.person.pk):
        raise OwnerEntryNotFound("That entry is not in the document.")
    entry = owner_entry_reinforce(principal=t.person, key=key)
    return plain(selectors.owner_entry_dict(entry))
