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
