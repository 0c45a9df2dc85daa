"""Reads of the persona evolution page: every persona change across the assistants a
person may see (a feed, filtered and keyset-paged), and a chart of changes and
decisions per week. A fixed number of queries whatever the amount of data.

The source of a change is derived from the version's trigger and its proposal link:
an operator's edit, learning, a host, or a revert (a version that takes a learned change
back, or a "revert" / "undo" trigger). A trigger this page does not know shows its raw
name, so a new writer is never hidden or mislabelled.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import TruncWeek
from django.utils import timezone

from learning.models import Proposal
from persona.models import AgentPersonaVersion, PersonaChangeCount
from persona.services import PERSONA_FIELDS, persona_snapshot
from personaweb.marks import field_text, word_diff
from tenancy.access import scope_to_user

OPERATOR, LEARNING, HOST, REVERT = "operator", "learning", "host", "revert"
SOURCES = {
    OPERATOR: "operator",
    LEARNING: "learning",
    HOST: "host",
    REVERT: "revert",
}
#: a version's trigger (``source_type``) -> the source the page shows
SOURCE_OF_TRIGGER = {
    "ui_form": OPERATOR,
    "manual": OPERATOR,
    "host": HOST,
    "update_persona": HOST,
    "persona_learning": LEARNING,
    "standing_rule": LEARNING,
    "revert": REVERT,
    "undo": REVERT,
}
FIELDS = {name: name.replace("_", " ") for name in PERSONA_FIELDS}
#: the chart covers this many weeks when no dates are given, and never more than MAX
CHART_WEEKS = 12
MAX_CHART_WEEKS = 26
#: a short diff keeps this many unchanged words either side of a change
DIFF_CONTEXT_WORDS = 5
DIFF_MAX_CHARS = 320


def change_source(source_type: str, *, undoes: bool = False) -> str:
    """The source a change shows: a version that takes a learned change back is a
    revert, whatever wrote it; an unknown trigger is its raw name."""
    if undoes:
        return REVERT
    return SOURCE_OF_TRIGGER.get(source_type, source_type)


def _undoes() -> Exists:
    """True for a version that takes back the learned change of its proposal (written
    after the version that applied it)."""
    return Exists(
        Proposal.objects.filter(pk=OuterRef("proposal_id"), applied_version__lt=OuterRef("version"))
    )


@dataclass(frozen=True)
class FeedFilters:
    agent: str = ""
    source: str = ""
    field: str = ""
    since: date | None = None
    until: date | None = None

    @classmethod
    def from_query(cls, query: Any) -> FeedFilters:
        def day(name: str) -> date | None:
            try:
                return date.fromisoformat((query.get(name) or "").strip())
            except ValueError:
                return None

        field_name = query.get("field", "")
        return cls(
            agent=(query.get("agent") or "").strip()[:100],
            source=(query.get("source") or "").strip()[:40],
            field=field_name if field_name in FIELDS else "",
            since=day("since"),
            until=day("until"),
        )

    @property
    def active(self) -> bool:
        return bool(self.agent or self.source or self.field or self.since or self.until)


def _start_of(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def changes_queryset(user: Any, filters: FeedFilters) -> QuerySet[AgentPersonaVersion]:
    """Every persona version the user may see (tenant scoping), with its agent and
    whether it undoes a learned change, narrowed by ``filters``."""
    qs = (
        scope_to_user(AgentPersonaVersion.objects.all(), user=user, path="agent__tenant_id")
        .select_related("agent")
        .annotate(undoes=_undoes())
    )
    if filters.agent:
        qs = qs.filter(agent__slug=filters.agent)
    if filters.source:
        triggers = [t for t, s in SOURCE_OF_TRIGGER.items() if s == filters.source]
        if filters.source == REVERT:
            qs = qs.filter(Q(source_type__in=triggers) | Q(undoes=True))
        elif triggers:
            qs = qs.filter(source_type__in=triggers, undoes=False)
        else:  # a trigger the page does not know, by its raw name
            qs = qs.filter(source_type=filters.source, undoes=False)
    if filters.field:
        # fields_changed is a JSON list of names; the quoted name matches one whole item
        qs = qs.filter(fields_changed__icontains=f'"{filters.field}"')
    if filters.since:
        qs = qs.filter(created_at__gte=_start_of(filters.since))
    if filters.until:
        qs = qs.filter(created_at__lt=_start_of(filters.until + timedelta(days=1)))
    return qs


_TOKEN = re.compile(r"\s+|[^\s]+")
#: a changed middle longer than this many tokens is shown as removed and added, undiffed
MAX_DIFF_TOKENS = 400


def field_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``personaweb.marks.word_diff`` of what lies between the common beginning and end
    of ``old`` and ``new``: a sentence added to a long field diffs a few words, not the
    whole field (the feed diffs every field of a page of changes)."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end = 0
    while end < len(a) - start and end < len(b) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    mid_a, mid_b = a[start : len(a) - end], b[start : len(b) - end]
    if len(mid_a) + len(mid_b) > MAX_DIFF_TOKENS:
        middle = [("del", "".join(mid_a)), ("ins", "".join(mid_b))]
    else:
        middle = word_diff("".join(mid_a), "".join(mid_b))
    runs = [("eq", "".join(a[:start])), *middle, ("eq", "".join(a[len(a) - end :]))]
    return [run for run in runs if run[1]]


def short_diff(runs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A word diff cut short: unchanged runs keep a few words either side of a change
    ("…"), and the whole stays under ``DIFF_MAX_CHARS``."""
    out: list[tuple[str, str]] = []
    for i, (op, text) in enumerate(runs):
        if op == "eq":
            words = text.split(" ")
            if len(words) > 2 * DIFF_CONTEXT_WORDS + 1:
                head = " ".join(words[:DIFF_CONTEXT_WORDS]) if i > 0 else ""
                tail = " ".join(words[-DIFF_CONTEXT_WORDS:]) if i < len(runs) - 1 else ""
                text = " ".join(x for x in (head, "…", tail) if x)
        out.append((op, text))
    total = 0
    cut: list[tuple[str, str]] = []
    for op, text in out:
        if total + len(text) > DIFF_MAX_CHARS:
            cut.append((op, text[: max(DIFF_MAX_CHARS - total, 0)].rstrip() + "…"))
            break
        cut.append((op, text))
        total += len(text)
    return cut


