"""Dashboard pages of the persona app: persona evolution, the agent page and undo of the
latest learned change. The editors (fields, guardrails, rules, revert, undo of a manual
edit) are in ``dashboard.views.editors``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from dashboard.views.editors import drops_confirmed, editing_rights
from learning.models import Proposal, Review
from learning.owners import (
    deciders_sentence,
    learning_settings_of,
    may_decide,
    rule_owner_names,
    rule_owner_refusal,
)
from learning.selectors import (
    model_called,
    proposal_backing,
    proposals_a_change_drops,
    review_reasons_now,
)
from memory.sealing import sealed_ids
from persona.models import AgentPersonaVersion, SourceType
from persona.redaction import version_redactions
from persona.services import (
    MAX_FIELD_CHARS,
    MAX_GUARDRAILS,
    MAX_LEARNED_FIELD_CHARS,
    MAX_RULES,
    PERSONA_FIELDS,
    persona_snapshot,
)
from persona.services_edits import undo_refusal
from personaweb.actors import Actor
from personaweb.errors import Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial
from personaweb.marks import evidence_conversation_ids, field_text, quote_groups_for, word_diff
from personaweb.roles import is_operator, is_reviewer
from tenancy.access import (
    actor_for_user,
    agent_for_user,
    require_reviewer,
)

TIMELINE_PAGE = 20


# --- agent page ------------------------------------------------------------------------

_BLOCKED = re.compile(r"\[BLOCKED:[^\]]*\]")


def _prompt_runs(text: str) -> list[tuple[str, bool]]:
    """The prefix cut into (text, is_blocked_placeholder) runs for the preview."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _BLOCKED.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], False))
        out.append((m.group(0), True))
        pos = m.end()
    if pos < len(text) or not out:
        out.append((text[pos:], False))
    return out


@dataclass
class PromptLine:
    """One line of the agent page's prompt: its text (blocked placeholders marked), its
    story (``persona.provenance``) and each version's quotes as the pages group them."""

    line: Any
    runs: list[tuple[str, bool]]
    #: (story, its quote groups) newest first
    stories: list[tuple[Any, list[dict[str, Any]]]]


class SealedMemo:
    """``memory.sealing.sealed_ids`` for one page: the timeline, the waiting proposals
    and the prompt's line stories quote the same conversations, so each is looked up
    once (the agent page stays within its query budget)."""

    def __init__(self) -> None:
        self.known: dict[int, bool] = {}

    def __call__(self, ids: Any) -> set[int]:
        ids = set(ids)
        new = ids - self.known.keys()
        if new:
            found = sealed_ids(new)
            self.known.update({i: i in found for i in new})
        return {i for i in ids if self.known[i]}


def _prompt_lines(
    head: AgentPersonaVersion, *, wait: bool, sealed_lookup: SealedMemo | None = None
) -> list[PromptLine]:
    """Every line of the agent's prefix with where it came from: two queries (the
    versions, and which quoted conversations are sealed)."""
    from persona.provenance import explain_prefix

    explained = explain_prefix(head, wait=wait, sealed_lookup=sealed_lookup)
    out = []
    for line in explained.lines:
        stories = []
        for story in line.runs:
            sealed = {q["conversation_id"] for q in story.quotes if q["sealed"]}
            stories.append((story, quote_groups_for(story.quotes, sealed=sealed)))
        out.append(PromptLine(line=line, runs=_prompt_runs(line.text), stories=stories))
    return out


@dataclass
class TimelineEntry:
    version: AgentPersonaVersion
    diffs: list[tuple[str, list[tuple[str, str]]]]
    quote_groups: list[dict[str, Any]]
    undoable: bool
    #: a manual edit (or revert) that a person's undo may take back now
    edit_undoable: bool = False
    #: who redacted words of this version, when and why (``persona.redaction``)
    redactions: list[Any] = field(default_factory=list)


