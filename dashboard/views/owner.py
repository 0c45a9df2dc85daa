"""My persona: the page where a person whose login is linked to them (an
``OwnerAccount``) curates their own persona document (PRODUCT.md section 3).

Only the owner writes their document, so nothing here takes a person from the URL:
every view finds the document through the logged-in user's link. A login without a
link gets a page saying so (and who can link it); its writes are 403.

The whole workspace is one form: the entries (text, sensitivity, tier, order, add,
remove) post together with the version they were edited from, and the per-entry
buttons (reinforce, demote) and the nominations' buttons (affirm, decline) post the
same form to their own URL. So every write carries the owner's unsaved text, and no
action loses it: after an action the unsaved edit is shown again, merged with what the
action did. When someone else saved meanwhile (another tab, the CLI, the API), the
saved version and the unsaved edit are shown side by side, the edit kept in the form
and now based on the new head, so saving it again works (reload-and-merge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.views.decorators.http import require_GET, require_POST

from dashboard.views.people import _evidence_of
from dashboard.views.persona import _prompt_runs
from memory.models import Belief, Message
from memory.models_beliefs import SENSITIVITY_BY_NAME, BeliefCategory, Sensitivity
from persona.forms import MAX_VERSION
from persona.models import (
    AgentPersonaVersion,
    OwnerAccount,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
)
from persona.models_owner import Author, EntrySource, Tier
from persona.mutes import active_mutes, muted_from, muting_rows
from persona.owner import (
    MAX_ENTRIES,
    MAX_ENTRY_CHARS,
    MAX_ROW_TOKENS,
    TIER_BELOW,
    DocView,
    OwnerDocConflict,
    OwnerNominationNotFound,
    doc_head,
    nomination_affirm,
    nomination_counts,
    nomination_decline,
    owner_doc_write,
    owner_entry_demote,
    owner_entry_reinforce,
    owner_entry_remove,
    render_row,
    row_filter,
)
from persona.plans import prefix_preview, sha256_text
from persona.tokens import count_tokens
from personaweb.errors import Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial
from personaweb.marks import quote_in_context, quote_mark_param
from personaweb.roles import OPERATOR
from safety.injection import ScanResult, scan_many
from safety.secrets import find_secrets
from tenancy.access import visible_tenant_ids
from tenancy.models import Agent

PAGE_OUT_OF_DATE = (
    "This page is out of date or incomplete, so nothing was saved; your text is kept below "
    "next to the saved version."
)
UNSAVED_KEPT = "Your unsaved changes are still in the form; save them when you are ready."
NOMINATIONS_SHOWN = 20
#: beliefs the assistants hold about the owner listed on the page (muted ones included)
BELIEFS_SHOWN = 20
TOMBSTONES_SHOWN = 5
SENSITIVITY_NAMES = [label for _, label in Sensitivity.choices]
SENSITIVITY_LABELS = dict(Sensitivity.choices)
CATEGORY_LABELS = dict(BeliefCategory.choices)
#: The ceiling a plan uses when the host names none (``persona.plans``).
DEFAULT_CEILING = "internal"


# --- who is the owner ----------------------------------------------------------------


def _account(request: HtmxHttpRequest) -> OwnerAccount | None:
    """The user's link to the person they are, while they are still a member of that
    person's tenant (one query). Also primes ``user.owner_account`` for the nav link."""
    user = request.user
    uid = int(user.pk or 0)  # the views are login_required: always a real user
    qs = OwnerAccount.objects.filter(user_id=uid).select_related("principal__tenant")
    if not getattr(user, "is_superuser", False):
        qs = qs.filter(principal__tenant__memberships__user_id=uid)
    account = qs.first()
    OwnerAccount.user.field.remote_field.set_cached_value(user, account)  # type: ignore[attr-defined,arg-type]
    return account


def _owner_or_403(request: HtmxHttpRequest) -> OwnerAccount:
    account = _account(request)
    if account is None:
        raise PermissionDenied(
            "Only the person a persona document belongs to may change it, and your login "
            "is not linked to a person."
        )
    return account


# --- the owner's draft ------------------------------------------------------------------


