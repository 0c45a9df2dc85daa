"""Dashboard pages of the learning app: learning settings with "Review now" and its
live progress, the review queue (team desk) with in-place decisions, the review log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from learning.forms import LearningSettingsForm
from learning.models import LearningSettings, Proposal, Review
from learning.owners import (
    decide_refusal,
    deciders_sentence,
    learning_settings_of,
    may_decide,
    yours_sentence,
)
from learning.selectors import (
    approval_drop_counts,
    decisions_since,
    model_called,
    proposal_backing,
    proposals_a_change_drops,
    review_log_figures,
    review_reasons_now,
)
from memory.models import Message
from memory.sealing import sealed_ids
from persona.models import PlanRotation
from persona.mutes import muted_line_counts
from persona.selectors import owner_doc_figures
from personaweb.actors import Actor
from personaweb.errors import Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without, safe_next
from personaweb.marks import evidence_conversation_ids, evidence_message_ids, quote_groups_for
from personaweb.paging import keyset_page
from personaweb.roles import is_operator, is_reviewer
from tenancy.access import (
    actor_for_user,
    agent_for_user,
    require_operator,
    require_reviewer,
    scope_to_user,
    visible_agents,
    visible_tenant_ids,
)

# --- learning settings and Review now ---------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def settings_view(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    agent = agent_for_user(request, slug, with_learning=True)
    settings = learning_settings_of(agent)
    can_edit = is_operator(request.user)
    if request.method == "POST":
        require_operator(request)
        form = LearningSettingsForm(request.POST)
        if form.is_valid():
            from learning.services.errors import LearningInputError
            from learning.services.settings import learning_settings_update

            values = {k: form.cleaned_data[k] for k in LearningSettingsForm.FIELDS}
            if not values["proposer"]:
                values.pop("proposer")
            try:
                learning_settings_update(agent=agent, values=values, by=request.user.get_username())
            except LearningInputError as exc:
                for key, message in (exc.errors or {}).items():
                    form.add_error(key if key in form.fields else None, message)
                if not exc.errors:
                    form.add_error(None, str(exc))
            except Refusal as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Learning settings of {agent.name} saved.")
                return redirect("learning:settings", slug=agent.slug)
    else:
        form = LearningSettingsForm(initial=LearningSettingsForm.initial_from(settings))
    if not can_edit:
        for field in form.fields.values():
            field.disabled = True
    recent = _settings_panel(agent)["recent"]
    context = {
        "agent": agent,
        "settings": settings,
        "form": form,
        "can_edit": can_edit,
        "can_review": is_reviewer(request.user),
        "recent": recent,
        "last_review": recent[0] if recent else None,
    }
    return render(request, "learning/settings.html", context)


def _review_context(
    review: Review, *, origin: str, user: Any, partial: bool = False
) -> dict[str, Any]:
    proposal = None
    if review.status == Review.Status.DONE:
        proposal = (
            Proposal.objects.filter(review=review)
            .select_related("agent", "agent__learning")
            .order_by("id")
            .first()
            if review.proposal_id is None
            else Proposal.objects.filter(pk=review.proposal_id)
            .select_related("agent", "agent__learning")
            .first()
        )
        if proposal is not None:
            _decorate(proposal)
            proposal.can_decide = may_decide(actor_for_user(user), proposal)  # type: ignore[attr-defined]
    review.reasons = review_reasons_now([review]).get(review.pk, [])  # type: ignore[attr-defined]
    review.model_called = model_called(review)  # type: ignore[attr-defined]
    context = {
        "review": review,
        "agent": review.agent,
        "proposal": proposal,
        "origin": origin,
        "can_review": is_reviewer(user),
    }
    if partial and origin == "settings" and review.status == Review.Status.DONE:
        # the settings page's counters and recent reviews follow the finished review
        context.update(_settings_panel(review.agent), panel_oob=True)
    return context


def _settings_panel(agent: Any) -> dict[str, Any]:
    recent = list(Review.objects.filter(agent=agent).order_by("-queued_at", "-id")[:5])
    reasons = review_reasons_now(recent)  # from the proposals' state now, never stale
    for r in recent:
        r.reasons = reasons.get(r.pk, [])  # type: ignore[attr-defined]
    return {"settings": LearningSettings.objects.filter(agent=agent).first(), "recent": recent}


def _quoted_texts(proposals: list[Proposal]) -> dict[int, str]:
    """The text of every message the proposals quote, in ONE query (never a sealed
    conversation's, and only of the proposals' own agents)."""
    ids = evidence_message_ids(*(p.evidence for p in proposals))
    if not ids:
        return {}
    return dict(
        Message.objects.readable()
        .filter(pk__in=ids, conversation__agent_id__in={p.agent_id for p in proposals})
        .values_list("pk", "text")
    )


def _decorate(
    proposal: Proposal, sealed: set[int] | None = None, texts: dict[int, str] | None = None
) -> Proposal:
    if sealed is None:
        sealed = sealed_ids(evidence_conversation_ids(proposal.evidence))
    if texts is None:
        texts = _quoted_texts([proposal])
    proposal.quote_groups = quote_groups_for(proposal.evidence, sealed=sealed, texts=texts)  # type: ignore[attr-defined]
    return proposal


@require_POST
@login_required
def review_now(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    agent = agent_for_user(request, slug)
    require_reviewer(request)
    origin = "agent" if request.POST.get("origin") == "agent" else "settings"
    back = (
        reverse("persona:agent", args=[agent.slug])
        if origin == "agent"
        else reverse("learning:settings", args=[agent.slug])
    )
    from learning.services import review_enqueue

    whole_history = request.POST.get("whole_history") == "1"
    try:
        review = review_enqueue(
            agent=agent, by=request.user.get_username(), whole_history=whole_history
        )
    except Refusal as exc:
        if is_partial(request):
            return render(
                request,
                "learning/review_status.html#status",
                {"review": None, "agent": agent, "error": str(exc), "origin": origin},
            )
        messages.error(request, str(exc))
        return redirect(back)
    if is_partial(request):
        return render(
            request,
            "learning/review_status.html#status",
            _review_context(review, origin=origin, user=request.user, partial=True),
        )
    messages.info(
        request,
        ("Review of the whole history queued." if whole_history else "Review queued.")
        + " This page shows its progress.",
    )
    return redirect(
        reverse("learning:review_status", args=[agent.slug, review.pk]) + f"?origin={origin}"
    )


@require_GET
@login_required
def review_status(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    agent = agent_for_user(request, slug)
    review = Review.objects.filter(agent=agent, pk=pk).first()
    if review is None:
        raise Http404("No such review for this agent.")
    review.agent = agent
    origin = request.GET.get("origin", "")
    data = _review_context(
        review,
        origin=origin if origin in ("agent", "settings") else "",
        user=request.user,
        partial=is_partial(request),
    )
    if is_partial(request):
        response = render(request, "learning/review_status.html#status", data)
        if data["origin"] == "agent" and review.status == Review.Status.DONE:
            # the agent page's learning card (what waits, what the review says) follows
            trigger_client_event(response, "learning-changed")
        return response
    return render(request, "learning/review_status.html", data)


# --- review queue ---------------------------------------------------------------------

#: cards a page of the queue shows: each card carries its quotes in their sentences and
#: its decision form, and a reviewer works down from the oldest, a screenful at a time
QUEUE_PAGE = 25


def _queue_qs(user: Any, *, agent_slug: str = ""):
    qs = scope_to_user(
        Proposal.objects.filter(status=Proposal.Status.WAITING),
        user=user,
        path="agent__tenant_id",
    ).select_related("agent", "agent__tenant", "agent__learning")
    if agent_slug:
        qs = qs.filter(agent__slug=agent_slug)
    return qs


def _row_context(
    proposal: Proposal,
    actor: Actor,
    sealed: set[int] | None = None,
    texts: dict[int, str] | None = None,
    drops: dict[int, int] | None = None,
    muted: dict[tuple[int, str], int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One queue row: its quotes, and whether ``actor`` may decide it (the buttons are
    drawn only then; otherwise the row says who decides it), and how many people muted
    these words for themselves (``persona.mutes``; ``muted``: counted for the page
    already). No query when the proposal's ``agent__learning`` is selected with it and
    ``muted`` is given."""
    _decorate(proposal, sealed, texts)
    proposal.can_decide = may_decide(actor, proposal)  # type: ignore[attr-defined]
    settings = learning_settings_of(proposal.agent)
    proposal.deciders = (  # type: ignore[attr-defined]
        yours_sentence(kind=proposal.kind, settings=settings)
        if proposal.can_decide  # type: ignore[attr-defined]
        else deciders_sentence(kind=proposal.kind, settings=settings)
    )
    proposal.backing = proposal_backing(proposal, settings)  # type: ignore[attr-defined]
    if drops is not None:
        proposal.drops = drops.get(proposal.pk, 0)  # type: ignore[attr-defined]
    if muted is None:
        muted = muted_line_counts([(proposal.agent_id, proposal.text)])
    proposal.muted_for = muted.get((proposal.agent_id, proposal.text), 0)  # type: ignore[attr-defined]
    return {"p": proposal, **extra}