@dataclass
class Change:
    version: AgentPersonaVersion
    source: str
    known_source: bool
    diffs: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)

    @property
    def evidence_count(self) -> int:
        return len(self.version.evidence or [])


def changes_explained(rows: list[AgentPersonaVersion]) -> list[Change]:
    """Each version of a feed page with its source and a short word diff of each field
    it changed against the version before it (one query for all the versions before)."""
    pairs = {(v.agent_id, v.version - 1) for v in rows if v.version > 1}
    wanted = Q()
    for agent_id, number in pairs:
        wanted |= Q(agent_id=agent_id, version=number)
    before = (
        {(p.agent_id, p.version): p for p in AgentPersonaVersion.objects.filter(wanted)}
        if pairs
        else {}
    )
    out = []
    for v in rows:
        source = change_source(v.source_type, undoes=bool(getattr(v, "undoes", False)))
        old = persona_snapshot(before.get((v.agent_id, v.version - 1)))
        new = persona_snapshot(v)
        diffs = [
            (FIELDS[name], short_diff(field_diff(field_text(old[name]), field_text(new[name]))))
            for name in PERSONA_FIELDS
            if old[name] != new[name]
        ]
        out.append(Change(version=v, source=source, known_source=source in SOURCES, diffs=diffs))
    return out


# --- the chart ---------------------------------------------------------------------------


@dataclass
class Week:
    start: date
    changes: int = 0
    approved: int = 0
    turned_down: int = 0
    undone: int = 0

    @property
    def decisions(self) -> int:
        return self.approved + self.turned_down + self.undone


def _weeks(filters: FeedFilters, today: date) -> list[date]:
    """Mondays of the weeks the chart covers (oldest first)."""
    end = filters.until or today
    start = filters.since or end - timedelta(weeks=CHART_WEEKS - 1)
    end_monday = end - timedelta(days=end.weekday())
    monday = max(
        start - timedelta(days=start.weekday()), end_monday - timedelta(weeks=MAX_CHART_WEEKS - 1)
    )
    out = []
    while monday <= end_monday:
        out.append(monday)
        monday += timedelta(weeks=1)
    return out