@dataclass
class Row:
    """One entry as the form shows it: the owner's words and settings, with the saved
    entry of the same key (its provenance and annotations) when there is one."""

    key: str
    text: str
    sensitivity: str
    tier: str
    entry: OwnerEntry | None = None
    secret_removed: bool = False
    scan: ScanResult | None = None  # the injection scan of the saved words
    origin: str = ""  # what an affirmed entry came from, in words
    below: str = ""  # the tier "Demote" lowers the saved entry to ("": it is the lowest)
    mute: Any = None  # the mute in force of the saved entry (``persona.mutes``)

    def content(self) -> tuple[str, str, str, str]:
        return (self.key, " ".join(self.text.split()), self.sensitivity, self.tier)


@dataclass
class Draft:
    base: int | None  # the version the form was made from (None: missing or broken)
    rows: list[Row] = field(default_factory=list)

    def payload(self) -> list[dict[str, str]]:
        out = []
        for r in self.rows:
            item = {"text": r.text, "sensitivity": r.sensitivity, "tier": r.tier}
            if r.key:
                item["key"] = r.key
            out.append(item)
        return out


def _row_of(entry: OwnerEntry) -> Row:
    return Row(
        key=entry.key,
        text=entry.text,
        sensitivity=SENSITIVITY_LABELS.get(entry.sensitivity, DEFAULT_CEILING),
        tier=entry.tier,
        entry=entry,
    )


def _version_number(value: str) -> int | None:
    value = value.strip()
    if not (value.isascii() and value.isdigit()) or len(value) > 10:
        return None
    number = int(value)
    return number if number <= MAX_VERSION else None


def _draft(data: Any) -> Draft:
    """The form as posted: rows in position order; removed rows and empty new rows left
    out. The lists are parallel (one of each per row)."""
    texts = data.getlist("text")
    keys, sens, tiers = data.getlist("key"), data.getlist("sensitivity"), data.getlist("tier")
    positions, removed = data.getlist("pos"), set(data.getlist("remove"))

    def at(values: list[str], i: int, default: str) -> str:
        return values[i] if i < len(values) else default

    ordered: list[tuple[float, int, Row]] = []
    for i, text in enumerate(texts):
        key = at(keys, i, "").strip()[:32]
        if str(i) in removed or (not text.strip() and not key):
            continue
        try:
            pos = float(at(positions, i, ""))
        except ValueError:
            pos = float(i + 1)
        row = Row(
            key=key,
            text=text,
            sensitivity=at(sens, i, DEFAULT_CEILING),
            tier=at(tiers, i, Tier.LONG_TERM),
        )
        ordered.append((pos, i, row))
    ordered.sort(key=lambda t: (t[0], t[1]))
    return Draft(
        base=_version_number(data.get("expected_version", "")), rows=[r for *_, r in ordered]
    )


def _content_of(entries: list[OwnerEntry]) -> list[tuple[str, str, str, str]]:
    return [_row_of(e).content() for e in entries]


def _base_entries(draft: Draft, principal_id: int, head: DocView) -> list[OwnerEntry] | None:
    """The entries of the version the draft was made from (None: unknown)."""
    if draft.base is None:
        return None
    if draft.base == head.version:
        return head.entries
    return list(
        OwnerEntry.objects.filter(
            version__document__principal_id=principal_id, version__version=draft.base
        ).order_by("position")
    )


def _is_dirty(draft: Draft, base_entries: list[OwnerEntry] | None) -> bool:
    """Does the draft differ from the version it was made from?"""
    if base_entries is None:
        return True
    return [r.content() for r in draft.rows] != _content_of(base_entries)


def _without_secrets(rows: list[Row]) -> list[Row]:
    """A text holding a secret is never sent back into the page."""
    for r in rows:
        if r.text and find_secrets(r.text):
            r.text = ""
            r.secret_removed = True
    return rows


# --- rendering ----------------------------------------------------------------------------


def _nomination_evidence(nomination: OwnerNomination, message: Message | None) -> dict[str, Any]:
    """How a nomination's evidence shows (the shape of ``_evidence_of``): the belief's own
    quote, linked and marked in its conversation; from a sealed conversation never its
    words; the kept copy when the belief or message is gone."""
    belief = nomination.belief
    if belief is not None and belief.evidence_message_id:
        return _evidence_of(belief)
    quote = nomination.evidence_quote
    if message is not None:
        conversation = message.conversation
        if conversation.sealed:
            return {"kind": "sealed"}
        start = message.text.find(quote) if quote else -1
        url = reverse("memory:conversation", args=[conversation.pk])
        if start < 0:
            return {"kind": "orphan", "quote": quote} if quote else {"kind": "none"}
        end = start + len(quote)
        mark = quote_mark_param({"message_id": message.pk, "start": start, "end": end})
        return {
            "kind": "quote",
            "url": f"{url}?mark={mark}#quote",
            "conversation": conversation.external_id,
            "quote": quote,
            "context": quote_in_context(message.text, start, end),
        }
    if belief is not None and belief.source_host:
        return {"kind": "host", "host": belief.source_host}
    return {"kind": "orphan", "quote": quote} if quote else {"kind": "none"}