def _timeline(
    agent: Any,
    *,
    before: int | None,
    undo_version: int | None,
    sealed_lookup: SealedMemo | None = None,
) -> tuple[list[TimelineEntry], int | None]:
    """One page of versions, newest first, each diffed against the version before it.

    One query: the page plus the one version below it (the base of the last diff,
    and the sign that an older page exists).
    """
    qs = AgentPersonaVersion.objects.filter(agent=agent).order_by("-version")
    if before:
        qs = qs.filter(version__lt=before)
    rows = list(qs[: TIMELINE_PAGE + 1])
    shown = rows[:TIMELINE_PAGE]
    # the versions after this page (an older page): what they changed decides which
    # manual edits may still be undone (one query of two small columns)
    later: list[tuple[int, list[str]]] = (
        list(
            AgentPersonaVersion.objects.filter(agent=agent, version__gte=before).values_list(
                "version", "fields_changed"
            )
        )
        if before and shown
        else []
    )
    later += [(v.version, v.fields_changed) for v in shown]
    entries = []
    sealed = (sealed_lookup or sealed_ids)(evidence_conversation_ids(*(v.evidence for v in shown)))
    for i, version in enumerate(shown):
        prev = rows[i + 1] if i + 1 < len(rows) else None
        old, new = persona_snapshot(prev), persona_snapshot(version)
        diffs = []
        for name in PERSONA_FIELDS:
            if old[name] != new[name]:
                diffs.append(
                    (
                        name.replace("_", " "),
                        word_diff(field_text(old[name]), field_text(new[name])),
                    )
                )
        groups = quote_groups_for(version.evidence, sealed=sealed)
        entries.append(
            TimelineEntry(
                version=version,
                diffs=diffs,
                quote_groups=groups,
                undoable=version.version == undo_version,
                edit_undoable=undo_refusal(
                    version, [(n, f) for n, f in later if n > version.version]
                )
                is None,
            )
        )
    found = version_redactions(shown)
    for entry in entries:
        entry.redactions = found.get(entry.version.version, [])
    older = shown[-1].version if len(rows) > TIMELINE_PAGE else None
    return entries, older


def _latest_applied(agent: Any) -> Proposal | None:
    """The latest learned change still in force: what undo takes back."""
    return (
        Proposal.objects.filter(
            agent=agent, status=Proposal.Status.APPLIED, applied_version__isnull=False
        )
        .order_by("-applied_version", "-id")
        .first()
    )


#: goals and background stop growing by learning at one limit; an operator writes more
LEARNED_UNIT = f"characters learning may fill (an operator's edit: up to {MAX_FIELD_CHARS:,})"


def _caps(head: AgentPersonaVersion | None) -> list[dict[str, Any]]:
    if head is None:
        return []
    return [
        {
            "label": "Guardrails",
            "used": len(head.guardrails or []),
            "limit": MAX_GUARDRAILS,
            "unit": "",
        },
        {
            "label": "Standing rules",
            "used": len(head.standing_rules or []),
            "limit": MAX_RULES,
            "unit": "",
        },
        {
            "label": "Goals",
            "used": len(head.goals),
            "limit": MAX_LEARNED_FIELD_CHARS,
            "unit": LEARNED_UNIT,
        },
        {
            "label": "Background",
            "used": len(head.background),
            "limit": MAX_LEARNED_FIELD_CHARS,
            "unit": LEARNED_UNIT,
        },
    ]


def _waiting_for(
    agent: Any, actor: Actor, sealed_lookup: SealedMemo | None = None
) -> list[Proposal]:
    """The agent's waiting proposals, each marked with whether ``actor`` may decide it
    (its buttons are drawn only then) and who does; no query per proposal."""
    proposals = list(
        Proposal.objects.filter(agent=agent, status=Proposal.Status.WAITING).order_by(
            "created_at", "id"
        )
    )
    sealed = (sealed_lookup or sealed_ids)(
        evidence_conversation_ids(*(p.evidence for p in proposals))
    )
    for p in proposals:
        p.agent = agent  # the page's agent: no query per proposal
        p.can_decide = may_decide(actor, p)  # type: ignore[attr-defined]
        p.deciders = deciders_sentence(kind=p.kind, settings=learning_settings_of(agent))  # type: ignore[attr-defined]
        p.backing = proposal_backing(p, learning_settings_of(agent))  # type: ignore[attr-defined]
        p.quote_groups = quote_groups_for(p.evidence, sealed=sealed)  # type: ignore[attr-defined]
    return proposals


def _learning_card(
    agent: Any, user: Any, sealed_lookup: SealedMemo | None = None
) -> dict[str, Any]:
    """What the agent page's learning card says, from the state things are in now: the
    proposals waiting, and the last review with its reasons told from its proposals'
    state (never its stored "it waits for a rule owner" after the rule was decided)."""
    last_review = Review.objects.filter(agent=agent).order_by("-queued_at", "-id").first()
    if last_review is not None:
        last_review.agent = agent
        last_review.reasons = review_reasons_now([last_review]).get(last_review.pk, [])  # type: ignore[attr-defined]
        last_review.model_called = model_called(last_review)  # type: ignore[attr-defined]
    return {
        "waiting": _waiting_for(agent, actor_for_user(user), sealed_lookup),
        "last_review": last_review,
    }


def _page_number(value: str) -> int | None:
    """A version number from the query string, or None (the first page) when it is not
    plain ASCII digits of a size a version can have: an edited link shows the first page.

    ``str.isdigit`` alone is not enough: it is true for "²" and "٣", which ``int`` refuses.
    """
    if not (value.isascii() and value.isdigit()) or len(value) > 18:
        return None
    return int(value) or None