def _monday(value: Any) -> date:
    day = value.date() if isinstance(value, datetime) else value
    return day - timedelta(days=day.weekday())


def weekly_activity(
    user: Any, filters: FeedFilters, *, today: date | None = None, counted: bool = True
) -> list[Week]:
    """Changes (the feed's filters) and decisions on proposals (approved by a person,
    turned down, undone; the assistant filter) per week. Three queries at most.

    Changes come from the maintained hourly counts (``persona.change_counts``) unless
    one assistant is asked for (its own versions are few and indexed) or a week does not
    start on a whole UTC hour in the viewer's time zone; ``counted=False`` always counts
    the versions themselves (the two agree: a test holds them together)."""
    today = today or timezone.localdate()
    mondays = _weeks(filters, today)
    weeks = {m: Week(start=m) for m in mondays}
    if not mondays:
        return []
    lower = _start_of(mondays[0])
    upper = _start_of(mondays[-1] + timedelta(weeks=1))
    bounds = _week_bounds(mondays, filters)
    if counted and not filters.agent and all(_whole_hour(b) for b in bounds):
        _count_changes(weeks, user, filters, bounds)
    else:
        _scan_changes(weeks, user, filters, lower, upper)
    proposals = scope_to_user(Proposal.objects.all(), user=user, path="agent__tenant_id").filter(
        decided_at__gte=lower, decided_at__lt=upper
    )
    if filters.agent:
        proposals = proposals.filter(agent__slug=filters.agent)
    decided = (
        proposals.annotate(week=TruncWeek("decided_at"))
        .order_by()
        .values("week")
        .annotate(
            approved=Count("id", filter=Q(applied_version__isnull=False) & ~Q(decided_by="auto")),
            turned_down=Count("id", filter=Q(status=Proposal.Status.DISMISSED)),
        )
    )
    for row in decided:
        week = weeks.get(_monday(row["week"]))
        if week is not None:
            week.approved = row["approved"]
            week.turned_down = row["turned_down"]
    return [weeks[m] for m in mondays]


def _scan_changes(
    weeks: dict[date, Week], user: Any, filters: FeedFilters, lower: datetime, upper: datetime
) -> None:
    """Changes per week counted from the versions (one aggregate query)."""
    versions = (
        changes_queryset(user, filters)
        .filter(created_at__gte=lower, created_at__lt=upper)
        .annotate(week=TruncWeek("created_at"))
        .order_by()
        .values("week")
        .annotate(n=Count("id"), undone=Count("id", filter=Q(undoes=True)))
    )
    for row in versions:
        week = weeks.get(_monday(row["week"]))
        if week is not None:
            week.changes = row["n"]
            week.undone = row["undone"]


def _week_bounds(mondays: list[date], filters: FeedFilters) -> list[datetime]:
    """The instants that cut the chart's span into its weeks (len(mondays) + 1 of them),
    the first and last narrowed to the ``since`` and ``until`` days."""
    bounds = [_start_of(m) for m in mondays] + [_start_of(mondays[-1] + timedelta(weeks=1))]
    if filters.since:
        bounds[0] = max(bounds[0], _start_of(filters.since))
    if filters.until:
        bounds[-1] = min(bounds[-1], _start_of(filters.until + timedelta(days=1)))
    return bounds


def _whole_hour(moment: datetime) -> bool:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0) == moment


