"""Small server-rendered SVG charts (no script, no CDN, no inline styles: the page's CSP
holds). A view builds a ``BarChart`` and the page includes ``components/_bar_chart.html``,
which draws the bars and, for people who cannot see them, the same numbers as a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

WIDTH = 640
HEIGHT = 140
GAP = 4
#: a bar never gets wider than this (a few days of data stay readable bars)
MAX_SLOT = 48
LABEL_ROOM = 18


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int


@dataclass(frozen=True)
class BarChart:
    title: str
    description: str
    bars: tuple[Bar, ...]
    width: int = WIDTH
    height: int = HEIGHT
    peak: int = 0

    @property
    def label_y(self) -> int:
        return self.height - 4

    @property
    def empty(self) -> bool:
        return not self.bars


def bar_chart(points: Sequence[tuple[str, int]], *, title: str, description: str = "") -> BarChart:
    """One bar per ``(label, value)``, scaled to the largest value."""
    peak = max((v for _, v in points), default=0)
    room = HEIGHT - LABEL_ROOM
    slot = min(WIDTH / max(len(points), 1), MAX_SLOT)
    bars = []
    for i, (label, value) in enumerate(points):
        h = 0.0 if peak == 0 else room * value / peak
        bars.append(
            Bar(
                x=round(i * slot + GAP / 2, 1),
                y=round(room - h, 1),
                width=round(max(slot - GAP, 1.0), 1),
                height=round(h, 1),
                label=label,
                value=value,
            )
        )
    return BarChart(title=title, description=description, bars=tuple(bars), peak=peak)


# --- stacked bars over periods (weeks, months) -----------------------------------------


@dataclass(frozen=True)
class Series:
    """One kind of count in a stacked chart: its key in each period's values, the
    word people read, and the CSS class that colours its bars and legend swatch."""

    key: str
    label: str
    css: str


@dataclass(frozen=True)
class Segment:
    css: str
    x: float
    y: float
    width: float
    height: float
    label: str  # "week of 3 Nov: 2 approved"


@dataclass(frozen=True)
class Row:
    """One period as the chart's table shows it: its long label and the counts in
    series order."""

    label: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class StackedChart:
    title: str
    description: str
    period_name: str  # the table's first column ("Week of", "Month")
    series: tuple[Series, ...]
    segments: tuple[Segment, ...]
    rows: tuple[Row, ...]
    ticks: tuple[tuple[float, str], ...]
    grid: tuple[tuple[float, int], ...]
    totals: tuple[int, ...]
    width: int
    height: int
    left: int
    tick_y: float

    @property
    def total(self) -> int:
        return sum(self.totals)

    @property
    def empty(self) -> bool:
        return self.total == 0


def stacked_chart(
    periods: Sequence[tuple[str, str, dict[str, int]]],
    series: Sequence[Series],
    *,
    title: str,
    description: str,
    period_name: str,
) -> StackedChart:
    """One stacked bar per period. ``periods`` are ``(tick, long label, {key: count})``
    oldest first; a series missing from a period counts 0. The geometry is worked out
    here; ``components/_stacked_chart.html`` draws it, with a legend and the same
    numbers as a table for people who cannot see the bars."""
    width, height, left, top, bottom = 720, 200, 36, 12, 36
    plot_h = height - top - bottom
    baseline = top + plot_h
    rows = tuple(
        Row(label=long, values=tuple(int(values.get(s.key, 0)) for s in series))
        for _, long, values in periods
    )
    peak = max([1] + [sum(r.values) for r in rows])
    slot = (width - left - 8) / max(len(rows), 1)
    bar_w = max(min(slot * 0.6, 28), 3)
    step = max(1, len(rows) // 8)
    segments: list[Segment] = []
    ticks: list[tuple[float, str]] = []

    def h(n: int) -> float:
        return round(plot_h * n / peak, 2)

    for i, ((tick, long, _), row) in enumerate(zip(periods, rows, strict=True)):
        x = round(left + i * slot + (slot - bar_w) / 2, 2)
        y: float = baseline
        for s, n in zip(series, row.values, strict=True):
            if n:
                y -= h(n)
                segments.append(
                    Segment(s.css, x, round(y, 2), round(bar_w, 2), h(n), f"{long}: {n} {s.label}")
                )
        if i % step == 0:
            ticks.append((round(left + i * slot + slot / 2, 2), tick))
    grid = tuple((baseline - h(n), n) for n in sorted({0, peak // 2, peak}))
    totals = tuple(sum(r.values[k] for r in rows) for k in range(len(series)))
    return StackedChart(
        title=title,
        description=description,
        period_name=period_name,
        series=tuple(series),
        segments=tuple(segments),
        rows=rows,
        ticks=tuple(ticks),
        grid=grid,
        totals=totals,
        width=width,
        height=height,
        left=left,
        tick_y=baseline + 18,
    )


def week_starts(today: date, count: int) -> list[date]:
    """The Mondays of the ``count`` weeks up to and including ``today``'s, oldest first."""
    monday = today - timedelta(days=today.weekday())
    return [monday - timedelta(weeks=k) for k in range(count - 1, -1, -1)]


def month_starts(today: date, count: int) -> list[date]:
    """The first days of the ``count`` months up to and including ``today``'s, oldest
    first."""
    out: list[date] = []
    year, month = today.year, today.month
    for _ in range(count):
        out.append(date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return out[::-1]
