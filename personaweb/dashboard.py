"""Helpers shared by the dashboard views: tenant scoping, roles per agent, keyset
pagination, htmx responses with the messages region, diffs and quote marks.

Every dashboard view finds its agent through ``agent_for_user`` so another tenant's
agent is a 404 (never a 403, which would confirm that the slug exists).
"""

from __future__ import annotations

import base64
import difflib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.dateparse import parse_datetime
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails

from personaweb.roles import is_operator, is_reviewer, visible_tenant_ids

PAGE_SIZE = 50


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (django-htmx's example app)."""

    htmx: HtmxDetails


# --- scoping and roles --------------------------------------------------------------


def scope_to_user(qs: QuerySet, *, user: AbstractBaseUser | AnonymousUser, path: str) -> QuerySet:
    """``qs`` limited to rows whose tenant (at ``path``) the user may see."""
    tids = visible_tenant_ids(user)
    if tids is None:
        return qs
    return qs.filter(**{f"{path}__in": tids})


def visible_agents(user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    from tenancy.models import Agent

    return scope_to_user(Agent.objects.all(), user=user, path="tenant_id")


def agent_for_user(request: HttpRequest, slug: str, *, with_learning: bool = False):
    """The agent ``slug`` if the user may see it; 404 otherwise (also for other tenants)."""
    qs = visible_agents(request.user).select_related("tenant")
    if with_learning:
        qs = qs.select_related("learning")
    agent = qs.filter(slug=slug).first()
    if agent is None:
        raise Http404("No agent with that name here.")
    return agent


def require_operator(request: HttpRequest) -> None:
    if not is_operator(request.user):
        raise PermissionDenied("Only an operator may do this.")


def require_reviewer(request: HttpRequest) -> None:
    if not is_reviewer(request.user):
        raise PermissionDenied("Only a reviewer or an operator may do this.")


def learning_settings_of(agent) -> Any:
    """The agent's LearningSettings row if loaded or present, else None (no write)."""
    from learning.models import LearningSettings

    try:
        return agent.learning
    except LearningSettings.DoesNotExist:
        return None


def rule_owner_names(settings: Any) -> list[str]:
    return [
        str(n).strip() for n in (getattr(settings, "rule_owners", None) or []) if str(n).strip()
    ]


def is_rule_owner(user: AbstractBaseUser | AnonymousUser, settings: Any) -> bool:
    """May ``user`` write this agent's standing rules (approve a rule, edit by hand)?

    Rule owners are usernames in the agent's learning settings; an empty list means any
    named reviewer or operator of the agent's tenant (``personaweb.roles``). Named means
    named: a superuser outside the list is refused too, as the learning services do.
    Tenant visibility is checked before this, by ``agent_for_user``.
    """
    if not user.is_authenticated:
        return False
    owners = rule_owner_names(settings)
    if not owners:
        return is_reviewer(user)  # superusers included
    return user.get_username().casefold() in {o.casefold() for o in owners}


# --- keyset pagination -----------------------------------------------------------------


def encode_cursor(values: Sequence[Any]) -> str:
    raw = json.dumps(
        [v.isoformat() if isinstance(v, datetime) else v for v in values], separators=(",", ":")
    )
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(token: str | None, *, kinds: Sequence[type]) -> list[Any] | None:
    """The values of a cursor made by ``encode_cursor``, or None when absent or broken.

    A broken cursor (edited by hand) starts from the first page instead of failing.
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
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if parsed is None:
                return None
            out.append(parsed)
        elif kind is int:
            if not isinstance(value, int):
                return None
            out.append(value)
        else:
            if not isinstance(value, str):
                return None
            out.append(value)
    return out


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


def query_without(request: HttpRequest, *drop: str) -> str:
    """The request's query string without ``drop`` keys (for links that change one)."""
    params = request.GET.copy()
    for key in drop:
        params.pop(key, None)
    return params.urlencode()


# --- htmx responses ------------------------------------------------------------------


def is_partial(request: HttpRequest) -> bool:
    """An htmx swap (not a history restore, which needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def with_messages_oob(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Append the messages region out of band to an htmx response, so Django messages
    added while handling an htmx request show at once (and are not left for the next
    full page)."""
    html = render_to_string("persona/_messages_oob.html", request=request)
    response.content = response.content + html.encode()
    return response


def safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


# --- word diffs ----------------------------------------------------------------------

_TOKEN = re.compile(r"\s+|[^\s]+")


def field_text(value: Any) -> str:
    """A persona field as text for a diff: lists become numbered lines."""
    if isinstance(value, list):
        return "\n".join(f"{i}. {item}" for i, item in enumerate(value, start=1))
    return str(value or "")


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """(op, text) runs of a word diff: op is "eq", "ins" or "del".

    Words and the white space between them are the units, so a sentence appended to a
    paragraph shows as one inserted run and nothing else moves.
    """
    a = _TOKEN.findall(old)
    b = _TOKEN.findall(new)
    out: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(("eq", "".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            out.append(("del", "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            out.append(("ins", "".join(b[j1:j2])))
    return [run for run in out if run[1]]


# --- quote marks ----------------------------------------------------------------------


def marked_segments(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_marked) runs for the character spans given.

    Overlapping and touching spans merge; spans outside the text are clipped; the
    template escapes each piece, so nothing here is trusted HTML.
    """
    n = len(text)
    clean = sorted(
        (max(0, s), min(n, e)) for s, e in spans if isinstance(s, int) and isinstance(e, int)
    )
    merged: list[list[int]] = []
    for s, e in clean:
        if s >= e:
            continue
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out: list[tuple[str, bool]] = []
    pos = 0
    for s, e in merged:
        if s > pos:
            out.append((text[pos:s], False))
        out.append((text[s:e], True))
        pos = e
    if pos < n or not out:
        out.append((text[pos:], False))
    return out


def group_quotes(evidence: Any) -> list[dict[str, Any]]:
    """Evidence quotes grouped by conversation and person, in first-seen order.

    Each group: conversation_id, conversation_label, person, quotes (the evidence dicts).
    """
    groups: dict[tuple[Any, Any], dict[str, Any]] = {}
    for item in evidence if isinstance(evidence, list) else []:
        if not isinstance(item, dict):
            continue
        # learning stores "conversation" and "user"; older records the long names
        person = item.get("principal_external_id") or item.get("user") or ""
        key = (item.get("conversation_id"), person)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "conversation_id": item.get("conversation_id"),
                "conversation_label": item.get("conversation_label")
                or item.get("conversation")
                or item.get("conversation_id"),
                "person": person,
                "quotes": [],
            }
        group["quotes"].append(item)
    return list(groups.values())


def quote_mark_param(item: dict[str, Any]) -> str:
    """``message_id:start:end`` for a conversation link that marks this quote."""
    try:
        return f"{int(item['message_id'])}:{int(item['start'])}:{int(item['end'])}"
    except (KeyError, TypeError, ValueError):
        return ""


def parse_mark_params(values: Iterable[str]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for value in values:
        parts = value.split(":")
        if len(parts) != 3:
            continue
        try:
            mid, start, end = (int(p) for p in parts)
        except ValueError:
            continue
        out.setdefault(mid, []).append((start, end))
    return out


# --- refusals -----------------------------------------------------------------------


def refusal_types() -> tuple[type[Exception], ...]:
    """Exceptions whose message is a sentence for a person."""
    from personaweb.errors import Refusal

    return (Refusal,)