@require_GET
@login_required
def queue(request: HtmxHttpRequest) -> HttpResponse:
    require_reviewer(request)
    agent_slug = request.GET.get("agent", "")
    page = keyset_page(
        _queue_qs(request.user, agent_slug=agent_slug),
        fields=[("created_at", False), ("id", False)],
        kinds=[datetime, int],
        cursor=request.GET.get("after"),
        size=QUEUE_PAGE,
    )
    sealed = sealed_ids(evidence_conversation_ids(*(p.evidence for p in page.rows)))
    texts = _quoted_texts(list(page.rows))
    actor = actor_for_user(request.user)
    drops = approval_drop_counts(list(page.rows))
    muted = muted_line_counts([(p.agent_id, p.text) for p in page.rows])
    for p in page.rows:
        _row_context(p, actor, sealed, texts, drops, muted)
    context = {
        "page": page,
        "agent_slug": agent_slug,
        "base_query": query_without(request, "after"),
    }
    if is_partial(request) and request.htmx.target == "queue-list":
        return render(request, "learning/queue.html#queue-list", context)
    return render(request, "learning/queue.html", context)


def _proposal_rows(request: HtmxHttpRequest, pks: list[int]) -> QuerySet[Proposal]:
    return scope_to_user(
        Proposal.objects.filter(pk__in=pks), user=request.user, path="agent__tenant_id"
    ).select_related("agent", "agent__tenant", "agent__learning")