def _nominations(principal_id: int) -> list[dict[str, Any]]:
    """The open nominations, oldest first, with their evidence (at most two queries)."""
    rows = list(
        OwnerNomination.objects.filter(
            principal_id=principal_id, state=OwnerNomination.State.NOMINATED
        )
        .select_related("belief__evidence_message__conversation")
        .defer("belief__evidence_message__conversation__memory_scope")
        .order_by("nominated_at", "id")[:NOMINATIONS_SHOWN]
    )
    loose = [
        n.evidence_message_id
        for n in rows
        if (n.belief is None or not n.belief.evidence_message_id) and n.evidence_message_id
    ]
    found = (
        {m.pk: m for m in Message.objects.filter(pk__in=loose).select_related("conversation")}
        if loose
        else {}
    )
    return [
        {
            "nomination": n,
            "category_label": CATEGORY_LABELS.get(n.category, n.category.replace("_", " ")),
            "sensitivity_label": SENSITIVITY_LABELS.get(n.sensitivity, ""),
            "evidence": _nomination_evidence(n, found.get(n.evidence_message_id or 0)),
        }
        for n in rows
    ]


def _beliefs(principal_id: int) -> list[Belief]:
    """What the assistants believe about the owner now, and what the owner muted, newest
    first (one query): each with Mute or Unmute."""
    return list(
        Belief.objects.filter(
            principal_id=principal_id,
            status__in=[Belief.Status.ACTIVE, Belief.Status.MUTED],
        )
        .select_related("agent")
        .only(
            "id",
            "statement",
            "status",
            "category",
            "updated_at",
            "muted_at",
            "muted_by",
            "mute_reason",
            "agent__name",
        )
        .order_by("-updated_at", "-id")[:BELIEFS_SHOWN]
    )


def _page_wait() -> bool:
    """Pages never wait for the embedding model (the test suite does)."""
    return bool(getattr(settings, "PERSONAWEB_PAGE_SCAN_WAIT", False))


def _preview(
    request: HtmxHttpRequest,
    principal: Any,
    entries: list[OwnerEntry],
    *,
    agents: list[Agent] | None = None,
    mutes: list[Any] | None = None,
) -> dict[str, Any]:
    """How the saved document renders in the prompt: the row, and the whole prefix a
    new session of the chosen assistant would pin (``persona.plans.prefix_preview``),
    without what the owner muted (``mutes``: the mutes in force, when read already)."""
    wait = _page_wait()
    if agents is None:
        agents = _agents_of(principal)
    if mutes is None:
        mutes = active_mutes(principal.pk)
    slug = request.GET.get("agent") or request.POST.get("agent") or ""
    agent = next((a for a in agents if a.slug == slug), agents[0] if agents else None)
    version = (
        AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()
        if agent is not None and agent.persona_version
        else None
    )
    out: dict[str, Any] = {"agents": agents, "preview_agent": agent}
    if version is not None:
        preview = prefix_preview(
            version=version,
            entries=entries,
            max_sensitivity=DEFAULT_CEILING,
            wait=wait,
            muted=muted_from(mutes, agent_id=version.agent_id),
        )
        row, shown, above, dormant, muted = (
            preview.row,
            preview.shown,
            preview.above_ceiling,
            preview.dormant,
            preview.muted,
        )
        out.update(
            {
                "prefix_runs": _prompt_runs(preview.text),
                "prefix_sha256": sha256_text(preview.text),
                "prefix_tokens": count_tokens(preview.text),
                "pending": preview.pending,
            }
        )
    else:
        keys = muted_from(mutes, agent_id=None).entry_keys
        shown, hidden = row_filter(
            entries, ceiling=SENSITIVITY_BY_NAME[DEFAULT_CEILING], muted=keys
        )
        dormant = [e for e in hidden if e.dormant]
        muted = [e for e in hidden if e.key in keys]
        above = [e for e in entries if e not in shown and e not in hidden]
        row = render_row(shown, wait=wait)
        out["pending"] = "[SCANNING" in row
    out.update(
        {
            "row_runs": _prompt_runs(row) if row else [],
            "row_tokens": count_tokens(row) if row else 0,
            "doc_tokens": count_tokens(render_row(entries, wait=wait)) if entries else 0,
            "row_token_cap": MAX_ROW_TOKENS,
            "left_out_above": above,
            "left_out_dormant": dormant,
            "left_out_muted": muted,
            "ceiling": DEFAULT_CEILING,
        }
    )
    return out


