"""The memory health check: what in stored memory is junk, stale or unsafe, and its remedy.

``audit_run`` walks the active beliefs of the tenants asked for and returns findings of
each kind, each with the remedies one click away. Memory's own checks are here (near
twins, expired but active, one weak piece of evidence, never given to a host, text
today's scans would block); the apps above add theirs with ``register_check`` from their
``AppConfig.ready`` (the persona restated as a belief, learned persona lines whose
evidence is gone): memory never imports them. ``audit_record`` keeps one row per tenant
and run (``MemoryAudit``) so the page can draw the counts over time.

It is a batch job (a beat task, ``manage.py memory audit``, the page's "Run now"), never
run on a page request: the scan waits for the model and near twins compare vectors.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from memory.models import MemoryAudit
from memory.models_beliefs import Belief
from safety.text import normalize

#: two beliefs of one person this close in meaning say the same thing
NEAR_TWIN_COSINE = 0.93
#: a belief below this confidence resting on one message is weak
WEAK_CONFIDENCE = 0.6
#: findings of one kind kept on a run (the counts are always whole)
MAX_FINDINGS_PER_KIND = 200
#: characters of a text shown in a finding
PREVIEW_CHARS = 160

# remedies a finding offers (the page draws one button each)
RETIRE = "retire"
MERGE = "merge"
RESCAN = "rescan"
RESEAL = "reseal"
EDIT_PERSONA = "edit_persona"


@dataclass(frozen=True)
class Finding:
    kind: str
    subject: str  # "belief" | "owner_entry" | "persona_line"
    subject_id: int
    tenant_id: int
    text: str
    detail: str
    remedies: tuple[str, ...]
    principal_id: int | None = None
    agent_id: int | None = None
    other_id: int | None = None  # a near twin: the belief it repeats

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "subject_id": self.subject_id,
            "tenant_id": self.tenant_id,
            "text": self.text[:PREVIEW_CHARS],
            "detail": self.detail,
            "remedies": list(self.remedies),
            "principal_id": self.principal_id,
            "agent_id": self.agent_id,
            "other_id": self.other_id,
        }


@dataclass(frozen=True)
class AuditContext:
    tenant_ids: list[int] | None  # None: every tenant
    now: datetime
    never_given_days: int
    scan: bool

    def tenant_filter(self, path: str = "tenant_id") -> Q:
        return Q() if self.tenant_ids is None else Q(**{f"{path}__in": self.tenant_ids})


Check = Callable[[AuditContext], Iterable[Finding]]


@dataclass(frozen=True)
class CheckKind:
    kind: str
    title: str  # what the page calls it
    remedy: str  # one sentence: what to do about it
    run: Check


_CHECKS: dict[str, CheckKind] = {}


def register_check(kind: str, *, title: str, remedy: str, run: Check) -> None:
    """Add a check (apps above memory call this from ``AppConfig.ready``)."""
    _CHECKS[kind] = CheckKind(kind=kind, title=title, remedy=remedy, run=run)


def checks() -> list[CheckKind]:
    return list(_CHECKS.values())


@dataclass
class AuditReport:
    now: datetime
    counts: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    #: every finding counted per tenant and kind (findings beyond the cap included)
    tenant_counts: dict[int, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )

    def by_tenant(self) -> dict[int, list[Finding]]:
        out: dict[int, list[Finding]] = defaultdict(list)
        for finding in self.findings:
            out[finding.tenant_id].append(finding)
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "ran_at": self.now.isoformat(),
            "counts": self.counts,
            "findings": [f.as_dict() for f in self.findings],
        }


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _active(ctx: AuditContext) -> Any:
    return Belief.objects.filter(ctx.tenant_filter(), status=Belief.Status.ACTIVE)


def _belief_finding(kind: str, row: dict[str, Any], detail: str, *remedies: str) -> Finding:
    """A finding about the belief in ``row`` (the ``values()`` of ``_ROW`` and more)."""
    return Finding(
        kind=kind,
        subject="belief",
        subject_id=row["id"],
        tenant_id=row["tenant_id"],
        principal_id=row["principal_id"],
        agent_id=row["agent_id"],
        text=_preview(row["statement"]),
        detail=detail,
        remedies=remedies,
    )


#: the fields every belief finding reads
_ROW = ("id", "tenant_id", "principal_id", "agent_id", "statement")


# --- memory's own checks ----------------------------------------------------------------------


def near_twins(ctx: AuditContext) -> Iterable[Finding]:
    """Active beliefs of one person that say the same thing: the same words once
    normalised, or stored vectors closer than ``NEAR_TWIN_COSINE``. The later one is
    the finding; merging keeps the earlier (the one more often corroborated wins)."""
    from memory.embeddings import stored_vectors

    rows = list(
        _active(ctx)
        .order_by("principal_id", "-corroboration_count", "created_at", "id")
        .values_list("id", "tenant_id", "principal_id", "agent_id", "statement")
    )
    vectors = stored_vectors([row[4] for row in rows])
    by_person: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        by_person[row[2]].append(row)
    for person_rows in by_person.values():
        if len(person_rows) < 2:
            continue
        kept: list[tuple[tuple[Any, ...], str, np.ndarray | None]] = []
        for row in person_rows:
            words = normalize(row[4]).text
            vector = vectors.get(row[4])
            twin = None
            for other, other_words, other_vector in kept:
                if words == other_words:
                    twin, how = other, "the same words"
                    break
                if vector is not None and other_vector is not None:
                    cosine = float(np.dot(vector, other_vector))
                    if cosine >= NEAR_TWIN_COSINE:
                        twin, how = other, f"the same meaning (cosine {cosine:.2f})"
                        break
            if twin is None:
                kept.append((row, words, vector))
                continue
            yield Finding(
                kind="near_twin",
                subject="belief",
                subject_id=row[0],
                tenant_id=row[1],
                principal_id=row[2],
                agent_id=row[3],
                other_id=twin[0],
                text=_preview(row[4]),
                detail=f"Says {how} as “{_preview(twin[4])}”.",
                remedies=(MERGE, RETIRE),
            )


def expired_but_active(ctx: AuditContext) -> Iterable[Finding]:
    for row in (
        _active(ctx)
        .filter(valid_until__lt=ctx.now)
        .order_by("valid_until", "id")
        .values(*_ROW, "valid_until")[:MAX_FINDINGS_PER_KIND]
    ):
        yield _belief_finding(
            "expired", row, f"Valid until {row['valid_until']:%Y-%m-%d}, still active.", RETIRE
        )


def weak_evidence(ctx: AuditContext) -> Iterable[Finding]:
    """Inferred or low-confidence beliefs resting on at most one message, not vouched
    for by the person or an operator."""
    qs = (
        _active(ctx)
        .exclude(authority__in=[Belief.Authority.PERSON, Belief.Authority.OPERATOR])
        .filter(Q(derivation=Belief.Derivation.HYPOTHESIS) | Q(confidence__lt=WEAK_CONFIDENCE))
        .annotate(pieces=Count("evidence_rows"))
        .filter(pieces__lte=1, corroboration_count__lte=1)
        .order_by("confidence", "id")
        .values(*_ROW, "confidence")
    )
    for row in qs[:MAX_FINDINGS_PER_KIND]:
        yield _belief_finding(
            "weak_evidence",
            row,
            f"Rests on one message at most, confidence {row['confidence']:.2f}.",
            RETIRE,
        )


def never_given(ctx: AuditContext) -> Iterable[Finding]:
    since = ctx.now - timedelta(days=ctx.never_given_days)
    qs = (
        _active(ctx)
        .filter(created_at__lt=since)
        .filter(Q(last_given_at__isnull=True) | Q(last_given_at__lt=since))
        .order_by("created_at", "id")
        .values(*_ROW, "last_given_at")
    )
    for row in qs[:MAX_FINDINGS_PER_KIND]:
        when = row["last_given_at"]
        yield _belief_finding(
            "never_given",
            row,
            (
                f"Not given to a host in {ctx.never_given_days} days"
                + (f" (last on {when:%Y-%m-%d})." if when else " (never).")
            ),
            RETIRE,
        )


def blocked_today(ctx: AuditContext) -> Iterable[Finding]:
    """Beliefs stored before a scan (or its model) changed that today's scan blocks."""
    if not ctx.scan:
        return
    from safety.checks import verdicts

    rows = list(
        _active(ctx)
        .order_by("id")
        .values_list("id", "tenant_id", "principal_id", "agent_id", "statement")
    )
    results = verdicts([row[4] for row in rows], wait=True)
    for row, verdict in zip(rows, results, strict=True):
        if verdict.blocked:
            yield Finding(
                kind="blocked",
                subject="belief",
                subject_id=row[0],
                tenant_id=row[1],
                principal_id=row[2],
                agent_id=row[3],
                text=verdict.placeholder,  # never the blocked text itself
                detail="Today's safety scan blocks this text: " + ", ".join(verdict.ids) + ".",
                remedies=(RESCAN, RETIRE),
            )


