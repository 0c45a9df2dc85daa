""" "Don't mention this again" on the pages (issue 26, point 2; ``persona.mutes``): the
owner mutes an entry of their document or a line an assistant learned, on "My persona";
an operator does the same for a person on that person's muting page (linked from their
page). Both undo it.

On "My persona" every button posts the workspace form (``dashboard.views.owner``), so
the owner's unsaved edit survives the action like any other; on the muting page each is
a small form of its own whose htmx answer swaps the card. Without JavaScript both post
and come back to the page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from dashboard.views.owner import _after, _posted, _short
from dashboard.views.people import _person_for
from memory.models import Belief, Principal
from memory.services_beliefs import belief_mute, belief_unmute
from persona.mutes import (
    entry_mute,
    line_from_token,
    line_mute,
    may_mute,
    mute_in_reach,
    mute_undo,
    muting_rows,
)
from persona.owner import doc_head
from personaweb.errors import NotReachable, Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial
from tenancy.access import actor_for_user
from tenancy.models import Agent

ENTRY_MUTED = (
    "Muted “{}”: it stays in the document, and no assistant is given it until you unmute it."
)
LINE_MUTED = (
    "Muted “{}” for {}: {} leaves it out from the next turn on; everyone else still gets it."
)
NOT_YOURS = "Only an operator of their team, or the person themself, mutes and unmutes for them."
BELIEF_MUTED = "Muted “{}”: it is kept, but no assistant is given it and nothing learns it back."
UNMUTED = "Unmuted “{}”: the assistants are given it again from the next turn on."


# --- My persona (the owner) ------------------------------------------------------------------


@require_POST
@login_required
def owner_mute(request: HtmxHttpRequest) -> HttpResponse:
    """Mute an entry (``entry``: its key) or a learned line (``line``: its token) for the
    owner themself, with the reason typed beside the button."""
    posted = _posted(request)
    principal = posted.account.principal
    actor = actor_for_user(request.user)
    key, token = request.POST.get("entry", ""), request.POST.get("line", "")
    try:
        if token:
            agent, line = line_from_token(principal, token)
            line_mute(
                actor=actor,
                agent=agent,
                principal=principal,
                section=line.section,
                text=line.text,
                reason=request.POST.get(f"line_reason_{token}", ""),
            )
            ok = LINE_MUTED.format(_short(line.text), "you", agent.name)
        else:
            mute = entry_mute(
                actor=actor,
                principal=principal,
                key=key,
                reason=request.POST.get(f"mute_reason_{key}", ""),
            )
            ok = ENTRY_MUTED.format(_short(mute.text))
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not muted: {exc}")
    return _after(request, posted, wrote=False, ok=ok)


@require_POST
@login_required
def owner_belief_mute(request: HtmxHttpRequest) -> HttpResponse:
    """Mute (``belief``) or unmute (``belief_unmute``) one of the owner's own beliefs
    (``memory.services_beliefs.belief_mute``): kept, never given to a host again."""
    posted = _posted(request)
    undo = "belief_unmute" in request.POST
    pk = request.POST.get("belief_unmute" if undo else "belief", "")
    belief = (
        Belief.objects.filter(pk=int(pk), principal_id=posted.account.principal_id).first()
        if pk.isascii() and pk.isdigit() and len(pk) < 19
        else None
    )
    if belief is None:
        raise Http404("No such belief here.")
    by = request.user.get_username()
    try:
        if undo:
            belief_unmute(belief=belief, by=by)
        else:
            belief_mute(belief=belief, by=by, reason=request.POST.get(f"belief_reason_{pk}", ""))
    except Refusal as exc:
        return _after(
            request, posted, wrote=False, error=f"Not {'unmuted' if undo else 'muted'}: {exc}"
        )
    words = _short(belief.statement)
    ok = UNMUTED.format(words) if undo else BELIEF_MUTED.format(words)
    return _after(request, posted, wrote=False, ok=ok)


@require_POST
@login_required
def owner_unmute(request: HtmxHttpRequest) -> HttpResponse:
    posted = _posted(request)
    actor = actor_for_user(request.user)
    try:
        mute = mute_in_reach(actor, request.POST.get("mute", ""))
        if mute.principal_id != posted.account.principal_id:
            raise NotReachable("No such mute here.")
        mute_undo(actor=actor, mute=mute)
    except NotReachable:
        raise Http404("No such mute here.") from None
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not unmuted: {exc}")
    return _after(request, posted, wrote=False, ok=UNMUTED.format(_short(mute.text)))


# --- a person's page (operators) -------------------------------------------------------------


def muting_context(
    request: HtmxHttpRequest, principal: Principal, agents: list[Agent]
) -> dict[str, Any]:
    """What the person page's muting card shows: the person's entries and the learned
    lines of the tenant's assistants, each with its mute (four queries; none when the
    viewer may not mute)."""
    actor = actor_for_user(request.user)
    if not may_mute(actor, principal):
        return {"may_mute": False}
    lines, entry_mutes = muting_rows(principal, agents)
    entries = [{"entry": e, "mute": entry_mutes.get(e.key)} for e in doc_head(principal.pk).entries]
    return {
        "may_mute": True,
        "mute_lines": lines,
        "mute_entries": entries,
        "muted_count": sum(1 for r in lines if r.mute) + len(entry_mutes),
    }


def _card(
    request: HtmxHttpRequest, principal: Principal, *, partial: bool, **extra: Any
) -> HttpResponse:
    agents = list(Agent.objects.filter(tenant_id=principal.tenant_id).order_by("name", "id")[:200])
    context = {"principal": principal, **extra, **muting_context(request, principal, agents)}
    template = "dashboard/person_muting.html" + ("#muting" if partial else "")
    return render(request, template, context)


@require_GET
@login_required
def person_muting(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A person's entries and the assistants' learned lines, each with Mute or Unmute
    (an operator of their tenant; others get a 403, another tenant a 404)."""
    principal = _person_for(request, pk)
    if not may_mute(actor_for_user(request.user), principal):
        raise PermissionDenied(NOT_YOURS)
    return _card(request, principal, partial=False)


