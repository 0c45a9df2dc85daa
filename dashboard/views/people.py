"""Dashboard pages of a person's memory: the people list, one person's beliefs (by
category, with validity, retention and the evidence quote linked into its
conversation), their agenda and routines, the operators' retire / correct / done /
drop actions, and the "what would the assistant recall for ..." box (build_context).

Every page and action finds its rows through the user's tenants: another tenant's
person, belief or intention is a 404. Only operators act; anyone else gets a 403.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import (
    Case,
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_POST

from memory.context import (
    EVIDENCE_FOR_FIRST,
    RET_FLOOR,
    RET_WEIGHT,
    SIM_FLOOR,
    SIM_WEIGHT,
    ContextPack,
    PackItem,
    build_context,
    render_context,
)
from memory.models import Belief, Intention, Principal, Redaction, Routine
from memory.models_beliefs import (
    PERSONA_CATEGORIES,
    SENSITIVITY_BY_NAME,
    WORK_CATEGORIES,
    BeliefCategory,
    Sensitivity,
    category_track,
)
from memory.redaction import MAX_REASON_CHARS, MIN_REASON_CHARS, is_redacted, redactions_for
from memory.services_beliefs import (
    MAX_STATEMENT_CHARS,
    belief_correct,
    belief_mute,
    belief_retire,
    belief_unmute,
    intention_set_state,
)
from persona.models import OwnerEntry
from personaweb.errors import NotPermitted, NotReachable, Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without, safe_next
from personaweb.marks import quote_in_context, quote_mark_param
from personaweb.paging import decode_cursor, keyset_after, keyset_page
from personaweb.roles import is_operator
from safety.secrets import SecretFound
from tenancy.access import require_operator, scope_to_user, visible_tenant_ids
from tenancy.models import Agent

BELIEFS_PAGE = 50
AGENDA_LIMIT = 100
ROUTINES_LIMIT = 100
MAX_QUESTION_CHARS = 500
RECALL_LIMIT = 10  # what hosts get unless they ask for another number
#: How many ranked beliefs the recall box may ask for (a smaller pack leaves room for
#: the "also related" items of the categories it misses).
RECALL_LIMITS = (3, 5, 10, 20)
SCORE_FORMULA = (
    f"({SIM_FLOOR:g} + {SIM_WEIGHT:g} × similarity) × ({RET_FLOOR:g} + {RET_WEIGHT:g} × retention)"
)
CATEGORY_ORDER = WORK_CATEGORIES + PERSONA_CATEGORIES
CATEGORY_LABELS = dict(BeliefCategory.choices)
TRACK_LABELS = {"work": "Work", "persona": "Persona"}
WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
#: What an operator may set an open intention to from the page.
INTENTION_ACTIONS = {"done": "Marked done", "dropped": "Dropped"}


# --- people list ----------------------------------------------------------------------


def _count_of(qs: QuerySet) -> Subquery:
    return Subquery(
        # COUNT(*): the (principal, status, category) index answers it alone (index-only)
        qs.order_by().values("principal").annotate(n=Count("*")).values("n"),
        output_field=IntegerField(),
    )


def _add_memory_counts(rows: list[Principal]) -> None:
    """Give each person of a page its counts (active beliefs, work / persona, open
    intentions, routines): one query over the page's people only, so the list costs
    the same whether a tenant has a hundred people or a hundred thousand."""
    if not rows:
        return
    active = Belief.objects.filter(principal=OuterRef("pk"), status=Belief.Status.ACTIVE)
    counted = Principal.objects.filter(pk__in=[p.pk for p in rows]).annotate(
        beliefs_active=Coalesce(_count_of(active), 0),
        beliefs_work=Coalesce(_count_of(active.filter(category__in=WORK_CATEGORIES)), 0),
        intentions_open=Coalesce(
            _count_of(
                Intention.objects.filter(principal=OuterRef("pk"), state=Intention.State.OPEN)
            ),
            0,
        ),
        routine_count=Coalesce(_count_of(Routine.objects.filter(principal=OuterRef("pk"))), 0),
    )
    by_id = {p.pk: p for p in counted.only("id").order_by()}
    for p in rows:
        c = by_id[p.pk]
        p.beliefs_active = c.beliefs_active  # type: ignore[attr-defined]
        p.beliefs_work = c.beliefs_work  # type: ignore[attr-defined]
        p.beliefs_persona = c.beliefs_active - c.beliefs_work  # type: ignore[attr-defined]
        p.intentions_open = c.intentions_open  # type: ignore[attr-defined]
        p.routine_count = c.routine_count  # type: ignore[attr-defined]


@require_GET
@login_required
def people(request: HtmxHttpRequest) -> HttpResponse:
    search = " ".join(request.GET.get("q", "").split())[:200]
    qs = scope_to_user(Principal.objects.all(), user=request.user, path="tenant_id").select_related(
        "tenant"
    )
    if search:
        qs = qs.filter(Q(external_id__icontains=search) | Q(display_name__icontains=search))
    page = keyset_page(
        qs,
        fields=[("external_id", False), ("id", False)],
        kinds=[str, int],
        cursor=request.GET.get("after"),
    )
    _add_memory_counts(page.rows)
    tenant_ids = visible_tenant_ids(request.user)
    context = {
        "page": page,
        "search": search,
        "show_tenant": tenant_ids is None or len(tenant_ids) > 1,
        "base_query": query_without(request, "after"),
    }
    if is_partial(request) and request.htmx.target == "people-table":
        return render(request, "dashboard/people.html#people-table", context)
    return render(request, "dashboard/people.html", context)


# --- one person's memory --------------------------------------------------------------


def _person_for(request: HtmxHttpRequest, pk: int, *, with_counts: bool = False) -> Principal:
    """The person ``pk`` if the user may see them (404 otherwise). ``with_counts`` reads
    their beliefs' counts per category and status in the same query (see
    ``_category_index``)."""
    qs = scope_to_user(
        Principal.objects.filter(pk=pk), user=request.user, path="tenant_id"
    ).select_related("tenant")
    if with_counts:
        active = Q(beliefs__status=Belief.Status.ACTIVE)
        qs = qs.annotate(
            **{
                # the category column, not the id: the (principal, status, category)
                # index answers the counts alone (an index-only scan)
                f"n_{name}_{kind}": Count(
                    "beliefs__category",
                    filter=Q(beliefs__category=name) & (active if kind == "active" else ~active),
                )
                for name in CATEGORY_ORDER
                for kind in ("active", "other")
            }
        )
    principal = qs.first()
    if principal is None:
        raise Http404("No such person here.")
    return principal


def _category_rank() -> Case:
    return Case(
        *[When(category=name, then=Value(i)) for i, name in enumerate(CATEGORY_ORDER)],
        default=Value(len(CATEGORY_ORDER)),
        output_field=IntegerField(),
    )


def _beliefs_qs(principal_id: int) -> QuerySet:
    """A person's beliefs with what a row shows: the evidence message and whether its
    conversation is sealed, read in the same query."""
    return (
        Belief.objects.filter(principal_id=principal_id)
        .select_related("evidence_message__conversation")
        .defer("evidence_message__conversation__memory_scope")
    )


@dataclass
class BeliefRow:
    belief: Belief
    track: str
    category_label: str
    retention: int  # percent, now
    expired: bool
    not_yet: bool
    evidence: dict[str, Any]
    #: who redacted it, when and why (``memory.redaction``), for a redacted belief
    redaction: Any = None


def _with_redactions(rows: list[BeliefRow]) -> list[BeliefRow]:
    """Each redacted row with its redaction (one query, none when no row is redacted)."""
    ids = [r.belief.pk for r in rows if r.belief.status == Belief.Status.REDACTED]
    found = redactions_for(Redaction.Kind.BELIEF, ids)
    for r in rows:
        r.redaction = found.get(r.belief.pk)
    return rows


def _owner_document(principal: Principal) -> dict[str, Any]:
    """The person's owner document as a superuser sees it on their page (to redact an
    entry): the head version's entries, a redacted one with its redaction (found by the
    entry's key: later versions carry the marker on under the same key). Two queries,
    two more when an entry is redacted."""
    from persona.owner import doc_head

    head = doc_head(principal.pk)
    by_key: dict[str, Redaction] = {}
    if any(is_redacted(e.text) for e in head.entries):
        rows = {
            r.object_id: r
            for r in Redaction.objects.filter(
                kind=Redaction.Kind.OWNER_ENTRY, reached__principal_id=principal.pk
            )
        }
        for pk, key in OwnerEntry.objects.filter(pk__in=list(rows)).values_list("pk", "key"):
            by_key[key] = rows[pk]
    return {
        "doc_version": head.version,
        "doc_entries": [
            {"entry": e, "redaction": by_key.get(e.key) if is_redacted(e.text) else None}
            for e in head.entries
        ],
    }


def _evidence_of(belief: Belief) -> dict[str, Any]:
    """How a belief's evidence shows: ``kind`` is quote (linked into its conversation,
    the quote marked there), sealed (never its words), host, orphan (the message is
    gone, the words were kept) or none. The message comes with its conversation."""
    message = belief.evidence_message
    if is_redacted(belief.evidence_quote):
        return {"kind": "redacted"}
    if message is not None:
        conversation = message.conversation
        if conversation.sealed:
            return {"kind": "sealed"}
        start, end = belief.evidence_start, belief.evidence_end
        mark = quote_mark_param({"message_id": message.pk, "start": start, "end": end})
        url = reverse("memory:conversation", args=[conversation.pk])
        return {
            "kind": "quote",
            "url": f"{url}?mark={mark}#quote" if mark else f"{url}#quote",
            "conversation": conversation.external_id,
            "quote": belief.evidence_quote,
            "context": (
                quote_in_context(message.text, start, end)
                if start is not None and end is not None
                else None
            ),
        }
    if belief.source_host:
        return {"kind": "host", "host": belief.source_host}
    if belief.evidence_quote:
        return {"kind": "orphan", "quote": belief.evidence_quote}
    return {"kind": "none"}


def _row(belief: Belief, now: datetime) -> BeliefRow:
    return BeliefRow(
        belief=belief,
        track=category_track(belief.category),
        category_label=belief.get_category_display(),
        retention=round(100 * belief.retention(now)),
        expired=belief.expired(now),
        not_yet=belief.not_yet_valid(now),
        evidence=_evidence_of(belief),
    )


#: what the redact forms say of a reason (the service's own limits)
REASON_LIMITS = {"reason_min": MIN_REASON_CHARS, "reason_max": MAX_REASON_CHARS}


def _category_index(principal: Principal) -> list[dict[str, Any]]:
    """Per track, each category with its active and other (superseded, retired,
    deleted) counts, from ``_person_for(..., with_counts=True)``."""
    tracks = []
    for track, names in (("work", WORK_CATEGORIES), ("persona", PERSONA_CATEGORIES)):
        cats = [
            {
                "name": name,
                "label": CATEGORY_LABELS[name],
                "active": getattr(principal, f"n_{name}_active"),
                "other": getattr(principal, f"n_{name}_other"),
            }
            for name in names
        ]
        tracks.append(
            {
                "name": track,
                "label": TRACK_LABELS[track],
                "categories": cats,
                "active": sum(c["active"] for c in cats),
                "other": sum(c["other"] for c in cats),
            }
        )
    return tracks


def _intention_row(intention: Intention, now: datetime) -> dict[str, Any]:
    return {
        "intention": intention,
        "on_agenda": intention.agenda_score(now) > 0,
        "overdue": intention.state == Intention.State.OPEN and now > intention.due_at,
        "past_grace": intention.state == Intention.State.OPEN
        and now > intention.due_at + intention.grace,
    }


def _routine_row(routine: Routine) -> dict[str, Any]:
    days = [WEEKDAY_NAMES[d - 1] for d in sorted(routine.weekdays or []) if 1 <= d <= 7]
    return {"routine": routine, "days": ", ".join(days) or "no day"}


def _parse_now(value: str) -> datetime:
    """A time from the recall box: ``YYYY-MM-DDTHH:MM`` (the browser's picker, read in
    the page's time zone) or ISO 8601 with an offset."""
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(value)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


def _recall(request: HtmxHttpRequest, principal: Principal, agents: list[Agent]) -> dict[str, Any]:
    """The recall box: its form values and, once asked, the scored pack (or the error)."""
    question = " ".join(request.GET.get("q", "").split())
    slug = request.GET.get("agent", "")
    now_text = request.GET.get("now", "").strip()
    sensitivity = request.GET.get("sensitivity", "confidential")
    if sensitivity not in SENSITIVITY_BY_NAME:
        sensitivity = "confidential"
    limit = RECALL_LIMIT
    if request.GET.get("limit", "").isdigit() and int(request.GET["limit"]) in RECALL_LIMITS:
        limit = int(request.GET["limit"])
    form = {
        "q": question,
        "agent": slug,
        "now": now_text,
        "sensitivity": sensitivity,
        "sensitivities": [label for _, label in Sensitivity.choices],
        "limit": limit,
        "limits": RECALL_LIMITS,
    }
    out: dict[str, Any] = {"recall_form": form, "pack": None, "recall_error": ""}
    if "q" not in request.GET:
        return out
    agent = next((a for a in agents if a.slug == slug), None)
    if slug and agent is None:
        raise Http404("No agent with that name here.")
    if agent is None:
        agent = agents[0] if len(agents) == 1 else None
    if agent is None:
        out["recall_error"] = "Pick the assistant that would answer."
        return out
    form["agent"] = agent.slug
    if not question:
        out["recall_error"] = "Write the question the person might ask."
        return out
    if len(question) > MAX_QUESTION_CHARS:
        out["recall_error"] = (
            f"The question is {len(question)} characters long; keep it under {MAX_QUESTION_CHARS}."
        )
        return out
    now = timezone.now()
    if now_text:
        try:
            now = _parse_now(now_text)
        except ValueError:
            out["recall_error"] = (
                f"“{now_text}” is not a date and time; use the picker or write 2026-11-20T09:00."
            )
            return out
    pack = build_context(
        agent=agent,
        principal_external_id=principal.external_id,
        query=question,
        now=now,
        limit=limit,
        max_sensitivity=sensitivity,
    )
    out.update(
        {
            "pack": pack,
            "pack_items": _pack_items(pack, principal),
            "pinned_items": _labelled(pack.pinned),
            "related_items": _labelled(pack.cross_category),
            "score_formula": SCORE_FORMULA,
            "pack_text": render_context(pack),
            "recall_agent": agent,
        }
    )
    return out


def _labelled(items: list[PackItem]) -> list[dict[str, Any]]:
    return [
        {"item": i, "category_label": CATEGORY_LABELS.get(i.category, i.category)} for i in items
    ]


def _pack_items(pack: ContextPack, principal: Principal) -> list[dict[str, Any]]:
    """The pack's items, the first hits with their evidence as the belief rows show it
    (the quote linked into its conversation, or a note when it is sealed); one query."""
    first = [item.id for item in pack.items[:EVIDENCE_FOR_FIRST]]
    found = {b.pk: b for b in _beliefs_qs(principal.pk).filter(pk__in=first)}
    return [
        {
            "rank": rank,
            "item": item,
            "category_label": CATEGORY_LABELS.get(item.category, item.category),
            "evidence": _evidence_of(found[item.id]) if item.id in found else None,
        }
        for rank, item in enumerate(pack.items, start=1)
    ]


@require_GET
@login_required
def person(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    swap = request.htmx.target if is_partial(request) else None
    # the whole page shows the counts per category; the regions it swaps do not
    principal = _person_for(request, pk, with_counts=swap not in ("recall-result", "beliefs"))
    agents = list(Agent.objects.filter(tenant_id=principal.tenant_id).order_by("name", "id")[:200])
    recall = _recall(request, principal, agents)
    context: dict[str, Any] = {
        "principal": principal,
        "agents": agents,
        "can_operate": is_operator(request.user),
        "can_redact": bool(request.user.is_superuser),
        **REASON_LIMITS,
        "next_url": request.get_full_path(),
        **recall,
    }
    if swap == "recall-result":
        return render(request, "dashboard/person.html#recall-result", context)

    now = timezone.now()
    show_all = request.GET.get("show") == "all"
    category = request.GET.get("category", "")
    if category not in BeliefCategory.values:
        category = ""
    # the page's keys are picked from the belief_principal_listing index alone (a person
    # may hold tens of thousands of beliefs: sorting whole rows would read every one),
    # in a subquery of the one query that reads the page's rows with what they show
    fields = [("cat_rank", False), ("created_at", True), ("id", True)]
    kinds = [int, datetime, int]
    cursor = request.GET.get("after")
    keys = Belief.objects.filter(principal_id=principal.pk).annotate(cat_rank=_category_rank())
    if not show_all:
        keys = keys.filter(status=Belief.Status.ACTIVE)
    if category:
        keys = keys.filter(category=category)
    after = decode_cursor(cursor, kinds=kinds)
    if after is not None:
        keys = keys.filter(keyset_after(fields, after))
    page_keys = keys.order_by("cat_rank", "-created_at", "-id").values("pk")[: BELIEFS_PAGE + 1]
    page = keyset_page(
        _beliefs_qs(principal.pk).annotate(cat_rank=_category_rank()).filter(pk__in=page_keys),
        fields=fields,
        kinds=kinds,
        cursor=cursor,
        size=BELIEFS_PAGE,
    )
    context.update(
        {
            "now": now,
            "show_all": show_all,
            "category": category,
            "category_label": CATEGORY_LABELS.get(category, ""),
            "rows": _with_redactions([_row(b, now) for b in page.rows]),
            "page": page,
            "base_query": query_without(request, "after"),
        }
    )
    if swap == "beliefs":
        return render(request, "dashboard/person.html#beliefs", context)

    intentions = Intention.objects.filter(principal=principal)
    if not show_all:
        intentions = intentions.filter(state=Intention.State.OPEN)
    agenda = list(intentions.order_by("due_at", "id")[: AGENDA_LIMIT + 1])
    routines = list(
        Routine.objects.filter(principal=principal).order_by("time", "id")[: ROUTINES_LIMIT + 1]
    )
    context.update(
        {
            "tracks": _category_index(principal),
            "agenda": [_intention_row(i, now) for i in agenda[:AGENDA_LIMIT]],
            "agenda_more": len(agenda) > AGENDA_LIMIT,
            "routines": [_routine_row(r) for r in routines[:ROUTINES_LIMIT]],
            "routines_more": len(routines) > ROUTINES_LIMIT,
            "max_statement_chars": MAX_STATEMENT_CHARS,
        }
    )
    if context["can_redact"]:
        context.update(_owner_document(principal))
    return render(request, "dashboard/person.html", context)


# --- operator actions -------------------------------------------------------------------


def _belief_for(request: HtmxHttpRequest, pk: int) -> Belief:
    belief = scope_to_user(
        Belief.objects.filter(pk=pk), user=request.user, path="tenant_id"
    ).first()
    if belief is None:
        raise Http404("No such belief here.")
    return belief


def _acted(
    request: HtmxHttpRequest,
    *,
    principal_id: int,
    belief_ids: list[int],
    anchor: str,
    ok: str = "",
    error: str = "",
    draft: str = "",
) -> HttpResponse:
    """The answer to a belief action: the rows in place (htmx), or back to the page."""
    if is_partial(request):
        now = timezone.now()
        found = {b.pk: b for b in _beliefs_qs(principal_id).filter(pk__in=belief_ids)}
        rows = _with_redactions([_row(found[i], now) for i in belief_ids if i in found])
        return render(
            request,
            "dashboard/person.html#belief-rows",
            {
                "rows": rows,
                "can_operate": True,
                "can_redact": bool(request.user.is_superuser),
                **REASON_LIMITS,
                "show_all": request.POST.get("show") == "all",
                "row_ok": ok,
                "row_error": error,
                "draft": draft,
                "max_statement_chars": MAX_STATEMENT_CHARS,
                "next_url": safe_next(request, reverse("memory:person", args=[principal_id])),
            },
        )
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    fallback = reverse("memory:person", args=[principal_id])
    return redirect(safe_next(request, fallback) + anchor)


def belief_acted(
    request: HtmxHttpRequest,
    belief: Belief,
    act: Callable[[], object],
    *,
    ok: str,
    failed: str,
) -> HttpResponse:
    """Run ``act`` (one service call on ``belief``: retire, mute, unmute, redact) and
    answer with the belief's row: ``ok``, or ``failed: <the refusal>``. A service's
    ``NotPermitted`` is a 403 and its ``NotReachable`` a 404, never a row message."""
    error = ""
    try:
        act()
    except NotPermitted as exc:
        raise PermissionDenied(str(exc)) from exc
    except NotReachable as exc:
        raise Http404(str(exc)) from exc
    except Refusal as exc:
        error = f"{failed}: {exc}"
    return _acted(
        request,
        principal_id=belief.principal_id,
        belief_ids=[belief.pk],
        anchor=f"#belief-{belief.pk}",
        ok="" if error else ok,
        error=error,
    )


@require_POST
@login_required
def belief_retire_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    belief = _belief_for(request, pk)
    require_operator(request)
    return belief_acted(
        request,
        belief,
        lambda: belief_retire(belief=belief),
        ok="Retired: the assistant no longer recalls this belief. It stays in the history.",
        failed="Not retired",
    )


@require_POST
@login_required
def belief_mute_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """ "Don't mention this again" (operators): kept, never given to a host again."""
    belief = _belief_for(request, pk)
    require_operator(request)
    by = request.user.get_username()
    if request.POST.get("undo") == "1":
        return belief_acted(
            request,
            belief,
            lambda: belief_unmute(belief=belief, by=by),
            ok="Unmuted: hosts are given this belief again.",
            failed="Not unmuted",
        )
    return belief_acted(
        request,
        belief,
        lambda: belief_mute(belief=belief, by=by, reason=request.POST.get("reason", "")),
        ok="Muted: no host is given this belief and nothing learns it back. Unmute undoes it.",
        failed="Not muted",
    )


@require_POST
@login_required
def belief_correct_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    belief = _belief_for(request, pk)
    require_operator(request)
    statement = request.POST.get("statement", "")
    try:
        result = belief_correct(belief=belief, statement=statement, by=request.user.get_username())
    except Refusal as exc:
        # a refused secret is not sent back into the page
        draft = "" if isinstance(exc, SecretFound) else " ".join(statement.split())
        return _acted(
            request,
            principal_id=belief.principal_id,
            belief_ids=[belief.pk],
            anchor=f"#belief-{belief.pk}",
            error=f"Not corrected: {exc}",
            draft=draft,
        )
    ids = [result.belief.pk]
    if request.POST.get("show") == "all":
        ids.append(belief.pk)  # the corrected one stays listed, now superseded
    return _acted(
        request,
        principal_id=belief.principal_id,
        belief_ids=ids,
        anchor=f"#belief-{result.belief.pk}",
        ok=f"Corrected: this belief replaces #{belief.pk}, which is kept in the history.",
    )


@require_POST
@login_required
def intention_state_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    intention = scope_to_user(
        Intention.objects.filter(pk=pk), user=request.user, path="tenant_id"
    ).first()
    if intention is None:
        raise Http404("No such intention here.")
    require_operator(request)
    state = request.POST.get("state", "")
    ok = error = ""
    if state not in INTENTION_ACTIONS:
        error = "Choose done or dropped."
    elif intention.state != Intention.State.OPEN:
        error = f"This intention is {intention.state} already; only an open one can change."
    else:
        try:
            intention = intention_set_state(intention=intention, state=state)
        except Refusal as exc:
            error = str(exc)
        else:
            ok = f"{INTENTION_ACTIONS[state]}: it leaves the agenda."
    if is_partial(request):
        return render(
            request,
            "dashboard/person.html#intention-row",
            {
                "r": _intention_row(intention, timezone.now()),
                "can_operate": True,
                "row_ok": ok,
                "row_error": error,
                "next_url": safe_next(
                    request, reverse("memory:person", args=[intention.principal_id])
                ),
            },
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    fallback = reverse("memory:person", args=[intention.principal_id])
    return redirect(safe_next(request, fallback) + f"#intention-{intention.pk}")