def rests_on_sealed(ctx: AuditContext) -> Iterable[Finding]:
    """Active beliefs that still quote a sealed conversation: sealed before sealing
    reached beliefs (or by a path that skipped it). Sealing it again withdraws them."""
    from memory.models import BeliefEvidence, Message

    sealed = Message.objects.sealed()
    quoting = BeliefEvidence.objects.filter(message__in=sealed).values("belief_id")
    qs = (
        _active(ctx)
        .filter(Q(evidence_message__in=sealed) | Q(pk__in=quoting))
        .order_by("id")
        .values(*_ROW)
    )
    for row in qs[:MAX_FINDINGS_PER_KIND]:
        yield _belief_finding(
            "rests_on_sealed", row, "Still rests on a message of a sealed conversation.", RESEAL
        )


def reseal_for(belief: Belief) -> int:
    """Seal again every sealed conversation ``belief`` still quotes, so the seal's
    cascade reaches it (and everything else resting on them). Returns how many."""
    from memory.models import BeliefEvidence, Conversation
    from memory.sealing import conversation_seal

    message_ids = set(
        BeliefEvidence.objects.filter(belief=belief).values_list("message_id", flat=True)
    )
    if belief.evidence_message_id:
        message_ids.add(belief.evidence_message_id)
    conversations = Conversation.objects.filter(sealed=True, messages__in=message_ids).distinct()
    n = 0
    for conversation in conversations:
        conversation_seal(conversation=conversation, by="memory health check")
        n += 1
    return n