def _back(
    request: HtmxHttpRequest, principal: Principal, *, ok: str = "", error: str = ""
) -> HttpResponse:
    if is_partial(request):
        return _card(request, principal, partial=True, mute_ok=ok, mute_error=error)
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(reverse("memory:person_muting", args=[principal.pk]))


@require_POST
@login_required
def person_mute(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Mute an entry or a learned line for the person ``pk`` (an operator; the service
    refuses anyone else)."""
    principal = _person_for(request, pk)
    actor = actor_for_user(request.user)
    key, token = request.POST.get("entry", ""), request.POST.get("line", "")
    reason = request.POST.get("reason", "")
    name = str(principal)
    if not may_mute(actor, principal):
        raise PermissionDenied(NOT_YOURS)
    try:
        if token:
            agent, line = line_from_token(principal, token)
            line_mute(
                actor=actor,
                agent=agent,
                principal=principal,
                section=line.section,
                text=line.text,
                reason=reason,
            )
            ok = LINE_MUTED.format(_short(line.text), name, agent.name)
        else:
            mute = entry_mute(actor=actor, principal=principal, key=key, reason=reason)
            ok = ENTRY_MUTED.format(_short(mute.text))
    except Refusal as exc:
        return _back(request, principal, error=f"Not muted: {exc}")
    return _back(request, principal, ok=ok)


@require_POST
@login_required
def mute_undo_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Unmute (an operator of the person's tenant, or the person themself)."""
    actor = actor_for_user(request.user)
    try:
        mute = mute_in_reach(actor, pk)
    except NotReachable:
        raise Http404("No such mute here.") from None
    if not may_mute(actor, mute.principal):
        raise PermissionDenied(NOT_YOURS)
    try:
        mute_undo(actor=actor, mute=mute)
    except Refusal as exc:
        return _back(request, mute.principal, error=f"Not unmuted: {exc}")
    return _back(request, mute.principal, ok=UNMUTED.format(_short(mute.text)))
