"""Small server-rendered SVG charts (no script, no CDN, no inline styles: the page's CSP
holds). A view builds a ``BarChart`` and the page includes ``components/_bar_chart.html``,
which draws the bars and, for people who cannot see them, the same numbers as a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Segment:
    """One series' part of one column of a stacked chart."""

    css: str
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int


@dataclass(frozen=True)
class Series:
    """One kind of thing counted: its name (the legend, the table's column), a CSS class
    (its colour) and one value per column."""

    name: str
    css: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class StackedChart:
    title: str
    description: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    segments: tuple[Segment, ...]
    width: int = WIDTH
    height: int = HEIGHT
    peak: int = 0
    slot: float = MAX_SLOT

    @property
    def label_y(self) -> int:
        return self.height - 4

    @property
    def ticks(self) -> list[tuple[float, str]]:
        """(x, label) of the first and the last column."""
        ends = sorted({0, len(self.labels) - 1}) if self.labels else []
        return [(round(i * self.slot + GAP / 2, 1), self.labels[i]) for i in ends]

    @property
    def rows(self) -> list[tuple[str, list[int], int]]:
        """(label, value per series, total) per column: the table under the chart."""
        return [
            (label, values := [s.values[i] for s in self.series], sum(values))
            for i, label in enumerate(self.labels)
        ]

    @property
    def total(self) -> int:
        return sum(sum(s.values) for s in self.series)

    @property
    def empty(self) -> bool:
        return not self.labels


def stacked_bar_chart(
    labels: Sequence[str], series: Sequence[Series], *, title: str, description: str = ""
) -> StackedChart:
    """One column per label, each stacking every series' value (the first at the
    bottom), scaled to the largest column. A series more is one more ``Series``."""
    for s in series:
        if len(s.values) != len(labels):
            raise ValueError(
                f"The series {s.name!r} has {len(s.values)} values for {len(labels)} labels."
            )
    totals = [sum(s.values[i] for s in series) for i in range(len(labels))]
    peak = max(totals, default=0)
    room = HEIGHT - LABEL_ROOM
    slot = min(WIDTH / max(len(labels), 1), MAX_SLOT)
    segments = []
    for i, label in enumerate(labels):
        y = float(room)
        for s in series:
            value = s.values[i]
            if not value:
                continue
            h = room * value / peak
            y -= h
            segments.append(
                Segment(
                    css=s.css,
                    x=round(i * slot + GAP / 2, 1),
                    y=round(y, 1),
                    width=round(max(slot - GAP, 1.0), 1),
                    height=round(h, 1),
                    label=f"{label}: {value} {s.name}",
                    value=value,
                )
            )
    return StackedChart(
        title=title,
        description=description,
        labels=tuple(labels),
        series=tuple(series),
        segments=tuple(segments),
        peak=peak,
        slot=slot,
    )