register_check(
    "near_twin",
    title="Near-duplicate beliefs",
    remedy="Merge keeps the earlier belief and retires this one.",
    run=near_twins,
)
register_check(
    "expired",
    title="Expired but still active",
    remedy="Retire it: its time has passed.",
    run=expired_but_active,
)
register_check(
    "weak_evidence",
    title="Resting on one weak piece of evidence",
    remedy="Retire it, or let more conversations corroborate it.",
    run=weak_evidence,
)
register_check(
    "never_given",
    title="Never given to a host",
    remedy="Retire what no question ever needs.",
    run=never_given,
)
register_check(
    "rests_on_sealed",
    title="Beliefs still resting on sealed conversations",
    remedy="Apply the seal again: the belief keeps its other evidence or ends.",
    run=rests_on_sealed,
)
register_check(
    "blocked",
    title="Stored text today's scan blocks",
    remedy="Re-scan after a model update; retire what stays blocked.",
    run=blocked_today,
)


# --- running and recording ----------------------------------------------------------------------


def audit_run(
    *,
    tenant_ids: list[int] | None = None,
    now: datetime | None = None,
    never_given_days: int = 30,
    scan: bool = True,
) -> AuditReport:
    """Run every registered check (reads only). Counts are whole; findings are kept up to
    ``MAX_FINDINGS_PER_KIND`` of each kind."""
    ctx = AuditContext(
        tenant_ids=tenant_ids,
        now=now or timezone.now(),
        never_given_days=never_given_days,
        scan=scan,
    )
    report = AuditReport(now=ctx.now)
    for check in checks():
        n = 0
        for finding in check.run(ctx):
            n += 1
            report.tenant_counts[finding.tenant_id][finding.kind] += 1
            if n <= MAX_FINDINGS_PER_KIND:
                report.findings.append(finding)
        report.counts[check.kind] = n
    return report


@transaction.atomic
def audit_record(report: AuditReport, *, tenant_ids: Iterable[int]) -> list[MemoryAudit]:
    """One ``MemoryAudit`` row per tenant: its counts and findings at ``report.now``."""
    by_tenant = report.by_tenant()
    rows = []
    for tenant_id in tenant_ids:
        findings = by_tenant.get(tenant_id, [])
        counts = {kind: report.tenant_counts[tenant_id][kind] for kind in report.counts}
        rows.append(
            MemoryAudit(
                tenant_id=tenant_id,
                ran_at=report.now,
                counts=counts,
                findings=[f.as_dict() for f in findings],
            )
        )
    return MemoryAudit.objects.bulk_create(rows)


def audit_tenants(*, tenant_ids: list[int] | None = None, **kw: Any) -> AuditReport:
    """Run the audit and record it for each tenant (the beat task and the page)."""
    from tenancy.models import Tenant

    report = audit_run(tenant_ids=tenant_ids, **kw)
    ids = (
        tenant_ids if tenant_ids is not None else list(Tenant.objects.values_list("id", flat=True))
    )
    audit_record(report, tenant_ids=ids)
    return report
