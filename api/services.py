"""Writes and checks of the api app: tokens (make, revoke) and the one function every
HTTP route and the MCP server over HTTP use to turn a bearer token into access."""

from __future__ import annotations

import functools
import hashlib
import math
import re
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from api import selectors
from api.errors import Forbidden, NotFound, RateLimited, Unauthorized
from api.models import PERSONA_SCOPES, SCOPES, ApiToken
from personaweb.actors import (
    HOST,
    LEARNING_READ,
    MEMORY_READ,
    MEMORY_WRITE,
    PERSONA_READ,
    PERSONA_WRITE,
    Actor,
)
from personaweb.errors import Refusal
from personaweb.roles import is_reviewer
from tenancy.access import visible_tenant_ids

TOKEN_PREFIX = "pw_"
MAX_TOKEN_CHARS = 200
MAX_NAME_CHARS = 100
_NAME = re.compile(r"^[\w.@+-]+$")
#: ``last_used_at`` is written at most this often per token: the prefix route is the
#: hot path and must not write on every call.
LAST_USED_EVERY = timedelta(seconds=60)
DECIDE = "learning.decide"


class TokenInputError(Refusal):
    """A token could not be made or revoked; the message says what to fix."""


class HostInputError(Refusal):
    """A host's request cannot be carried out as sent; the message says what to fix."""


@dataclass(frozen=True)
class Access:
    """What a token reaches: its tenant, its bound agent (if any), its user (if any),
    and the agent a route named (checked against both)."""

    token: ApiToken
    #: the agent the route named (None when it named none)
    agent: Any = None

    @property
    def tenant_id(self) -> int:
        return self.token.tenant_id

    @property
    def user(self) -> Any | None:
        return self.token.user

    @property
    def principal(self) -> Any | None:
        """The person the token is bound to (the persona routes act on their document)."""
        return self.token.principal

    @property
    def by(self) -> str:
        """Who acts, for records: the bound user's name, else the token's name."""
        if self.token.user is not None:
            return self.token.user.get_username()
        return f"token:{self.token.name}"


def actor_for_token(token: ApiToken | TokenSnapshot) -> Actor:
    """The actor a live token acts as: its tenant, its scopes as capabilities, its agent
    and person bindings, and the login it is bound to (decisions are theirs; read now,
    so its roles are today's)."""
    if isinstance(token, TokenSnapshot):
        user = get_user_model().objects.get(pk=token.user_id) if token.user_id else None
        token_id = token.id
    else:
        user, token_id = token.user, token.pk
    return Actor(
        kind="token",
        name=f"token:{token.name}" if user is None else user.get_username(),
        tenant_ids=frozenset({token.tenant_id}),
        capabilities=frozenset(token.scopes),
        user=user,
        agent_id=token.agent_id,
        principal_id=token.principal_id,
        token_id=token_id,
    )


def actor_for_stdio(*, agent: Any, principal: str | None, tenant_wide: bool) -> Actor:
    """The actor of ``manage.py mcp`` over stdio: a local process trusted like the CLI
    for one agent and, unless started tenant-wide, one person (by the host's id; they
    may not be stored yet: their first turn makes them). It reads the person's own
    document and reinforces its entries but never writes their text or decides their
    nominations (``Operation.owner_only``): only the person does."""
    capabilities = {HOST, MEMORY_READ, MEMORY_WRITE, LEARNING_READ, PERSONA_READ, PERSONA_WRITE}
    return Actor(
        kind="system",
        name="mcp-stdio",
        tenant_ids=frozenset({agent.tenant_id}),
        capabilities=frozenset(capabilities),
        agent_id=agent.pk,
        principal_key=None if tenant_wide else principal,
    )