def _agents_of(principal: Any) -> list[Agent]:
    return list(Agent.objects.filter(tenant_id=principal.tenant_id).order_by("name", "id")[:50])


#: How a saved entry compares with the owner's unsaved edit (and the version it was
#: made from), on the reload-and-merge panel.
MARKS = {
    "same": "same in your edit",
    "yours": "you changed it",
    "theirs": "changed meanwhile",
    "both": "changed meanwhile and by you",
    "differs": "differs from your edit",
    "added": "added meanwhile: not in your edit",
    "dropped": "you removed it",
    "missing": "not in your edit",
}


def _theirs(
    head: DocView, rows: list[Row], base_entries: list[OwnerEntry] | None
) -> list[dict[str, Any]]:
    """The saved version's entries, each marked against the owner's unsaved edit and,
    when known, the version that edit was made from (who changed what)."""
    mine = {r.key: r for r in rows if r.key}
    base = {e.key: _row_of(e).content() for e in base_entries or []}
    known = base_entries is not None
    out = []
    for e in head.entries:
        saved = _row_of(e)
        r = mine.get(e.key)
        if r is None:
            mark = ("dropped" if e.key in base else "added") if known else "missing"
        elif r.content() == saved.content():
            mark = "same"
        elif not known or e.key not in base:
            mark = "differs"
        elif base[e.key] == saved.content():
            mark = "yours"
        elif base[e.key] == r.content():
            mark = "theirs"
        else:
            mark = "both"
        out.append({"entry": e, "mark": mark, "label": MARKS[mark], "row": saved})
    return out


def _day(when: Any) -> str:
    """ "3 March", with the year when it is not this one."""
    local = timezone.localtime(when)
    same_year = local.year == timezone.localtime().year
    return dateformat.format(local, "j F" if same_year else "j F Y")


def _origins(rows: list[Row]) -> dict[int, str]:
    """What each affirmed entry came from, in words (never an id): "what you told
    Helper on 3 March" (one query for all of them)."""
    ids = {r.entry.source_belief_id for r in rows if r.entry and r.entry.source_belief_id}
    if not ids:
        return {}
    beliefs = (
        Belief.objects.filter(pk__in=ids)
        .select_related("agent", "evidence_message")
        .only("id", "created_at", "source_host", "agent__name", "evidence_message__created_at")
    )
    out = {}
    for b in beliefs:
        if b.evidence_message is not None:
            out[b.pk] = f"what you told {b.agent.name} on {_day(b.evidence_message.created_at)}"
        elif b.source_host:
            out[b.pk] = f"what {b.source_host} noted about you on {_day(b.created_at)}"
        else:
            out[b.pk] = f"what {b.agent.name} learnt about you on {_day(b.created_at)}"
    return out


def _draft_entries(rows: list[Row], head: DocView) -> list[OwnerEntry]:
    """The unsaved edit as entries (never saved) for the preview: a row of a saved entry
    keeps its provenance and annotations, like a save would; a text holding a secret is
    left out (it is never shown)."""
    by_key = {e.key: e for e in head.entries}
    out = []
    for i, r in enumerate(rows):
        text = " ".join(r.text.split())
        if not text or find_secrets(text):
            continue
        old = by_key.get(r.key) if r.key else None
        same = old is not None and old.text == text
        out.append(
            OwnerEntry(
                key=r.key or f"unsaved-{i}",
                position=i,
                text=text,
                sensitivity=SENSITIVITY_BY_NAME.get(
                    r.sensitivity, SENSITIVITY_BY_NAME[DEFAULT_CEILING]
                ),
                tier=r.tier if r.tier in Tier.values else Tier.LONG_TERM,
                source=old.source if old is not None else EntrySource.USER_EDIT,
                author=old.author if same and old is not None else Author.OWNER,
                reinforcement_count=old.reinforcement_count if old is not None else 0,
                dormant=old.dormant if old is not None else False,
                stale=old.stale if same and old is not None else False,
            )
        )
    return out