def _proposal_for(request: HtmxHttpRequest, pk: int) -> Proposal:
    proposal = (
        scope_to_user(Proposal.objects.filter(pk=pk), user=request.user, path="agent__tenant_id")
        .select_related("agent", "agent__tenant", "agent__learning")
        .first()
    )
    if proposal is None:
        raise Http404("No such proposal here.")
    return proposal


def _decided(
    request: HtmxHttpRequest,
    proposal: Proposal,
    *,
    ok: str = "",
    error: str = "",
    dropped: list[int] | None = None,
) -> HttpResponse:
    """The answer to a decision: the row in place (htmx), with the rows of the
    proposals it ``dropped`` redrawn out of band (no stale Approve button stays on the
    page); or back where the form was."""
    if is_partial(request):
        proposal.refresh_from_db()
        actor = actor_for_user(request.user)
        rows = [proposal]
        if dropped:
            rows += list(_proposal_rows(request, dropped))
        drops = approval_drop_counts(rows)
        html = render_to_string(
            "learning/queue.html#row",
            _row_context(proposal, actor, drops=drops, row_ok=ok, row_error=error),
            request=request,
        )
        for other in rows[1:]:
            html += render_to_string(
                "learning/queue.html#row", _row_context(other, actor, oob=True), request=request
            )
        return HttpResponse(html)
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(safe_next(request, reverse("learning:queue")))


