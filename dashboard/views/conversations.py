"""Dashboard pages of the memory app: conversations and their messages, with the
quotes used as evidence marked (sealed conversations never show their text)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.views.people import REASON_LIMITS
from dashboard.views.redaction import message_row
from learning.models import Proposal
from memory.models import Conversation, Message, Redaction
from memory.redaction import is_redacted, redactions_for
from persona.models import AgentPersonaVersion
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without
from personaweb.marks import marked_segments, parse_mark_params
from personaweb.paging import keyset_page
from tenancy.access import agent_for_user, scope_to_user, visible_agents

MESSAGES_PAGE = 100


@require_GET
@login_required
def conversations(request: HtmxHttpRequest) -> HttpResponse:
    agent_slug = request.GET.get("agent", "")
    agent = agent_for_user(request, agent_slug) if agent_slug else None
    qs = scope_to_user(
        Conversation.objects.all(), user=request.user, path="agent__tenant_id"
    ).select_related("agent", "principal")
    if agent is not None:
        qs = qs.filter(agent=agent)
    sealed = request.GET.get("sealed", "")
    if sealed == "yes":
        qs = qs.filter(sealed=True)
    elif sealed == "no":
        qs = qs.filter(sealed=False)
    page = keyset_page(
        qs,
        fields=[("last_message_at", True), ("id", True)],
        kinds=[datetime, int],
        cursor=request.GET.get("after"),
    )
    context = {
        "page": page,
        "agent": agent,
        "sealed": sealed,
        "agents": list(
            visible_agents(request.user).order_by("name", "id").values_list("slug", "name")[:200]
        ),
        "base_query": query_without(request, "after"),
        "filtered": bool(agent or sealed),
    }
    if is_partial(request) and request.htmx.target == "conv-table":
        return render(request, "dashboard/conversations.html#conv-table", context)
    return render(request, "dashboard/conversations.html", context)


def _evidence_spans(conversation: Conversation) -> dict[int, list[tuple[int, int]]]:
    """Character spans of every quote used as evidence in this conversation, by message.

    Evidence is kept on the agent's proposals (and copied onto the versions they
    made); two queries read it, whatever the number of messages.
    """
    spans: dict[int, set[tuple[int, int]]] = {}
    sources: list[Any] = list(
        Proposal.objects.filter(agent_id=conversation.agent_id).values_list("evidence", flat=True)
    )
    sources += list(
        AgentPersonaVersion.objects.filter(agent_id=conversation.agent_id, proposal_id__isnull=True)
        .exclude(evidence=[])
        .values_list("evidence", flat=True)
    )
    for evidence in sources:
        for item in evidence if isinstance(evidence, list) else []:
            if not isinstance(item, dict) or item.get("conversation_id") != conversation.pk:
                continue
            try:
                mid, start, end = int(item["message_id"]), int(item["start"]), int(item["end"])
            except (KeyError, TypeError, ValueError):
                continue
            spans.setdefault(mid, set()).add((start, end))
    return {mid: sorted(s) for mid, s in spans.items()}


def _shaped_by(conversation: Conversation, reply_ids: list[int]) -> dict[int, dict[str, Any]]:
    """What shaped each reply a host recorded with a context pack (issue 26.1): the
    prompt version (persona and owner document) and the beliefs it was given, by
    message id. Two queries for a whole page: the packs, and their beliefs (of this
    conversation's person only)."""
    from memory.models import Belief
    from memory.packs import packs_of_messages

    packs = packs_of_messages(reply_ids)
    wanted = {int(i) for p in packs.values() for i in p.belief_ids if isinstance(i, int)}
    beliefs = (
        {
            b.pk: b
            for b in Belief.objects.filter(
                pk__in=wanted, principal_id=conversation.principal_id
            ).only("id", "statement", "category", "status")
        }
        if wanted
        else {}
    )
    out: dict[int, dict[str, Any]] = {}
    for message_id, pack in packs.items():
        pinned = set(pack.pinned_ids or [])
        given = [
            {"belief": beliefs[i], "pinned": i in pinned}
            for i in pack.belief_ids
            if isinstance(i, int) and i in beliefs
        ]
        out[message_id] = {
            "pack": pack,
            "beliefs": given,
            "gone": len([i for i in pack.belief_ids if i not in beliefs]),
        }
    return out


@require_GET
@login_required
def conversation(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    conv = (
        scope_to_user(
            Conversation.objects.filter(pk=pk), user=request.user, path="agent__tenant_id"
        )
        .select_related("agent", "principal")
        .first()
    )
    if conv is None:
        raise Http404("No such conversation here.")
    context: dict[str, Any] = {
        "conversation": conv,
        "agent": conv.agent,
        "rows": [],
        "page": None,
        "can_redact": bool(request.user.is_superuser),
        **REASON_LIMITS,
    }
    if not conv.sealed:
        # the quote clicked on the agent page is marked (and scrolled to) even when
        # its evidence is not stored any more
        focus = parse_mark_params(request.GET.getlist("mark"))
        spans = _evidence_spans(conv)
        qs = (
            Message.objects.readable()
            .filter(conversation=conv)
            .only("id", "seq", "role", "text", "created_at")
        )
        page = keyset_page(
            qs,
            fields=[("seq", False)],
            kinds=[int],
            cursor=request.GET.get("after"),
            size=MESSAGES_PAGE,
        )
        shaped = _shaped_by(conv, [m.pk for m in page.rows if m.role == Message.Role.ASSISTANT])
        rows = []
        first_focus = True
        redacted = redactions_for(
            Redaction.Kind.MESSAGE, [m.pk for m in page.rows if is_redacted(m.text)]
        )
        for m in page.rows:
            if is_redacted(m.text):
                rows.append({**message_row(m, redacted.get(m.pk)), "shaped": shaped.get(m.pk)})
                continue
            marks = spans.get(m.pk, []) + focus.get(m.pk, [])
            is_focus = m.pk in focus and first_focus
            if is_focus:
                first_focus = False
            rows.append(
                {
                    "message": m,
                    "segments": marked_segments(m.text, marks),
                    "quoted": bool(marks),
                    "focus": is_focus,
                    "shaped": shaped.get(m.pk),
                    "redaction": None,
                }
            )
        context.update(
            {
                "rows": rows,
                "page": page,
                "quoted_count": sum(1 for r in rows if r["quoted"]),
                "base_query": query_without(request, "after"),
            }
        )
    if is_partial(request) and request.htmx.target == "messages-list":
        return render(request, "dashboard/conversation.html#messages-list", context)
    return render(request, "dashboard/conversation.html", context)