def _render(
    request: HtmxHttpRequest,
    account: OwnerAccount,
    *,
    head: DocView,
    rows: list[Row] | None = None,
    conflict: bool = False,
    base_entries: list[OwnerEntry] | None = None,
    ok: str = "",
    error: str = "",
    note: str = "",
    preview_of: list[OwnerEntry] | None = None,
) -> HttpResponse:
    principal = account.principal
    by_key = {e.key: e for e in head.entries}
    if rows is None:
        rows = [_row_of(e) for e in head.entries]
    else:
        rows = _without_secrets(rows)
        for r in rows:
            r.entry = by_key.get(r.key) if r.key else None
    # the scan at load, as the prompt row runs it: a blocked entry is flagged in the form
    saved = [(r, r.entry.text) for r in rows if r.entry is not None]
    results = scan_many([text for _, text in saved], wait=_page_wait())
    for (r, _), result in zip(saved, results, strict=True):
        r.scan = result
    origins = _origins(rows)
    agents = _agents_of(principal)
    mutes = active_mutes(principal.pk)
    line_rows, entry_mutes = muting_rows(principal, agents, mutes=mutes)
    preview = _preview(
        request,
        principal,
        head.entries if preview_of is None else preview_of,
        agents=agents,
        mutes=mutes,
    )
    for r in rows:
        r.mute = entry_mutes.get(r.key) if r.entry is not None else None
        lower = TIER_BELOW.get(r.entry.tier) if r.entry is not None else None
        r.below = Tier(lower).label if lower else ""
        if r.entry is not None and r.entry.source_belief_id:
            r.origin = origins.get(r.entry.source_belief_id, "a belief that has since ended")
    context: dict[str, Any] = {
        "account": account,
        "principal": principal,
        "head": head,
        "rows": rows,
        "conflict": conflict,
        "theirs": _theirs(head, rows, base_entries) if conflict else [],
        "ok": ok,
        "error": error,
        "note": note,
        "secret_removed": any(r.secret_removed for r in rows),
        "nominations": _nominations(principal.pk),
        "nomination_counts": nomination_counts([principal.pk]),
        "tombstones": list(
            OwnerTombstone.objects.filter(document__principal_id=principal.pk).order_by(
                "-removed_at", "-id"
            )[:TOMBSTONES_SHOWN]
        ),
        "sensitivities": SENSITIVITY_NAMES,
        "tiers": Tier.choices,
        "max_entries": MAX_ENTRIES,
        "max_entry_chars": MAX_ENTRY_CHARS,
        "affirmed": EntrySource.AFFIRMATION,
        "unsaved": preview_of is not None,
        "line_rows": line_rows,
        "beliefs": _beliefs(principal.pk),
        **preview,
    }
    template = "dashboard/my_persona.html"
    if is_partial(request):
        template += "#workspace"
    return render(request, template, context)


def _done(request: HtmxHttpRequest, account: OwnerAccount, ok: str) -> HttpResponse:
    """A write went through and nothing unsaved is in the way: the fresh document."""
    if is_partial(request):
        return _render(request, account, head=doc_head(account.principal_id), ok=ok)
    messages.success(request, ok)
    return redirect("owner:persona")


@dataclass
class Posted:
    """A post of the workspace form: whose, the owner's draft, the head before the
    action, and the entries of the version the draft was made from."""

    account: OwnerAccount
    draft: Draft
    head: DocView
    base_entries: list[OwnerEntry] | None

    @property
    def dirty(self) -> bool:
        return _is_dirty(self.draft, self.base_entries)


def _posted(request: HtmxHttpRequest) -> Posted:
    account = _owner_or_403(request)
    draft = _draft(request.POST)
    head = doc_head(account.principal_id)
    return Posted(account, draft, head, _base_entries(draft, account.principal_id, head))


