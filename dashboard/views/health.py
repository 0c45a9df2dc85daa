"""The memory health page: the latest check of each tenant the user sees, its findings
with their remedies, and the counts over time. The check itself runs in a task."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from memory.audit import MERGE, RESCAN, RESEAL, RETIRE, checks, reseal_for
from memory.models import MemoryAudit, Redaction
from memory.models_beliefs import Belief
from memory.services_beliefs import BeliefRefusal, belief_merge, belief_retire
from persona.models import Mute
from persona.mutes import muted_per_month
from personaweb.charts import Series, StackedChart, bar_chart, month_starts, stacked_chart
from tenancy.access import require_operator, scope_to_user, visible_tenant_ids
from tenancy.models import Agent

#: runs drawn in the chart
CHART_RUNS = 30
#: months drawn in the "muted per month" chart
CHART_MONTHS = 12


#: the health page's "not to be mentioned again" chart, bottom up
QUIET_SERIES = (
    Series("beliefs", "muted beliefs", "series-beliefs"),
    Series("lines", "muted learned lines", "series-lines"),
    Series("entries", "muted persona entries", "series-entries"),
    Series("redacted", "redacted", "series-redacted"),
)


def quiet_counts(tenant_ids: list[int] | None, months: list[date]) -> dict[date, dict[str, int]]:
    """What was asked not to be mentioned again, and what a superuser redacted, per
    month of ``months`` (three queries): beliefs (by when each was last muted), learned
    lines and owner entries (every mute made, undone or not), redactions of every kind."""
    since = timezone.make_aware(datetime(months[0].year, months[0].month, 1))
    counts: dict[date, dict[str, int]] = {m: defaultdict(int) for m in months}

    def add(when: datetime | str, key: str, n: int = 1) -> None:
        if isinstance(when, str):  # "YYYY-MM"
            month = date(int(when[:4]), int(when[5:7]), 1)
        else:
            local = timezone.localtime(when)
            month = date(local.year, local.month, 1)
        if month in counts:
            counts[month][key] += n

    beliefs = Belief.objects.filter(muted_at__gte=since)
    redactions = Redaction.objects.filter(redacted_at__gte=since)
    if tenant_ids is not None:
        beliefs = beliefs.filter(tenant_id__in=tenant_ids)
        redactions = redactions.filter(tenant_id__in=tenant_ids)
    for at in beliefs.values_list("muted_at", flat=True):
        if at is not None:
            add(at, "beliefs")
    for month, kinds in muted_per_month(tenant_ids=tenant_ids, since=since).items():
        add(month, "lines", kinds[Mute.Kind.LINE])
        add(month, "entries", kinds[Mute.Kind.ENTRY])
    for at in redactions.values_list("redacted_at", flat=True):
        add(at, "redacted")
    return counts


def quiet_chart(tenant_ids: list[int] | None, *, now: datetime | None = None) -> StackedChart:
    months = month_starts(timezone.localtime(now or timezone.now()).date(), CHART_MONTHS)
    counts = quiet_counts(tenant_ids, months)
    return stacked_chart(
        [(f"{m:%b}", f"{m:%B %Y}", counts[m]) for m in months],
        QUIET_SERIES,
        title="Muted and redacted per month",
        description=(
            "How many beliefs, learned persona lines and persona-document entries people "
            "asked not to be mentioned again, and how many texts a superuser redacted, per "
            f"month over the last {CHART_MONTHS} months, oldest first; each bar stacks them."
        ),
        period_name="Month",
    )


def _audits(request: HttpRequest) -> Any:
    return scope_to_user(MemoryAudit.objects.all(), user=request.user, path="tenant_id")


@require_GET
@login_required
def health(request: HttpRequest) -> HttpResponse:
    audits = _audits(request)
    latest = list(
        audits.filter(pk__in=audits.values("tenant_id").annotate(last=Max("id")).values("last"))
        .select_related("tenant")
        .order_by("tenant__name")
    )
    # findings whose belief has ended since the check ran are done: leave them out
    belief_ids = {
        f["subject_id"] for audit in latest for f in audit.findings if f.get("subject") == "belief"
    }
    still_active = set(
        Belief.objects.filter(pk__in=belief_ids, status=Belief.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    agent_ids = {f["agent_id"] for audit in latest for f in audit.findings if f.get("agent_id")}
    agents = dict(Agent.objects.filter(pk__in=agent_ids).values_list("pk", "slug"))
    kinds = {c.kind: c for c in checks()}
    tenants = []
    for audit in latest:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        kept: dict[str, int] = defaultdict(int)
        for f in audit.findings:
            kept[f["kind"]] += 1
            if f.get("subject") == "belief" and f["subject_id"] not in still_active:
                continue
            groups[f["kind"]].append({**f, "agent_slug": agents.get(f.get("agent_id"))})
        tenants.append(
            {
                "audit": audit,
                "total": sum(audit.counts.values()),
                "clean": [
                    (kinds[k].title if k in kinds else k).lower()
                    for k, n in audit.counts.items()
                    if not n
                ],
                "groups": [
                    {
                        "check": kinds.get(kind),
                        "kind": kind,
                        "count": audit.counts.get(kind, 0),
                        "unlisted": audit.counts.get(kind, 0) - kept[kind],
                        "findings": groups.get(kind, []),
                    }
                    for kind in audit.counts
                ],
            }
        )
    history: dict[str, int] = {}
    for ran_at, counts in audits.order_by("-ran_at").values_list("ran_at", "counts")[
        : CHART_RUNS * max(len(latest), 1)
    ]:
        day = f"{ran_at:%Y-%m-%d}"
        if day not in history and len(history) >= CHART_RUNS:
            break
        history[day] = history.get(day, 0) + sum(counts.values())
    chart = bar_chart(
        sorted(history.items()),
        title="Findings per day of the health check",
        description="How many findings each day's health check reported, oldest first.",
    )
    return render(
        request,
        "dashboard/health.html",
        {
            "tenants": tenants,
            "chart": chart,
            "quiet_chart": quiet_chart(visible_tenant_ids(request.user)),
            "RETIRE": RETIRE,
            "MERGE": MERGE,
            "RESCAN": RESCAN,
            "RESEAL": RESEAL,
        },
    )


@require_POST
@login_required
def health_run(request: HttpRequest) -> HttpResponse:
    require_operator(request)
    from memory.tasks import audit_memory

    tids = visible_tenant_ids(request.user)
    transaction.on_commit(lambda: audit_memory.delay(tids))
    messages.info(
        request,
        "The health check is running in the background; reload this page in a minute to see it.",
    )
    return redirect("memory:health")


def _belief(request: HttpRequest, pk: object) -> Belief:
    try:
        pk = int(str(pk))
    except ValueError:
        raise Http404("No such belief here.") from None
    belief = scope_to_user(
        Belief.objects.filter(pk=pk), user=request.user, path="tenant_id"
    ).first()
    if belief is None:
        raise Http404("No such belief here.")
    return belief


@require_POST
@login_required
def health_fix(request: HttpRequest) -> HttpResponse:
    """One remedy for one finding: retire, merge (into the twin it repeats) or re-scan."""
    require_operator(request)
    action = request.POST.get("action", "")
    belief = _belief(request, request.POST.get("belief", ""))
    try:
        if action == RETIRE:
            belief_retire(belief=belief)
            messages.success(
                request, "Retired: no host is given it any more. It stays in the history."
            )
        elif action == MERGE:
            keep = _belief(request, request.POST.get("into", ""))
            belief_merge(keep=keep, duplicate=belief)
            messages.success(request, "Merged: the earlier belief keeps the evidence of both.")
        elif action == RESEAL:
            n = reseal_for(belief)
            messages.success(
                request,
                f"Sealed again ({n} conversation{'s' if n != 1 else ''}): what rested on it is withdrawn.",
            )
        elif action == RESCAN:
            from safety.checks import verdicts

            verdict = verdicts([belief.statement], wait=True)[0]
            if verdict.blocked:
                messages.warning(
                    request,
                    "Still blocked by today's scan (" + ", ".join(verdict.ids) + "): retire it.",
                )
            else:
                messages.success(request, "Today's scan passes it now; it is given to hosts again.")
        else:
            messages.error(request, "Choose retire, merge, re-scan or seal again.")
    except BeliefRefusal as exc:
        messages.error(request, str(exc))
    return redirect(reverse("memory:health") + f"#finding-{belief.pk}")
