"""Keyset pagination for dashboard lists (and the API): opaque cursors, one query a
page, and broken cursors falling back to the first page."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime

PAGE_SIZE = 50
# What a cursor may hold: the years our rows can have (an edited cursor with year 1 or
# 9999 overflows when the database adapter moves it to UTC) and the range of a signed
# 64-bit integer column (SQLite and PostgreSQL refuse a larger parameter).
CURSOR_YEARS = (1900, 2200)
CURSOR_INT_RANGE = (-(2**63), 2**63 - 1)


def encode_cursor(values: Sequence[Any]) -> str:
    raw = json.dumps(
        [v.isoformat() if isinstance(v, datetime) else v for v in values], separators=(",", ":")
    )
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(token: str | None, *, kinds: Sequence[type]) -> list[Any] | None:
    """The values of a cursor made by ``encode_cursor``, or None when absent or broken.

    A broken cursor (edited by hand) starts from the first page instead of failing:
    so does a time without a zone or outside ``CURSOR_YEARS``, or a number outside
    ``CURSOR_INT_RANGE``.
    """
    if not token:
        return None
    try:
        raw = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, list) or len(raw) != len(kinds):
        return None
    out: list[Any] = []
    for value, kind in zip(raw, kinds, strict=True):
        if kind is datetime:
            parsed = _cursor_time(value)
            if parsed is None:
                return None
            out.append(parsed)
        elif kind is int:
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            if not CURSOR_INT_RANGE[0] <= value <= CURSOR_INT_RANGE[1]:
                return None
            out.append(value)
        else:
            if not isinstance(value, str):
                return None
            out.append(value)
    return out


def _cursor_time(value: Any) -> datetime | None:
    """An aware time from a cursor, in UTC, or None when it cannot be one of our rows'."""
    if not isinstance(value, str):
        return None
    try:
        parsed = parse_datetime(value)
    except ValueError:  # well formed but impossible, e.g. month 13
        return None
    if parsed is None or parsed.tzinfo is None or parsed.utcoffset() is None:
        return None
    low, high = CURSOR_YEARS
    if not low <= parsed.year <= high:
        return None
    return parsed.astimezone(UTC)


def keyset_after(fields: Sequence[tuple[str, bool]], values: Sequence[Any]) -> Q:
    """Rows strictly after ``values`` in the order ``fields`` ((name, descending), ...).

    (a, b) > (x, y) is written a > x OR (a = x AND b > y), which every database plans
    as an index range on the leading column.
    """
    q = Q()
    for i in range(len(fields) - 1, -1, -1):
        name, desc = fields[i]
        step = Q(**{f"{name}__{'lt' if desc else 'gt'}": values[i]})
        q = step if i == len(fields) - 1 else step | (Q(**{name: values[i]}) & q)
    return q


@dataclass
class Page:
    rows: list[Any]
    next_cursor: str | None
    is_first: bool


def keyset_page(
    qs: QuerySet,
    *,
    fields: Sequence[tuple[str, bool]],
    kinds: Sequence[type],
    cursor: str | None,
    size: int | None = None,
) -> Page:
    """One page of ``qs`` ordered by ``fields`` from ``cursor``; one query."""
    size = size or PAGE_SIZE
    values = decode_cursor(cursor, kinds=kinds)
    if values is not None:
        qs = qs.filter(keyset_after(fields, values))
    qs = qs.order_by(*[f"-{n}" if d else n for n, d in fields])
    rows = list(qs[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    next_cursor = None
    if more and rows:
        last = rows[-1]
        next_cursor = encode_cursor([_attr(last, n) for n, _ in fields])
    return Page(rows=rows, next_cursor=next_cursor, is_first=values is None)


def _attr(obj: Any, dotted: str) -> Any:
    for part in dotted.split("__"):
        obj = getattr(obj, part)
    return obj