def token_sha256(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def clean_scopes(scopes: Iterable[str] | str) -> list[str]:
    if isinstance(scopes, str):
        scopes = scopes.split(",")
    out: list[str] = []
    for scope in scopes:
        scope = str(scope).strip()
        if not scope:
            continue
        if scope not in SCOPES:
            raise TokenInputError(f"Unknown scope {scope!r}; scopes are {', '.join(SCOPES)}.")
        if scope not in out:
            out.append(scope)
    if not out:
        raise TokenInputError(f"Give at least one scope: {', '.join(SCOPES)}.")
    return out


def _may_decide_in(user: Any, tenant_id: int) -> bool:
    """The dashboard's rule for decisions: an active reviewer or operator (or a
    superuser) who belongs to the tenant."""
    if user is None or not user.is_active or not is_reviewer(user):
        return False
    tenant_ids = visible_tenant_ids(user)
    return tenant_ids is None or tenant_id in tenant_ids


#: ``--expires-in`` / the tokens page: a number and a unit (minutes, hours, days, weeks)
_EXPIRES_IN = re.compile(r"^(\d{1,5})\s*([mhdw])$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
EXPIRY_HELP = "e.g. 30d, 12h, 2w or a date such as 2030-01-31 (the end of that day, UTC)"


def parse_expiry(value: str, *, now: datetime | None = None) -> datetime | None:
    """When a token made now with ``value`` expires (None: ``value`` is empty, never).

    ``value`` is a duration (``30d``, ``12h``, ``2w``, ``90m``), a date (the end of that
    day, UTC) or an ISO date and time; it must lie in the future."""
    value = (value or "").strip().lower()
    if not value:
        return None
    now = now or timezone.now()
    found = _EXPIRES_IN.match(value)
    if found:
        at = now + timedelta(**{_UNITS[found.group(2)]: int(found.group(1))})
    else:
        try:
            parsed = datetime.fromisoformat(value.upper())
        except ValueError:
            raise TokenInputError(
                f"The expiry {value[:40]!r} is not readable: give {EXPIRY_HELP}."
            ) from None
        if len(value) == 10:  # a date alone: the token works through that whole day
            parsed = parsed.replace(hour=23, minute=59, second=59)
        at = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    if at <= now:
        raise TokenInputError(
            f"The expiry {value[:40]!r} is not in the future; give {EXPIRY_HELP}."
        )
    return at


def _owner_token_maker(
    *, principal: Any, user: Any | None, creator: Any | None, on_behalf: bool, created_by: str
) -> tuple[Any | None, bool, str]:
    """(user, on_behalf, created_by) of a token that reads or writes ``principal``'s
    persona document, or a refusal. The owner document is written by its owner: such a
    token is made by the login linked to that person (``persona.owner_accounts``), and is
    then bound to that login; or by a superuser, or the server's command line with an
    explicit ``on_behalf``, recorded as made on their behalf."""
    from persona.owner_accounts import owner_user_id

    who = principal.external_id
    if creator is not None and creator.is_active and owner_user_id(principal.pk) == creator.pk:
        if user is not None and user.pk != creator.pk:
            raise TokenInputError(
                "A token for your own persona document acts as you; it cannot be bound to "
                "another login."
            )
        return creator, False, creator.get_username()
    if creator is not None and creator.is_active and creator.is_superuser:
        return user, True, f"superuser {creator.get_username()} on behalf of {who}"
    if creator is None and on_behalf:
        return user, True, f"superuser ({created_by or 'command line'}) on behalf of {who}"
    raise TokenInputError(
        f"Only {who}'s own login may make a token that reads or writes their persona "
        "document: they make it on the API tokens page, signed in as themselves (their "
        "login is linked to them with `manage.py persona owner link`). A superuser may make "
        "one on their behalf, recorded as such (on the command line: --on-behalf)."
    )


@transaction.atomic
def token_create(
    *,
    tenant: Any,
    name: str,
    scopes: Iterable[str] | str,
    agent: Any | None = None,
    user: Any | None = None,
    principal: Any | None = None,
    created_by: str = "",
    creator: Any | None = None,
    on_behalf: bool = False,
    expires_at: datetime | None = None,
) -> tuple[ApiToken, str]:
    """Make a token; return it and the token text, which is shown once and never stored.

    ``learning.decide`` needs ``user``: decisions are made by a named person, a reviewer
    or operator of the tenant (rule owners for standing rules, checked per decision).
    ``persona.read`` / ``persona.write`` need ``principal``, a person of the tenant: the
    token reads and writes that person's own persona document, nobody else's; and it is
    made by that person's own login (``creator``) or by a superuser on their behalf
    (``creator`` a superuser, or no creator and ``on_behalf``: the command line), see
    ``_owner_token_maker``. ``creator`` is the login making the token (pages); the command
    line has none. ``expires_at``: the token is refused from then on.
    """
    name = (name or "").strip()
    if not name:
        raise TokenInputError("Give the token a name, e.g. the host that will use it.")
    if len(name) > MAX_NAME_CHARS or not _NAME.match(name):
        raise TokenInputError(
            f"The token name {name[:40]!r} is not usable: at most {MAX_NAME_CHARS} letters, "
            "digits and . @ + - _ (no spaces)."
        )
    clean = clean_scopes(scopes)
    if agent is not None and agent.tenant_id != tenant.pk:
        raise TokenInputError(f"The agent {agent.slug!r} is not in the tenant {tenant.slug!r}.")
    if principal is not None and principal.tenant_id != tenant.pk:
        raise TokenInputError(
            f"The person {principal.external_id!r} is not in the tenant {tenant.slug!r}."
        )
    if principal is None and any(s in clean for s in PERSONA_SCOPES):
        raise TokenInputError(
            "A token with persona.read or persona.write must be bound to the person whose "
            "persona document it reads and writes (--principal THEIR_ID on the command line; "
            "'person' on the tokens page)."
        )
    if principal is not None and any(s in clean for s in PERSONA_SCOPES):
        user, on_behalf, created_by = _owner_token_maker(
            principal=principal,
            user=user,
            creator=creator,
            on_behalf=on_behalf,
            created_by=(created_by or "").strip(),
        )
    else:
        on_behalf = False
        if creator is not None and not created_by:
            created_by = creator.get_username()
    if expires_at is not None and expires_at <= timezone.now():
        raise TokenInputError(f"The expiry is not in the future; give {EXPIRY_HELP}.")
    if DECIDE in clean:
        if user is None:
            raise TokenInputError(
                "A token with learning.decide must be bound to the person who decides (--user "
                "on the command line; 'decisions made with this token are mine' on the tokens "
                "page): decisions are made by a named person."
            )
        if not _may_decide_in(user, tenant.pk):
            raise TokenInputError(
                f"{user.get_username()} may not decide in {tenant.slug}: give a reviewer or "
                "operator who belongs to the tenant."
            )
    if user is not None and not user.is_active:
        raise TokenInputError(f"{user.get_username()} is not an active account.")
    if ApiToken.objects.filter(tenant=tenant, name=name, revoked_at__isnull=True).exists():
        raise TokenInputError(
            f"A token called {name!r} exists already in {tenant.slug}; revoke it first or choose another name."
        )
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        tenant=tenant,
        name=name,
        agent=agent,
        user=user,
        principal=principal,
        scopes=clean,
        sha256=token_sha256(raw),
        hint=raw[:10],
        created_by=(created_by or "").strip()[:150],
        on_behalf=on_behalf,
        expires_at=expires_at,
    )
    token.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            token.save()
    except IntegrityError:
        raise TokenInputError(
            f"A token called {name!r} was made in {tenant.slug} at the same moment; choose another name."
        ) from None
    return token, raw


@transaction.atomic
def token_revoke(*, token: ApiToken, by: str) -> ApiToken:
    """Revoke a token at once: the next call with it is a 401 (every call asks the
    database whether its token is still live, ``token_live_sql``, so this holds in every
    process, whatever cache it has)."""
    locked = ApiToken.objects.select_for_update().get(pk=token.pk)
    if locked.revoked_at is not None:
        raise TokenInputError(f"The token {locked.name!r} was revoked already.")
    locked.revoked_at = timezone.now()
    locked.revoked_by = (by or "").strip()[:150]
    locked.save(update_fields=["revoked_at", "revoked_by"])
    sha256 = locked.sha256
    # tidiness only: this process forgets what it kept of the token
    transaction.on_commit(lambda: _SNAPSHOTS.pop(sha256, None))
    return locked


def token_authenticate(
    *, raw: str | None, scope: str | Iterable[str], agent_slug: str | None = None
) -> Access:
    """The one check of a bearer token: it exists and is live (else ``Unauthorized``),
    carries one of ``scope`` (else ``Forbidden``) and, with ``agent_slug``, reaches that
    agent: in its tenant and, for a bound token, the bound one (else ``NotFound``, the
    same answer as for an agent that does not exist).

    Two indexed reads with an agent, one without; ``last_used_at`` is written at most
    once a minute.
    """
    raw = (raw or "").strip()
    if not raw or len(raw) > MAX_TOKEN_CHARS:
        raise Unauthorized(
            "Send a valid API token: Authorization: Bearer <token> (make one with "
            "`manage.py api token create` or on the API tokens page)."
        )
    token = selectors.token_by_sha256(token_sha256(raw))
    if token is None or token.revoked_at is not None:
        raise Unauthorized("This API token is not valid: it is unknown or was revoked.")
    if token.expires_at is not None and token.expires_at <= timezone.now():
        raise Unauthorized(
            f"This API token expired on {token.expires_at:%Y-%m-%d %H:%M} UTC; make a new one "
            "with `manage.py api token create` or on the API tokens page."
        )
    if token.user is not None and not token.user.is_active:
        raise Unauthorized("The account this API token is bound to is not active.")
    wanted = (scope,) if isinstance(scope, str) else tuple(scope)
    if not any(s in token.scopes for s in wanted):
        raise Forbidden(
            f"This API token lacks the scope {' or '.join(wanted)}; make a token with "
            f"--scopes {wanted[0]}."
        )
    agent = None
    if agent_slug is not None:
        agent = selectors.agent_in_tenant(tenant_id=token.tenant_id, slug=agent_slug)
        if agent is None or (token.agent_id is not None and agent.pk != token.agent_id):
            raise NotFound("No agent with that name here.")
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return Access(token=token, agent=agent)


# --- the token of a call, from what this process keeps ------------------------------


@dataclass(frozen=True)
class TokenSnapshot:
    """What never changes about a token: its row is written once, and later only
    ``revoked_at`` and ``last_used_at`` change (the admin shows tokens read-only).

    A process keeps the snapshot of every live token it has checked (by sha256, so a
    snapshot can only ever be found by the token itself), so a call does not read the row
    and build a model again. What can change is asked anew on every call, in the
    database: is the token still there, not revoked, not expired by the clock of this call
    and its login active (``token_live_sql``; the prefix route asks it in the same query
    as its plan, ``api.prefix``). That is why a revocation, an expiry or a deactivated
    login takes effect at the very next call in every process, with any cache backend,
    and no cache entry has to be invalidated.
    """

    sha256: str
    id: int
    tenant_id: int
    name: str
    scopes: frozenset[str]
    agent_id: int | None
    principal_id: int | None
    user_id: int | None
    expires_at: datetime | None

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now


#: live tokens this process has checked, by sha256 (emptied when it grows past the cap)
_SNAPSHOTS: dict[str, TokenSnapshot] = {}
_SNAPSHOTS_MAX = 2048
#: when this process last wrote (or saw) a token's ``last_used_at``, by sha256
_LAST_USED: dict[str, datetime] = {}


def _remember(token: ApiToken) -> TokenSnapshot:
    snapshot = TokenSnapshot(
        sha256=token.sha256,
        id=token.pk,
        tenant_id=token.tenant_id,
        name=token.name,
        scopes=frozenset(token.scopes),
        agent_id=token.agent_id,
        principal_id=token.principal_id,
        user_id=token.user_id,
        expires_at=token.expires_at,
    )
    if len(_SNAPSHOTS) >= _SNAPSHOTS_MAX:
        _SNAPSHOTS.clear()
        _LAST_USED.clear()
    _SNAPSHOTS[token.sha256] = snapshot
    _LAST_USED[token.sha256] = token.last_used_at or timezone.now()
    return snapshot


def remembered_token(raw: str | None, *, now: datetime) -> TokenSnapshot | None:
    """The snapshot of the token ``raw`` if this process has checked it before and it
    has not expired by ``now``; None otherwise (then ``token_authenticate`` decides).
    Whether it is still live is NOT known from this: the caller asks ``token_live_sql``
    in its own query."""
    raw = (raw or "").strip()
    if not raw or len(raw) > MAX_TOKEN_CHARS:
        return None
    snapshot = _SNAPSHOTS.get(token_sha256(raw))
    if snapshot is None or snapshot.expired(now):
        return None
    return snapshot


@functools.cache
def token_live_sql(vendor: str) -> tuple[str, str]:
    """(joins, condition) in SQL: the token row, aliased ``t``, is there, not revoked,
    not expired and its login (``u``) active, for ``FROM <token table> t <joins> WHERE
    <condition>``; the condition's parameters are ``token_live_params``."""
    from django.db import connection

    q = connection.ops.quote_name
    user_model = get_user_model()

    def col(model: Any, name: str) -> str:
        return q(model._meta.get_field(name).column)

    joins = (
        f"LEFT OUTER JOIN {q(user_model._meta.db_table)} u "
        f"ON u.{col(user_model, 'id')} = t.{col(ApiToken, 'user')}"
    )
    expires = col(ApiToken, "expires_at")
    condition = (
        f"t.{col(ApiToken, 'sha256')} = %s AND t.{col(ApiToken, 'revoked_at')} IS NULL "
        f"AND (t.{col(ApiToken, 'user')} IS NULL OR u.{col(user_model, 'is_active')} = %s) "
        f"AND (t.{expires} IS NULL OR t.{expires} > %s)"
    )
    return joins, condition


def token_live_params(snapshot: TokenSnapshot, *, now: datetime) -> list[Any]:
    from django.db import connection

    return [snapshot.sha256, True, connection.ops.adapt_datetimefield_value(now)]


def _still_live(snapshot: TokenSnapshot, *, now: datetime) -> bool:
    from django.db import connection

    joins, condition = token_live_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {connection.ops.quote_name(ApiToken._meta.db_table)} t "
            f"{joins} WHERE {condition}",
            token_live_params(snapshot, now=now),
        )
        return cursor.fetchone() is not None


