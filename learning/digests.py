"""Reviews nobody misses: one digest per person per period of what has waited too long.

A proposal that has waited longer than ``REVIEW_DIGEST_AFTER_HOURS`` is announced to every
member of its agent's tenant who may decide it (``learning.owners.decide_refusal``: the
reviewers and operators, or only the rule owners for a standing rule); an owner-document
nomination that has waited as long is announced to the person it is about, through their
owner account. Each person gets at most one digest per ``REVIEW_DIGEST_PERIOD_HOURS``: the
``ReviewDigest`` row is written first, under a unique constraint on (user, period), so two
beat runs or two workers at once send one. The digest goes out through Django's e-mail
(console backend unless configured) and, when ``REVIEW_DIGEST_WEBHOOK_URL`` is set, as a
POST signed with HMAC-SHA256 (``signature_header`` / ``signature_valid``).

A digest names what waits and where, never the text of a nomination (it is about a
person) and never message text.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.urls import reverse
from django.utils import timezone

from learning.models import Proposal, ReviewDigest
from learning.owners import decide_refusal, learning_settings_of
from persona.models_owner import OwnerNomination
from tenancy.access import actor_for_user
from tenancy.models import Membership

log = logging.getLogger(__name__)

#: the header a webhook receiver checks: ``t=<unix seconds>,v1=<hex HMAC-SHA256>``
SIGNATURE_HEADER = "X-Personaweb-Signature"
#: a receiver refuses a signature older than this (replays)
SIGNATURE_TOLERANCE_SECONDS = 300
#: items listed in one digest; the rest are counted
MAX_ITEMS = 50


@dataclass
class DigestItem:
    kind: str  # "proposal" | "rule" | "nomination"
    agent: str  # the agent's name, or "" for a nomination
    waiting_since: datetime
    path: str

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "agent": self.agent,
            "waiting_since": self.waiting_since.isoformat(),
            "url": absolute(self.path),
        }


@dataclass
class Digest:
    user: Any
    items: list[DigestItem] = field(default_factory=list)


@dataclass
class DigestRun:
    sent: int = 0
    already_sent: int = 0
    waiting: int = 0


def absolute(path: str) -> str:
    return settings.PERSONAWEB_BASE_URL.rstrip("/") + path


def _period_start(now: datetime) -> datetime:
    period = max(int(settings.REVIEW_DIGEST_PERIOD_HOURS * 3600), 60)
    epoch = int(now.timestamp())
    return datetime.fromtimestamp(epoch - epoch % period, tz=now.tzinfo)


def _members_by_tenant(tenant_ids: set[int]) -> dict[int, list[Any]]:
    """Active members of each tenant, with their groups and tenants read once (so the
    actor built for each asks nothing more)."""
    user_model = get_user_model()
    memberships = (
        Membership.objects.filter(tenant_id__in=tenant_ids, user__is_active=True)
        .select_related("user")
        .prefetch_related(
            "user__groups",
            Prefetch("user__memberships", queryset=Membership.objects.only("user_id", "tenant_id")),
        )
    )
    out: dict[int, list[Any]] = {}
    for membership in memberships:
        user = membership.user
        assert isinstance(user, user_model)
        user._pw_groups = frozenset(g.name for g in user.groups.all())  # type: ignore[attr-defined]
        user._pw_tenant_ids = [m.tenant_id for m in user.memberships.all()]  # type: ignore[attr-defined]
        out.setdefault(membership.tenant_id, []).append(user)
    return out


def digests_due(*, now: datetime | None = None) -> list[Digest]:
    """Who is owed a digest now, and what it lists (oldest first). Reads only."""
    now = now or timezone.now()
    before = now - timedelta(hours=settings.REVIEW_DIGEST_AFTER_HOURS)
    proposals = list(
        Proposal.objects.filter(status=Proposal.Status.WAITING, created_at__lte=before)
        .select_related("agent", "agent__learning")
        .order_by("created_at", "id")
    )
    members = _members_by_tenant({p.agent.tenant_id for p in proposals})
    actors: dict[int, Any] = {}
    digests: dict[int, Digest] = {}
    for proposal in proposals:
        agent = proposal.agent
        learning = learning_settings_of(agent)
        for user in members.get(agent.tenant_id, []):
            actor = actors.setdefault(user.pk, actor_for_user(user))
            if decide_refusal(actor, agent=agent, kind=proposal.kind, settings=learning):
                continue
            digests.setdefault(user.pk, Digest(user=user)).items.append(
                DigestItem(
                    kind="rule" if proposal.kind == Proposal.Kind.RULE else "proposal",
                    agent=agent.name,
                    waiting_since=proposal.created_at,
                    path=reverse("learning:queue"),
                )
            )
    nominations = (
        OwnerNomination.objects.filter(
            state=OwnerNomination.State.NOMINATED,
            nominated_at__lte=before,
            principal__owner_account__user__is_active=True,
        )
        .select_related("principal__owner_account__user")
        .order_by("nominated_at", "id")
    )
    for nomination in nominations:
        user = nomination.principal.owner_account.user
        digests.setdefault(user.pk, Digest(user=user)).items.append(
            DigestItem(
                kind="nomination",
                agent="",
                waiting_since=nomination.nominated_at,
                path=reverse("owner:persona"),
            )
        )
    for digest in digests.values():
        digest.items.sort(key=lambda item: item.waiting_since)
    return list(digests.values())


def _wait_words(since: datetime, now: datetime) -> str:
    hours = int((now - since).total_seconds() // 3600)
    if hours >= 48:
        return f"{hours // 24} days"
    return f"{hours} hours" if hours != 1 else "1 hour"


def digest_text(digest: Digest, *, now: datetime) -> tuple[str, str]:
    """The subject and body of ``digest``'s e-mail."""
    items = digest.items
    subject = f"personaweb: {len(items)} waiting for you"
    lines = [
        f"Hello {digest.user.get_username()},",
        "",
        f"{len(items)} item(s) have waited longer than "
        f"{settings.REVIEW_DIGEST_AFTER_HOURS:g} hours for you to decide:",
        "",
    ]
    for item in items[:MAX_ITEMS]:
        what = {
            "proposal": f"a proposed change to {item.agent}",
            "rule": f"a standing rule for {item.agent} (you are one of the people who may decide it)",
            "nomination": "a line nominated for your own persona document",
        }[item.kind]
        lines.append(
            f"- {what}, waiting {_wait_words(item.waiting_since, now)}: {absolute(item.path)}"
        )
    if len(items) > MAX_ITEMS:
        lines.append(f"- and {len(items) - MAX_ITEMS} more")
    lines += [
        "",
        f"You get at most one of these every {settings.REVIEW_DIGEST_PERIOD_HOURS:g} hours.",
    ]
    return subject, "\n".join(lines)