def _decide_refusal(request: HtmxHttpRequest, proposal: Proposal) -> str | None:
    """The one rule (``learning.owners.decide_refusal``), said before the service says
    it again: a refused decision keeps the proposal waiting."""
    reason = decide_refusal(
        actor_for_user(request.user),
        agent=proposal.agent,
        kind=proposal.kind,
        settings=learning_settings_of(proposal.agent),
    )
    what = "rule" if proposal.kind == Proposal.Kind.RULE else "proposal"
    return f"{reason} The {what} keeps waiting." if reason else None


@require_POST
@login_required
def proposal_apply(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _proposal_for(request, pk)
    require_reviewer(request)
    refusal = _decide_refusal(request, proposal)
    if refusal:
        return _decided(request, proposal, error=refusal)
    text = " ".join((request.POST.get("text") or "").split())
    if text == proposal.text:
        text = ""
    from learning.services import proposal_apply as apply_service

    dropped = list(
        proposals_a_change_drops(
            agent=proposal.agent,
            source_type=proposal.persona_source_type,
            proposal_id=proposal.pk,
        ).values_list("pk", flat=True)
    )
    try:
        result = apply_service(
            proposal=proposal, by=actor_for_user(request.user), text=text or None
        )
    except Refusal as exc:
        return _decided(request, proposal, error=f"Not approved: {exc}")
    version = getattr(result, "version", None)
    if not isinstance(version, int):
        version = getattr(result, "applied_version", None)
    what = "Rule approved" if proposal.kind == Proposal.Kind.RULE else "Approved"
    if text:
        what += " in your words"
    ok = f"{what} for {proposal.agent.name}" + (f": persona version {version}." if version else ".")
    return _decided(request, proposal, ok=ok, dropped=dropped)


@require_POST
@login_required
def proposal_dismiss(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    proposal = _proposal_for(request, pk)
    require_reviewer(request)
    refusal = _decide_refusal(request, proposal)
    if refusal:
        return _decided(request, proposal, error=refusal)
    from learning.services import proposal_dismiss as dismiss_service

    try:
        dismiss_service(proposal=proposal, by=actor_for_user(request.user))
    except Refusal as exc:
        return _decided(request, proposal, error=f"Not turned down: {exc}")
    return _decided(
        request,
        proposal,
        ok=f"Turned down for {proposal.agent.name}; it will not be proposed again.",
    )


@require_POST
@login_required
def proposal_restore(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Undo a turn-down: the proposal waits again."""
    proposal = _proposal_for(request, pk)
    require_reviewer(request)
    from learning.services import proposal_restore as restore_service

    try:
        restore_service(proposal=proposal, by=actor_for_user(request.user))
    except Refusal as exc:
        return _decided(request, proposal, error=f"Not undone: {exc}")
    return _decided(request, proposal, ok="Turn-down undone: the proposal waits for review again.")


@require_POST
@login_required
def proposal_undo(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Undo an approval: a new persona version without the learned change."""
    proposal = _proposal_for(request, pk)
    require_reviewer(request)
    from learning.services import proposal_undo as undo_service

    dropped = list(
        proposals_a_change_drops(
            agent=proposal.agent,
            source_type=proposal.persona_source_type,
            proposal_id=proposal.pk,
        ).values_list("pk", flat=True)
    )
    try:
        version = undo_service(proposal=proposal, by=actor_for_user(request.user))
    except Refusal as exc:
        return _decided(request, proposal, error=f"Not undone: {exc}")
    return _decided(
        request,
        proposal,
        ok=f"Approval undone for {proposal.agent.name}: persona version {version.version} takes it back.",
        dropped=dropped,
    )


# --- review log -----------------------------------------------------------------------


def _explain_reviews(reviews: list[Review]) -> None:
    """Give each review its reasons as a list told from the state things are in now,
    whether a model was called, and why each recurring pattern it saw was not proposed
    (against the agent's settings). One query for all the reviews."""
    from learning.candidates import LABELS, OUTSIDE_WINDOW, explain, unsafe_lines

    reasons = review_reasons_now(list(reviews))
    for r in reviews:
        settings = learning_settings_of(r.agent)
        r.reasons = reasons.get(r.pk, [])  # type: ignore[attr-defined]
        r.model_called = model_called(r)  # type: ignore[attr-defined]
        r.unread = unsafe_lines(r.details)  # type: ignore[attr-defined]
        r.passed = [  # type: ignore[attr-defined]
            {
                **item,
                "why": explain(item, settings=settings),
                "label": LABELS.get(item.get("reason", ""), item.get("reason", "")),
            }
            for item in (r.passed_over or [])
            if isinstance(item, dict)
        ]
        r.outside_window = any(i.get("reason") == OUTSIDE_WINDOW for i in r.passed)  # type: ignore[attr-defined]


@require_GET
@login_required
def log(request: HtmxHttpRequest) -> HttpResponse:
    agent_slug = request.GET.get("agent", "")
    outcome = request.GET.get("outcome", "")
    agent = agent_for_user(request, agent_slug) if agent_slug else None
    base = scope_to_user(Review.objects.all(), user=request.user, path="agent__tenant_id")
    if agent is not None:
        base = base.filter(agent=agent)
    totals, outcome_chart = review_log_figures(base, today=timezone.localdate())
    counts = [
        {"value": value, "label": label, "n": totals[f"o_{value}"]}
        for value, label in Review.Outcome.choices
    ]
    rotations = scope_to_user(
        PlanRotation.objects.all(), user=request.user, path="plan__agent__tenant_id"
    )
    if agent is not None:
        rotations = rotations.filter(plan__agent=agent)
    rotation_counts = rotations.aggregate(
        total=Count("id"),
        persona_changed=Count("id", filter=Q(reason=PlanRotation.Reason.PERSONA_CHANGED)),
    )
    # owner documents belong to people, not to one assistant: with an assistant picked,
    # the figures cover the people of its tenant
    owner_figures = owner_doc_figures(
        tenant_ids=[agent.tenant_id] if agent is not None else visible_tenant_ids(request.user)
    )
    qs = base.select_related("agent", "agent__learning")
    if outcome in Review.Outcome.values:
        qs = qs.filter(outcome=outcome)
    page = keyset_page(
        qs,
        fields=[("queued_at", True), ("id", True)],
        kinds=[datetime, int],
        cursor=request.GET.get("after"),
    )
    _explain_reviews(page.rows)
    context = {
        "page": page,
        "decisions": decisions_since(
            tenant_ids=visible_tenant_ids(request.user) if agent is None else None, agent=agent
        ),
        "can_review": is_reviewer(request.user),
        "counts": counts,
        "outcome_chart": outcome_chart,
        "totals": totals,
        "rotations": rotation_counts["total"],
        "persona_rotations": rotation_counts["persona_changed"],
        "owner": owner_figures,
        "agent": agent,
        "outcome": outcome,
        "outcomes": Review.Outcome.choices,
        "agents": list(
            visible_agents(request.user).order_by("name", "id").values_list("slug", "name")[:200]
        ),
        "base_query": query_without(request, "after"),
    }
    if is_partial(request) and request.htmx.target == "log-body":
        return render(request, "learning/log.html#log-body", context)
    return render(request, "learning/log.html", context)