def token_used(snapshot: TokenSnapshot, *, now: datetime) -> None:
    """Write ``last_used_at`` at most once a minute per token and process: the hot path
    must not write on every call."""
    if now - _LAST_USED.get(snapshot.sha256, now - LAST_USED_EVERY) >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=snapshot.id).update(last_used_at=now)
        _LAST_USED[snapshot.sha256] = now


def token_check(raw: str | None) -> TokenSnapshot:
    """The token of a call (any scope: which operations it may run is
    ``api.operations.authorize``'s business). Known to this process and unexpired: one
    small query (is it still live?); otherwise ``token_authenticate`` with every check
    and its refusal (401), and the token is remembered."""
    now = timezone.now()
    snapshot = remembered_token(raw, now=now)
    if snapshot is not None and _still_live(snapshot, now=now):
        token_used(snapshot, now=now)
        return snapshot
    token = token_authenticate(raw=raw, scope=tuple(SCOPES)).token
    return _remember(token)


RATE_WINDOW_SECONDS = 60


def rate_clock() -> float:
    """The wall clock the rate limit counts minutes by (one name, for tests to hold)."""
    return time.time()


def rate_limit_check(token: ApiToken | TokenSnapshot, *, now: float | None = None) -> None:
    """Count one call of ``token`` in this minute; over ``PERSONAWEB_API_RATE_LIMIT``
    calls (0: no limit) it is ``RateLimited`` (429, with the seconds to wait).

    The count lives in Django's cache (Redis when ``REDIS_URL`` is set), so every web
    worker and the MCP server over HTTP share it: a fixed window per minute, keyed by the
    token's hash (never its id, which a test database may hand out again)."""
    from django.conf import settings
    from django.core.cache import cache

    limit = int(settings.PERSONAWEB_API_RATE_LIMIT)
    if limit <= 0:
        return
    now = rate_clock() if now is None else now
    window = int(now // RATE_WINDOW_SECONDS)
    key = f"api-rate:{token.sha256[:32]}:{window}"
    try:
        count = cache.incr(key)
    except ValueError:  # the first call of the window (or the key expired); when another
        # process starts the window at the same moment, add fails and this call counts on
        count = 1 if cache.add(key, 1, timeout=RATE_WINDOW_SECONDS * 2) else cache.incr(key)
    if count > limit:
        wait = max(1, math.ceil((window + 1) * RATE_WINDOW_SECONDS - now))
        raise RateLimited(
            f"Too many calls with this API token: at most {limit} a minute "
            f"(PERSONAWEB_API_RATE_LIMIT); try again in {wait} seconds.",
            retry_after=wait,
        )


def user_by_username(username: str) -> Any | None:
    return get_user_model().objects.filter(username=username).first()


# --- host operations (HTTP routes and MCP tools call these) ----------------------------


def turn_record(
    *,
    agent: Any,
    principal: str,
    conversation: str,
    user_text: str,
    assistant_text: str | None = None,
    at: Any = None,
    sealed: bool | None = None,
    context_pack: int | None = None,
) -> Any:
    """``memory.services.record_turn``; a conversation label of another person is a
    ``Conflict``. ``sealed`` only ever seals: a host cannot unseal a conversation
    (PRODUCT.md section 7), so false is passed as "leave it as it is". ``context_pack``:
    the id build_context answered, linking the reply to the pack that shaped it."""
    from api.errors import Conflict
    from memory.services import MemoryInputError, record_turn

    try:
        return record_turn(
            agent=agent,
            principal_external_id=principal,
            conversation=conversation,
            user_text=user_text,
            assistant_text=assistant_text,
            at=at,
            sealed=True if sealed else None,
            context_pack=context_pack,
        )
    except MemoryInputError as exc:
        if selectors.conversation_of_another_person(
            agent=agent, label=conversation or "", principal=principal or ""
        ):
            raise Conflict(str(exc)) from None
        raise
    except IntegrityError:
        # same conversation, time and text as a message already stored: a replayed turn
        from api.errors import Conflict

        raise Conflict(
            "This turn is recorded already (a message with the same time and text is in this "
            "conversation); nothing was written. Send a new time for a new turn."
        ) from None
    except OverflowError:
        # a time at the very edge of the calendar (year 9999) cannot take the reply's offset
        raise HostInputError(
            "The time is out of range; send a time between the years 2 and 9998."
        ) from None


def prefix_plan(*, agent: Any, principal: Any, session: str) -> Any:
    """The plan call of ``persona.plans``: the pinned plan of (agent, principal, session),
    rotated when the persona changed. One indexed read when nothing changed, no render.
    ``principal`` is a Principal row already read, or the host's id of a person."""
    from memory.services import principal_get_or_create
    from persona.plans import plan_get_or_rotate

    if principal is not None and not isinstance(principal, str):
        return plan_get_or_rotate(agent=agent, principal=principal, session_key=session)
    person = None
    if principal:
        person = selectors.principal_in_tenant(
            tenant_id=agent.tenant_id, external_id=principal.strip()
        ) or principal_get_or_create(tenant_id=agent.tenant_id, external_id=principal)
    return plan_get_or_rotate(agent=agent, principal=person, session_key=session)


def _etags(header: str) -> list[str]:
    """The tags an ``If-None-Match`` header names, unquoted, ``W/`` off ("*" as it is)."""
    tags = []
    for part in header.split(","):
        tag = part.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag:
            tags.append(tag if tag == "*" else tag.strip('"'))
    return tags


def etag_matches(header: str, sha256: str) -> bool:
    """Does an ``If-None-Match`` header name this sha256 (quoted or not, weak or not)?"""
    return bool(header) and any(tag in ("*", sha256) for tag in _etags(header))


def etag_named(header: str) -> str:
    """The one sha256 an ``If-None-Match`` header names, or "" (none, several, or "*"):
    what the hot path's query compares, so a prefix the caller holds is not read."""
    tags = _etags(header) if header else []
    return tags[0] if len(tags) == 1 and tags[0] != "*" else ""


def review_request(*, agent: Any, by: str) -> Any:
    """Review now (``learning.services.review_enqueue``, what the dashboard's button calls)."""
    from learning.services import review_enqueue

    return review_enqueue(agent=agent, by=by)


def memory_write(
    *,
    agent: Any,
    principal: str,
    by: str,
    category: str,
    statement: str,
    confidence: float,
    source: str,
    valid_from: Any = None,
    valid_until: Any = None,
    due: Any = None,
    sensitivity: str = "internal",
) -> dict[str, Any]:
    """``memory.services_beliefs.belief_write`` for a host, with the host (who acts: the
    token's user or name) as the evidence; the answer says what happened and shows the
    belief."""
    from memory.services_beliefs import belief_write

    result = belief_write(
        agent=agent,
        principal_external_id=principal,
        category=category,
        statement=statement,
        confidence=confidence,
        source=source,
        valid_from=valid_from,
        valid_until=valid_until,
        due=due,
        sensitivity=sensitivity,
        evidence={"host": by[:200]},
    )
    muted = result.outcome == "muted"
    return {
        "id": result.belief.pk,
        "outcome": result.outcome,
        "superseded_id": result.superseded.pk if result.superseded is not None else None,
        # a muted belief is never shown to a host, not even the one that restated it
        "memory": None if muted else selectors.memory_dicts([result.belief])[0],
    }