def signature_header(secret: str, body: bytes, *, timestamp: int | None = None) -> str:
    """``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>``"""
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def signature_valid(secret: str, header: str, body: bytes, *, now: float | None = None) -> bool:
    """What a receiver checks: the HMAC matches and the timestamp is recent."""
    try:
        parts = dict(part.split("=", 1) for part in header.split(","))
        t = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - t) > SIGNATURE_TOLERANCE_SECONDS:
        return False
    expected = signature_header(secret, body, timestamp=t).split("v1=", 1)[1]
    return hmac.compare_digest(expected, given)


def webhook_body(digest_row: ReviewDigest) -> bytes:
    return json.dumps(
        {
            "type": "review_digest",
            "user": digest_row.username,
            "period_start": digest_row.period_start.isoformat(),
            "waiting": digest_row.item_count,
            "items": digest_row.items,
        },
        sort_keys=True,
    ).encode()


def webhook_send(digest_row: ReviewDigest) -> int:
    """POST the digest to the configured webhook; returns the HTTP status. Raises on a
    network error or a non-2xx answer so the task retries."""
    url = settings.REVIEW_DIGEST_WEBHOOK_URL
    body = webhook_body(digest_row)
    request = urllib.request.Request(  # noqa: S310 (the URL is checked at start: http or https)
        url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            SIGNATURE_HEADER: signature_header(settings.REVIEW_DIGEST_WEBHOOK_SECRET, body),
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        status = int(response.status)
    if not 200 <= status < 300:
        raise OSError(f"the digest webhook answered {status}")
    return status


def digests_send(*, now: datetime | None = None) -> DigestRun:
    """Send every digest that is due: the row first (one per user per period, kept by the
    database), then the e-mail, then the webhook (a task, after commit)."""
    now = now or timezone.now()
    period_start = _period_start(now)
    period = timedelta(hours=settings.REVIEW_DIGEST_PERIOD_HOURS)
    run = DigestRun()
    due = digests_due(now=now)
    recent = set(
        ReviewDigest.objects.filter(
            user_id__in=[d.user.pk for d in due], sent_at__gt=now - period
        ).values_list("user_id", flat=True)
    )
    for digest in due:
        run.waiting += len(digest.items)
        if digest.user.pk in recent:
            run.already_sent += 1
            continue
        subject, body = digest_text(digest, now=now)
        try:
            with transaction.atomic():
                row = ReviewDigest.objects.create(
                    user=digest.user,
                    username=digest.user.get_username(),
                    period_start=period_start,
                    sent_at=now,
                    item_count=len(digest.items),
                    items=[item.as_json() for item in digest.items[:MAX_ITEMS]],
                    emailed=bool(digest.user.email),
                )
        except IntegrityError:
            run.already_sent += 1  # another run wrote this period's digest first
            continue
        if digest.user.email:
            try:
                send_mail(subject, body, None, [digest.user.email])
            except OSError as exc:  # SMTP down: the row says so, the webhook still goes
                log.warning("review digest e-mail to user %s failed: %s", digest.user.pk, exc)
                ReviewDigest.objects.filter(pk=row.pk).update(emailed=False)
        if settings.REVIEW_DIGEST_WEBHOOK_URL:
            from learning.tasks import send_digest_webhook

            transaction.on_commit(partial(send_digest_webhook.delay, row.pk))
        run.sent += 1
        log.info("review digest sent to user %s (%d items)", digest.user.pk, len(digest.items))
    return run