def _count_changes(
    weeks: dict[date, Week], user: Any, filters: FeedFilters, bounds: list[datetime]
) -> None:
    """Changes per week from ``PersonaChangeCount`` (one query summing the hours of each
    week), corrected by the versions that undo a learned change (one query on the few
    versions that came from a proposal): such a version is a revert whatever wrote it."""
    mondays = list(weeks)
    if bounds[-1] <= bounds[0]:
        return
    week_of = Case(
        *[When(hour__lt=b, then=Value(i)) for i, b in enumerate(bounds[1:-1])],
        default=Value(len(mondays) - 1),
        output_field=IntegerField(),
    )
    triggers: list[str] = []
    if filters.source:
        triggers = [t for t, s in SOURCE_OF_TRIGGER.items() if s == filters.source] or [
            filters.source
        ]
    counts = scope_to_user(PersonaChangeCount.objects.all(), user=user, path="tenant_id").filter(
        field=filters.field, hour__gte=bounds[0], hour__lt=bounds[-1]
    )
    if triggers:
        counts = counts.filter(source_type__in=triggers)
    summed = counts.annotate(week=week_of).order_by().values("week").annotate(n=Sum("n"))
    for row in summed:
        weeks[mondays[row["week"]]].changes = row["n"] or 0
    undoing = (
        changes_queryset(user, replace(filters, source=""))
        .filter(
            Q(undoes=True),  # an annotation of changes_queryset
            proposal_id__isnull=False,
            created_at__gte=bounds[0],
            created_at__lt=bounds[-1],
        )
        .order_by()
        .values_list("created_at", "source_type")
    )
    for created_at, source_type in undoing:
        i = bisect_right(bounds, created_at) - 1
        if not 0 <= i < len(mondays):
            continue
        week = weeks[mondays[i]]
        if not filters.source:
            week.undone += 1
        elif filters.source == REVERT:
            week.undone += 1
            if source_type not in triggers:
                week.changes += 1  # counted under its writer, shown as a revert
        elif source_type in triggers:
            week.changes -= 1  # counted under its writer, shown as a revert


@dataclass
class Bar:
    cls: str
    x: float
    y: float
    width: float
    height: float
    label: str


@dataclass
class Chart:
    weeks: list[Week]
    bars: list[Bar]
    ticks: list[tuple[float, str]]
    grid: list[tuple[float, int]]
    width: int
    height: int
    top: int
    baseline: float
    tick_y: float
    total_changes: int
    total_decisions: int


def chart_for(weeks: list[Week]) -> Chart:
    """The geometry of the weekly bar chart (drawn as SVG by the template): per week a
    bar of changes and a stacked bar of decisions (approved, turned down, undone)."""
    width, height, left, top, bottom = 720, 220, 36, 12, 40
    plot_h = height - top - bottom
    peak = max([1] + [max(w.changes, w.decisions) for w in weeks])
    slot = (width - left - 8) / max(len(weeks), 1)
    bar_w = max(min(slot * 0.36, 22), 3)
    baseline = top + plot_h
    bars: list[Bar] = []
    ticks: list[tuple[float, str]] = []

    def h(n: int) -> float:
        return round(plot_h * n / peak, 2)

    for i, w in enumerate(weeks):
        x0 = left + i * slot + (slot - 2 * bar_w - 2) / 2
        when = w.start.strftime("%-d %b")
        if w.changes:
            bars.append(
                Bar(
                    "bar-changes",
                    round(x0, 2),
                    baseline - h(w.changes),
                    round(bar_w, 2),
                    h(w.changes),
                    f"week of {when}: {w.changes} change{'s' if w.changes != 1 else ''}",
                )
            )
        y: float = baseline
        for cls, n, what in (
            ("bar-approved", w.approved, "approved"),
            ("bar-turned-down", w.turned_down, "turned down"),
            ("bar-undone", w.undone, "undone"),
        ):
            if n:
                y -= h(n)
                bars.append(
                    Bar(
                        cls,
                        round(x0 + bar_w + 2, 2),
                        round(y, 2),
                        round(bar_w, 2),
                        h(n),
                        f"week of {when}: {n} {what}",
                    )
                )
        step = max(1, len(weeks) // 8)
        if i % step == 0:
            ticks.append((round(left + i * slot + slot / 2, 2), when))
    grid = [(baseline - h(n), n) for n in sorted({0, peak // 2, peak}) if n or peak]
    return Chart(
        weeks=weeks,
        bars=bars,
        ticks=ticks,
        grid=grid,
        width=width,
        height=height,
        top=top,
        baseline=baseline,
        tick_y=baseline + 18,
        total_changes=sum(w.changes for w in weeks),
        total_decisions=sum(w.decisions for w in weeks),
    )
