"""The prefix route's hot path: a host's prefix fetch (``GET /v1/agents/{slug}/prefix``)
at about the cost of the health route, and never a stale prefix.

A fetch that the full path (``api.http.prefix``: ``authorize``, then the plan call
``persona.plans.plan_get_or_rotate``) has answered before in this process, for the same
token, agent slug and principal, is answered from two things this process keeps and
**one query**:

* the token's snapshot (``api.services.TokenSnapshot``, by sha256): the fields of a
  token row that never change;
* what ``authorize`` found for (token, slug, principal) (``Route``): the agent's id and
  slug, the person's id and id in the host's app. A token's scopes and bindings never
  change, so the same token asking for the same names reaches the same rows for as long
  as those rows still carry those names;
* the query, indexed reads joined and built once per database vendor, reads everything
  that can change: the token is still there and live (not revoked, not expired, its
  login active: ``api.services.token_live_sql``); the agent still has that slug in the token's tenant;
  the person still has that id in the tenant; the plan pinned for (agent, person,
  session) with the versions it was built from and the reason its epoch began; and the
  current versions: the agent's head persona version and the person's owner-document
  version, row state and mute state (``persona.plans.PlanVersions``).

When anything is missing or differs (an unknown or revoked token, a renamed agent, no plan
yet, a rotation due: a persona or guardrail edit, a standing rule approved or undone, an
owner-document change, an entry going dormant, a line or entry muted for the person:
``persona.plans.rotation_due``), the answer
here is None and the full path runs, rotates if it must, and is remembered. Nothing kept
here can serve an old prefix: it holds only facts that do not change, and reads what can
change on every call, in every process, whatever the cache backend (no invalidation to
miss). The expiry is checked against the clock on every call.

``If-None-Match`` is compared with the plan's sha256 before anything is encoded: a 304
encodes nothing. The rate limit (``api.services.rate_limit_check``) counts a call answered
here as one, like any other.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection
from django.utils import timezone

from api import handlers, services
from api.models import ApiToken


@dataclass(frozen=True)
class Route:
    """What ``authorize`` found for one (token, slug, principal) of the prefix route."""

    agent_id: int
    slug: str
    #: the person of the plan (None: a plan for nobody)
    principal_id: int | None
    external_id: str
    principal_key: str


class Answer(NamedTuple):
    sha256: str
    #: the answer's JSON (``PrefixOut``); None when ``If-None-Match`` holds the sha256 (304)
    body: dict[str, Any] | None


#: by (token sha256, slug, principal as sent); emptied when it grows past the cap
_ROUTES: dict[tuple[str, str, str], Route] = {}
_ROUTES_MAX = 8192


def _key(raw: str | None, slug: str, principal: str | None) -> tuple[str, str, str] | None:
    raw = (raw or "").strip()
    if not raw or len(raw) > services.MAX_TOKEN_CHARS:
        return None
    return services.token_sha256(raw), slug, principal or ""


def remember(*, raw: str | None, slug: str, principal: str | None, target: Any, plan: Any) -> None:
    """After the full path answered: what it found, for the next fetch of the same names."""
    key = _key(raw, slug, principal)
    if key is None:
        return
    external = plan.principal.external_id if plan.principal_id else ""
    if len(_ROUTES) >= _ROUTES_MAX:
        _ROUTES.clear()
    _ROUTES[key] = Route(
        agent_id=plan.agent_id,
        slug=target.agent.slug,
        principal_id=plan.principal_id,
        external_id=external,
        principal_key=plan.principal_key,
    )


@functools.cache
def _sql(vendor: str) -> str:
    from memory.models import Principal
    from persona.models import ContextPlan, OwnerDocument, PlanRotation
    from tenancy.models import Agent

    q = connection.ops.quote_name

    def table(model: Any) -> str:
        return q(model._meta.db_table)

    def col(model: Any, name: str) -> str:
        return q(model._meta.get_field(name).column)

    A, P, D, C, R = Agent, Principal, OwnerDocument, ContextPlan, PlanRotation
    token_joins, token_live = services.token_live_sql(vendor)
    select = ", ".join(
        [
            f"a.{col(A, 'persona_version')}",
            f"d.{col(D, 'version')}",
            f"d.{col(D, 'row_state')}",
            f"p.{col(P, 'id')}",
            f"c.{col(C, 'id')}",
            f"c.{col(C, 'epoch')}",
            f"c.{col(C, 'persona_version')}",
            f"c.{col(C, 'owner_doc_version')}",
            f"c.{col(C, 'owner_doc_state')}",
            f"c.{col(C, 'prefix_sha256')}",
            # the text only when the caller does not hold it: a 304 moves no prefix bytes
            f"CASE WHEN c.{col(C, 'prefix_sha256')} = %s THEN '' ELSE c.{col(C, 'prefix_text')} END",
            f"c.{col(C, 'token_count')}",
            f"r.{col(R, 'reason')}",
            f"d.{col(D, 'mute_state')}",
            f"c.{col(C, 'mute_state')}",
        ]
    )
    tenant = col(ApiToken, "tenant")
    # the token's bindings are asked again too (they never change: defence in depth)
    bound_agent, bound_person = col(ApiToken, "agent"), col(ApiToken, "principal")
    return (
        f"SELECT {select} FROM {table(ApiToken)} t {token_joins} "
        f"INNER JOIN {table(A)} a ON (a.{col(A, 'id')} = %s AND a.{col(A, 'slug')} = %s "
        f"AND a.{col(A, 'tenant')} = t.{tenant} "
        f"AND (t.{bound_agent} IS NULL OR t.{bound_agent} = a.{col(A, 'id')})) "
        f"LEFT OUTER JOIN {table(P)} p ON (p.{col(P, 'id')} = %s "
        f"AND p.{col(P, 'tenant')} = t.{tenant} AND p.{col(P, 'external_id')} = %s) "
        f"LEFT OUTER JOIN {table(D)} d ON (d.{col(D, 'principal')} = p.{col(P, 'id')}) "
        f"LEFT OUTER JOIN {table(C)} c ON (c.{col(C, 'agent')} = a.{col(A, 'id')} "
        f"AND c.{col(C, 'principal_key')} = %s AND c.{col(C, 'session_key')} = %s) "
        f"LEFT OUTER JOIN {table(R)} r ON (r.{col(R, 'plan')} = c.{col(C, 'id')} "
        f"AND r.{col(R, 'to_epoch')} = c.{col(C, 'epoch')}) "
        f"WHERE {token_live} "
        f"AND (t.{bound_person} IS NULL OR t.{bound_person} = p.{col(P, 'id')})"
    )


def answer(
    *, raw: str | None, slug: str, principal: str | None, session: str, if_none_match: str
) -> Answer | None:
    """The answer from what this process keeps and one query, or None: then the full
    path must run (and ``remember`` what it found)."""
    from persona.plans import PlanVersions, rotation_due

    key = _key(raw, slug, principal)
    if key is None:
        return None
    route = _ROUTES.get(key)
    if route is None:
        return None
    now = timezone.now()
    token = services.remembered_token(raw, now=now)
    if token is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            _sql(connection.vendor),
            [
                services.etag_named(if_none_match),
                route.agent_id,
                route.slug,
                route.principal_id,
                route.external_id,
                route.principal_key,
                session,
                *services.token_live_params(token, now=now),
            ],
        )
        row = cursor.fetchone()
    if row is None:
        return None  # the token is gone or refused, or the agent lost its slug
    head, doc_version, doc_state, person_id, plan_id, epoch = row[:6]
    pinned = PlanVersions(row[6], row[7], row[8] or 0, row[14] or 0)
    sha256, text, tokens, reason = row[9:13]
    if plan_id is None or (route.principal_id is not None and person_id is None):
        return None
    current = PlanVersions(head, doc_version or None, doc_state or 0, row[13] or 0)
    if rotation_due(pinned=pinned, current=current) is not None:
        return None
    services.token_used(token, now=now)
    services.rate_limit_check(token)
    if services.etag_matches(if_none_match, sha256):
        return Answer(sha256=sha256, body=None)
    body = handlers.prefix_answer(
        prefix=text,
        sha256=sha256,
        epoch=epoch,
        persona_version=pinned.persona_version,
        tokens=tokens,
        rotated_reason=(reason or None) if epoch > 1 else None,
    )
    return Answer(sha256=sha256, body=body)