def _after(
    request: HtmxHttpRequest,
    posted: Posted,
    *,
    wrote: bool,
    ok: str = "",
    error: str = "",
    effect: Any = None,
) -> HttpResponse:
    """The answer to an action (reinforce, demote, affirm, decline). Nothing unsaved:
    the fresh document. An unsaved edit: shown again, with what the action did merged
    into it (``effect(rows, head)``), and side by side with the saved version when
    someone else saved meanwhile."""
    account, draft = posted.account, posted.draft
    if not posted.dirty:
        if error:
            return _render(request, account, head=doc_head(account.principal_id), error=error)
        return _done(request, account, ok)
    head = doc_head(account.principal_id)
    rows = effect(draft.rows, head) if effect is not None and not error else draft.rows
    expected = (draft.base if draft.base is not None else -1) + (1 if wrote else 0)
    return _render(
        request,
        account,
        head=head,
        rows=rows,
        conflict=head.version != expected,
        base_entries=posted.base_entries,
        ok=ok,
        error=error,
        note=UNSAVED_KEPT,
    )


# --- pages -------------------------------------------------------------------------------


def _not_linked(request: HtmxHttpRequest) -> HttpResponse:
    tids = visible_tenant_ids(request.user)
    operators = get_user_model().objects.filter(groups__name=OPERATOR, is_active=True)
    if tids is not None:
        operators = operators.filter(memberships__tenant_id__in=tids)
    names = list(operators.order_by("username").values_list("username", flat=True).distinct()[:5])
    return render(
        request,
        "dashboard/my_persona.html",
        {"account": None, "operators": names, "username": request.user.get_username()},
    )


@require_GET
@login_required
def my_persona(request: HtmxHttpRequest) -> HttpResponse:
    account = _account(request)
    if account is None:
        return _not_linked(request)
    head = doc_head(account.principal_id)
    if is_partial(request) and request.htmx.target == "preview":
        context = {
            "account": account,
            "head": head,
            **_preview(request, account.principal, head.entries),
        }
        return render(request, "dashboard/my_persona.html#preview", context)
    return _render(request, account, head=head)


@require_POST
@login_required
def save(request: HtmxHttpRequest) -> HttpResponse:
    account = _owner_or_403(request)
    draft = _draft(request.POST)
    if draft.base is None:
        head = doc_head(account.principal_id)
        return _render(
            request, account, head=head, rows=draft.rows, conflict=True, error=PAGE_OUT_OF_DATE
        )
    try:
        version = owner_doc_write(
            principal=account.principal,
            expected_version=draft.base,
            entries=draft.payload(),
            written_by=request.user.get_username(),
        )
    except OwnerDocConflict as exc:
        head = doc_head(account.principal_id)
        return _render(
            request,
            account,
            head=head,
            rows=draft.rows,
            conflict=True,
            base_entries=_base_entries(draft, account.principal_id, head),
            error=f"Not saved: someone saved version {exc.head} while you edited "
            f"version {draft.base}.",
        )
    except Refusal as exc:
        head = doc_head(account.principal_id)
        return _render(request, account, head=head, rows=draft.rows, error=f"Not saved: {exc}")
    if version is None:
        return _done(request, account, "Nothing changed, so no new version was written.")
    return _done(
        request,
        account,
        f"Saved as version {version.version}. The assistants read it from their next session "
        "or turn on.",
    )


@require_POST
@login_required
def preview(request: HtmxHttpRequest) -> HttpResponse:
    """How the unsaved edit would render in the prompt. htmx (as the owner types): the
    preview panel only; without JavaScript (the Preview button): the whole page, the
    edit kept in the form, nothing saved."""
    account = _owner_or_403(request)
    draft = _draft(request.POST)
    head = doc_head(account.principal_id)
    entries = _draft_entries(draft.rows, head)
    if is_partial(request) and request.htmx.target == "preview":
        context = {
            "account": account,
            "head": head,
            "unsaved": True,
            **_preview(request, account.principal, entries),
        }
        return render(request, "dashboard/my_persona.html#preview", context)
    stale = draft.base is None or draft.base != head.version
    return _render(
        request,
        account,
        head=head,
        rows=draft.rows,
        conflict=stale,
        base_entries=_base_entries(draft, account.principal_id, head),
        note="This preview shows your unsaved edit; nothing is saved until you press Save.",
        preview_of=entries,
    )


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