@require_GET
@login_required
def agent_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    from persona.plans import AGENT_PREFIX_MAX_TOKENS, sha256_text
    from persona.render import render_report

    agent = agent_for_user(request, slug, with_learning=True)
    settings = learning_settings_of(agent)
    head = (
        AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()
        if agent.persona_version
        else None
    )
    before = request.GET.get("before", "")
    latest = _latest_applied(agent)
    sealed_lookup = SealedMemo()
    entries, older = _timeline(
        agent,
        before=_page_number(before),
        undo_version=latest.applied_version if latest else None,
        sealed_lookup=sealed_lookup,
    )
    context: dict[str, Any] = {
        "agent": agent,
        "settings": settings,
        "mode": settings.mode if settings else "off",
        "entries": entries,
        "older": older,
        "latest_applied": latest,
        "is_first_page": _page_number(before) is None,
        **editing_rights(request, agent, settings),
        "can_review": is_reviewer(request.user),
        "can_operate": is_operator(request.user),
        "can_redact": bool(request.user.is_superuser),
    }
    if is_partial(request) and request.htmx.target == "timeline":
        return render(request, "dashboard/agent.html#timeline", context)
    context.update(_learning_card(agent, request.user, sealed_lookup))
    if is_partial(request) and request.htmx.target == "learning":
        return render(request, "dashboard/agent.html#learning", context)
    # Never wait for the embedding model on a request: new text shows as "scanning" and
    # the preview polls itself until the background scan is done.
    from django.conf import settings as django_settings

    wait = bool(getattr(django_settings, "PERSONAWEB_PAGE_SCAN_WAIT", False))
    report = render_report(head, wait=wait) if head is not None else None
    prompt_lines = (
        _prompt_lines(head, wait=wait, sealed_lookup=sealed_lookup) if head is not None else []
    )
    # a guardrail or rule a later model or pattern update blocks is listed marked, with
    # its ids, never as a normal one (the stored text stays so it can be removed)
    marked = {b.label: b.pattern_ids for b in report.blocked} if report else {}
    guardrail_rows = [
        (text, marked.get(f"guardrail {i}"))
        for i, text in enumerate(getattr(head, "guardrails", None) or [], start=1)
    ]
    rule_rows = [
        (text, marked.get(f"standing rule {i}"))
        for i, text in enumerate(getattr(head, "standing_rules", None) or [], start=1)
    ]
    context.update(
        {
            "head": head,
            "report": report,
            "guardrail_rows": guardrail_rows,
            "rule_rows": rule_rows,
            "prompt_lines": prompt_lines,
            "prefix_sha256": sha256_text(report.text) if report else "",
            "token_cap": AGENT_PREFIX_MAX_TOKENS,
            "caps": _caps(head),
            "rule_owners": rule_owner_names(settings),
        }
    )
    if is_partial(request) and request.htmx.target == "prompt":
        return render(request, "dashboard/agent.html#prompt", context)
    return render(request, "dashboard/agent.html", context)


# --- undo ------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def undo(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Confirm (GET), then take back (POST) the latest learned change."""
    agent = agent_for_user(request, slug, with_learning=True)
    require_reviewer(request)
    agent_url = reverse("persona:agent", args=[agent.slug])
    latest = _latest_applied(agent)
    if latest is None:
        messages.info(request, "There is no learned change to undo: nothing learned is in force.")
        return redirect(agent_url)
    settings = learning_settings_of(agent)
    reason = (
        rule_owner_refusal(agent=agent, user=request.user, settings=settings)
        if latest.kind == Proposal.Kind.RULE
        else None
    )
    if reason:
        messages.error(request, f"Undo refused: {reason} Nothing was changed.")
        return redirect(agent_url)
    drops = list(
        proposals_a_change_drops(
            agent=agent,
            source_type=SourceType.STANDING_RULE
            if latest.kind == Proposal.Kind.RULE
            else SourceType.PERSONA_LEARNING,
            proposal_id=latest.pk,
        )
    )
    context = {"agent": agent, "proposal": latest, "drops": drops}
    if request.method == "GET":
        return render(request, "dashboard/undo.html", context)
    if not drops_confirmed(request, drops):
        return render(request, "dashboard/undo.html", {**context, "ask_drops": True})
    from learning.services import change_undo

    try:
        version = change_undo(agent=agent, by=actor_for_user(request.user), proposal=latest)
    except Refusal as exc:
        messages.error(request, f"Undo refused: {exc}")
        return redirect(agent_url)
    number = getattr(version, "version", None) or agent.persona_version
    messages.success(
        request,
        f"Taken back. The persona is now at version {number}; this change will not be proposed again.",
    )
    return redirect(agent_url)