@require_POST
@login_required
def reinforce(request: HtmxHttpRequest) -> HttpResponse:
    posted = _posted(request)
    key = request.POST.get("entry", "")
    was = next((e for e in posted.head.entries if e.key == key), None)
    try:
        entry = owner_entry_reinforce(principal=posted.account.principal, key=key)
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not reinforced: {exc}")
    ok = f"Reinforced “{_short(entry.text)}” ({entry.reinforcement_count}×)."
    if was is not None and was.dormant:
        ok += " It is no longer dormant and returns to the prompt at the next plan."
    return _after(request, posted, wrote=False, ok=ok)


@require_POST
@login_required
def demote(request: HtmxHttpRequest) -> HttpResponse:
    """Lower one entry's tier by one step (its words stay)."""
    posted = _posted(request)
    key = request.POST.get("entry", "")
    if posted.draft.base is None:
        return _after(request, posted, wrote=False, error=PAGE_OUT_OF_DATE)
    try:
        _, entry = owner_entry_demote(
            principal=posted.account.principal,
            expected_version=posted.draft.base,
            key=key,
            written_by=request.user.get_username(),
        )
    except OwnerDocConflict as exc:
        return _after(
            request,
            posted,
            wrote=False,
            error=f"Not demoted: someone saved version {exc.head} meanwhile. Look at it and "
            "demote again if you still want to.",
        )
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not demoted: {exc}")
    label = Tier(entry.tier).label
    ok = f"Demoted “{_short(entry.text)}” to {label}."
    if entry.tier == Tier.WORKING:
        ok += " A working entry not reinforced for a while turns dormant and leaves the prompt."

    def effect(rows: list[Row], _: DocView) -> list[Row]:
        for r in rows:
            if r.key == key:
                r.tier = entry.tier
        return rows

    return _after(request, posted, wrote=True, ok=ok, effect=effect)


@require_POST
@login_required
def remove(request: HtmxHttpRequest) -> HttpResponse:
    """Take one entry out now, keeping what it said and why under Removed entries."""
    posted = _posted(request)
    key = request.POST.get("entry", "")
    if posted.draft.base is None:
        return _after(request, posted, wrote=False, error=PAGE_OUT_OF_DATE)
    try:
        owner_entry_remove(
            principal=posted.account.principal,
            expected_version=posted.draft.base,
            key=key,
            reason=request.POST.get(f"reason_{key}", ""),
            removed_by=request.user.get_username(),
        )
    except OwnerDocConflict as exc:
        return _after(
            request,
            posted,
            wrote=False,
            error=f"Not removed: someone saved version {exc.head} meanwhile. Look at it and "
            "remove it again if you still want to.",
        )
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not removed: {exc}")
    gone = next((e for e in posted.head.entries if e.key == key), None)
    ok = (
        f"Removed “{_short(gone.text if gone else '')}”; what it said and why are kept under "
        "Removed entries."
    )

    def effect(rows: list[Row], _: DocView) -> list[Row]:
        return [r for r in rows if r.key != key]

    return _after(request, posted, wrote=True, ok=ok, effect=effect)


@require_POST
@login_required
def affirm(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    posted = _posted(request)
    try:
        version = nomination_affirm(
            principal=posted.account.principal, nomination_id=pk, by=request.user.get_username()
        )
    except OwnerNominationNotFound:
        raise Http404("No such nomination.") from None
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not affirmed: {exc}")
    ok = (
        f"Affirmed: it is in your document now (version {version.version}) and reaches the "
        "prompt at the next plan."
    )
    # the affirmation entry is the last of the version it created
    added = version.entries.order_by("-position").first()

    def effect(rows: list[Row], now: DocView) -> list[Row]:
        current = next((e for e in now.entries if added and e.key == added.key), None)
        if current is None or any(r.key == current.key for r in rows):
            return rows
        return [*rows, _row_of(current)]

    return _after(
        request, posted, wrote=version.version > posted.head.version, ok=ok, effect=effect
    )


@require_POST
@login_required
def decline(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    posted = _posted(request)
    try:
        nomination = nomination_decline(
            principal=posted.account.principal, nomination_id=pk, by=request.user.get_username()
        )
    except OwnerNominationNotFound:
        raise Http404("No such nomination.") from None
    except Refusal as exc:
        return _after(request, posted, wrote=False, error=f"Not declined: {exc}")
    ok = f"Declined “{_short(nomination.statement)}”: it will not be suggested again."
    return _after(request, posted, wrote=False, ok=ok)
