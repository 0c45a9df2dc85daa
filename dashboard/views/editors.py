"""The persona editors of the agent page: name, role, goals and background; guardrails;
standing rules; revert to a version; undo of a manual edit.

Every editor works the same way, with or without JavaScript:

- **Preview** (a plain POST with ``action=preview``, or htmx swapping ``#preview``)
  re-renders the form with the word diff of the system prompt the save would write and
  anything the services would refuse; nothing is written.
- **Save** first lists the waiting proposals the save would drop and asks to confirm
  (``confirm_drops`` carries the ids that were shown); then calls the service with the
  version the form was made from (``expected_version``). A save from an old version is
  refused by the service (``PersonaEditStale``) and the page shows the saved version
  beside the edit: theirs with who, when and why, yours kept in the form, "Use this"
  per field or per line, and the form now based on the saved version, so the next save
  goes against it and never over it. ``seen_version`` keeps the version the edit began
  from, so the marks (changed meanwhile, changed by you) survive a "Use this" round trip
  without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from learning.models import Proposal
from learning.owners import (
    is_rule_owner,
    learning_settings_of,
    rule_owner_names,
    rule_owner_refusal,
)
from learning.selectors import proposals_a_change_drops
from persona.forms import ListEditForm, ListSpec, PersonaFieldsForm
from persona.models import AgentPersonaVersion, SourceType
from persona.render import render_persona
from persona.services import (
    MAX_GUARDRAIL_CHARS,
    MAX_GUARDRAILS,
    MAX_REASON_CHARS,
    MAX_RULE_CHARS,
    MAX_RULES,
    PERSONA_FIELDS,
    ChangeTrigger,
    persona_snapshot,
    validate_changes,
    validate_guardrails,
    validate_rules,
)
from persona.services_edits import (
    FIELD_LABELS,
    PersonaEditStale,
    fields_phrase,
    persona_edit,
    persona_edit_undo,
    persona_version_revert,
    undo_refusal,
)
from personaweb.errors import NotPermitted, NotReachable, Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial
from personaweb.marks import field_text, word_diff
from personaweb.roles import is_operator
from tenancy.access import actor_for_user, agent_for_user

#: what a revert or undo adds before the person's reason ("Reverted to version 12: ")
REASON_PREFIX_ROOM = 40


# --- shared parts ----------------------------------------------------------------------


def _head(agent: Any) -> AgentPersonaVersion | None:
    if not agent.persona_version:
        return None
    return AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()


def _agent_url(agent: Any) -> str:
    return reverse("persona:agent", args=[agent.slug])


def _authorise(request: HtmxHttpRequest, agent: Any, *, fields: set[str]) -> None:
    """Draw the page only for someone the service would let save it (the service asks
    again): an operator; for the standing rules, a rule owner too."""
    if fields <= {"standing_rules"}:
        refusal = rule_owner_refusal(
            agent=agent, user=request.user, settings=learning_settings_of(agent)
        )
        if refusal:
            raise PermissionDenied(f"{refusal} Standing rules are edited by a rule owner.")
        return
    if not is_operator(request.user):
        raise PermissionDenied("Only an operator may edit an assistant's persona.")


def _prompt_diff(
    head: AgentPersonaVersion | None, agent: Any, state: dict[str, Any]
) -> list[tuple[str, str]]:
    """The word diff of the system prompt: the head's, and the one ``state`` would give."""
    learned = [
        e
        for e in (getattr(head, "learned", None) or [])
        if e.get("sentence") and e["sentence"] in (state.get(e.get("field", "")) or "")
    ]
    candidate = AgentPersonaVersion(agent=agent, learned=learned, **state)
    old = render_persona(head, wait=True) if head is not None else ""
    return word_diff(old, render_persona(candidate, wait=True))


@dataclass
class Preview:
    runs: list[tuple[str, str]]
    changed: list[str]
    refusal: str = ""


def _preview(
    head: AgentPersonaVersion | None, agent: Any, changes: dict[str, Any], *, source: str
) -> Preview:
    """What saving ``changes`` would do to the prompt, and what the services would refuse
    (nothing is written)."""
    base = persona_snapshot(head)
    try:
        cleaned = validate_changes(
            changes=changes, trigger=ChangeTrigger(source_type=source, reason="preview")
        )
    except Refusal as exc:
        return Preview(runs=[], changed=[], refusal=str(exc))
    state = {**base, **cleaned}
    changed = [f for f in PERSONA_FIELDS if state[f] != base[f]]
    return Preview(runs=_prompt_diff(head, agent, state) if changed else [], changed=changed)


def _drops(agent: Any, source: str) -> list[Proposal]:
    return list(proposals_a_change_drops(agent=agent, source_type=source))


def drops_confirmed(request: HtmxHttpRequest, drops: list[Proposal]) -> bool:
    """Every proposal the save would drop was listed to this person and they confirmed
    (a proposal that arrived after the list was shown is asked about again)."""
    if not drops:
        return True
    shown = {p for p in request.POST.get("confirm_drops", "").split(",") if p.isdigit()}
    return {str(p.pk) for p in drops} <= shown


def _seen(request: HtmxHttpRequest, fallback: int) -> int:
    raw = request.POST.get("seen_version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else fallback


def _version_at(agent: Any, number: int) -> AgentPersonaVersion | None:
    return AgentPersonaVersion.objects.filter(agent=agent, version=number).first()


def _stale_sentence(exc: PersonaEditStale) -> str:
    """What happened, said once (who, when and why are in the saved version's header
    beside it)."""
    who = exc.head.approved_by or "Someone"
    return (
        f"Not saved: {who} saved version {exc.current} while you were editing version "
        f"{exc.expected}. Your edit is kept, unsaved, next to theirs; “Use this” copies a "
        f"part of theirs into it. Save again when it holds what you want."
    )


def _stale_context(
    stale_head: AgentPersonaVersion | None, seen: AgentPersonaVersion | None
) -> dict[str, Any]:
    if stale_head is None:
        return {}
    return {"theirs_version": stale_head, "seen_version": seen.version if seen else 0}


# --- name, role, goals, background ----------------------------------------------------

TEXT_MARKS = {
    "same": "same as your edit",
    "theirs": "changed meanwhile",
    "yours": "you changed it",
    "both": "changed meanwhile and by you",
}


def _text_merge(
    head: AgentPersonaVersion, seen: AgentPersonaVersion | None, mine: dict[str, str]
) -> list[dict[str, Any]]:
    """Each text field of the saved head, marked against the edit and the version the
    edit began from."""
    out = []
    for name in PersonaFieldsForm.TEXT_FIELDS:
        theirs = getattr(head, name)
        base = getattr(seen, name) if seen is not None else theirs
        yours = mine.get(name, "")
        if yours == theirs:
            mark = "same"
        elif base == yours:
            mark = "theirs"
        elif base == theirs:
            mark = "yours"
        else:
            mark = "both"
        out.append(
            {
                "field": name,
                "label": FIELD_LABELS[name].capitalize(),
                "text": theirs,
                "mark": mark,
                "label_mark": TEXT_MARKS[mark],
            }
        )
    return out


@require_http_methods(["GET", "POST"])
@login_required
def edit_fields(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    agent = agent_for_user(request, slug, with_learning=True)
    _authorise(request, agent, fields={"name", "role", "goals", "background"})
    head = _head(agent)
    context: dict[str, Any] = {
        "agent": agent,
        "head": head,
        # the page links only the editors this person may use
        "can_edit_rules": is_rule_owner(request.user, agent, learning_settings_of(agent)),
    }
    drops = _drops(agent, SourceType.UI_FORM)
    if request.method == "GET":
        initial = {f: getattr(head, f, "") for f in PersonaFieldsForm.TEXT_FIELDS}
        form = PersonaFieldsForm(initial={**initial, "expected_version": agent.persona_version})
        context.update(form=form, drops=drops, seen=agent.persona_version)
        return render(request, "dashboard/persona_edit.html", context)
    data = request.POST.copy()
    use = request.POST.get("use", "")
    seen_number = _seen(request, agent.persona_version)
    if use in PersonaFieldsForm.TEXT_FIELDS and head is not None:
        data[use] = getattr(head, use)  # "Use this" without JavaScript
    form = PersonaFieldsForm(data)
    action = request.POST.get("action", "save")
    context.update(form=form, drops=drops, seen=seen_number)
    if form.is_valid() and not use:
        changes = form.changes()
        if action == "preview":
            context["preview"] = _preview(head, agent, changes, source=SourceType.UI_FORM)
            if is_partial(request):
                return render(request, "dashboard/persona_edit.html#preview", context)
        elif not drops_confirmed(request, drops):
            context["ask_drops"] = True
        else:
            try:
                version = persona_edit(
                    agent=agent,
                    by=actor_for_user(request.user),
                    changes=changes,
                    reason=form.cleaned_data["reason"],
                    base_version=form.cleaned_data["expected_version"],
                )
            except PersonaEditStale as exc:
                seen = _version_at(agent, seen_number)
                context.update(
                    stale=_stale_sentence(exc),
                    merge=_text_merge(exc.head, seen, changes),
                    **_stale_context(exc.head, seen),
                )
                form = _rebased(PersonaFieldsForm, data, exc.head.version)
                context["form"] = form
            except (NotPermitted, NotReachable):
                raise
            except Refusal as exc:
                form.add_error(None, str(exc))
            else:
                return _saved(request, agent, version)
    if use and head is not None:
        seen = _version_at(agent, seen_number)
        mine = {f: str(data.get(f, "")) for f in PersonaFieldsForm.TEXT_FIELDS}
        context.update(merge=_text_merge(head, seen, mine), **_stale_context(head, seen))
    return render(request, "dashboard/persona_edit.html", context)


def _rebased(form_class: Any, data: Any, head_version: int, **kwargs: Any) -> Any:
    """The same form, its edit kept, now based on the saved head: the next save goes
    against the version the person has now seen."""
    rebased = data.copy()
    rebased["expected_version"] = str(head_version)
    return form_class(rebased, **kwargs)


def _saved(request: HtmxHttpRequest, agent: Any, version: AgentPersonaVersion) -> HttpResponse:
    messages.success(
        request,
        f"Saved as persona version {version.version} ({fields_phrase(version.fields_changed)}). "
        "You can undo it from the timeline.",
    )
    return redirect(_agent_url(agent) + f"#v{version.version}")


# --- guardrails and standing rules ----------------------------------------------------

GUARDRAILS = ListSpec(
    field="guardrails",
    title="Guardrails",
    singular="guardrail",
    max_items=MAX_GUARDRAILS,
    max_chars=MAX_GUARDRAIL_CHARS,
    validate=validate_guardrails,
    url_name="persona:guardrails",
)
RULES = ListSpec(
    field="standing_rules",
    title="Standing rules",
    singular="standing rule",
    max_items=MAX_RULES,
    max_chars=MAX_RULE_CHARS,
    validate=validate_rules,
    url_name="persona:rules",
)

LINE_MARKS = {
    "same": "in your edit too",
    "added": "added meanwhile: not in your edit",
    "yours": "you removed it",
    "missing": "not in your edit",
}


def _list_merge(
    theirs: list[str], seen: list[str] | None, mine: list[str]
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each line of the saved list, marked against the edit and the version the edit
    began from; and the lines removed meanwhile that the edit still holds."""
    key = str.casefold
    mine_keys = {key(x) for x in mine}
    seen_keys = {key(x) for x in seen} if seen is not None else None
    lines = []
    for i, text in enumerate(theirs):
        if key(text) in mine_keys:
            mark = "same"
        elif seen_keys is None:
            mark = "missing"
        else:
            mark = "yours" if key(text) in seen_keys else "added"
        lines.append({"index": i, "text": text, "mark": mark, "label": LINE_MARKS[mark]})
    theirs_keys = {key(x) for x in theirs}
    removed = (
        [x for x in mine if key(x) in seen_keys and key(x) not in theirs_keys]
        if seen_keys is not None
        else []
    )
    return lines, removed


def _list_editor(request: HtmxHttpRequest, slug: str, spec: ListSpec) -> HttpResponse:
    agent = agent_for_user(request, slug, with_learning=True)
    settings = learning_settings_of(agent)
    if spec is GUARDRAILS:
        _authorise(request, agent, fields={"guardrails"})
    elif reason := rule_owner_refusal(agent=agent, user=request.user, settings=settings):
        raise PermissionDenied(f"{reason} Standing rules are edited by a rule owner.")
    head = _head(agent)
    current = list(getattr(head, spec.field, None) or [])
    drops = _drops(agent, SourceType.UI_FORM)
    context: dict[str, Any] = {
        "agent": agent,
        "spec": spec,
        "head": head,
        "current": current,
        "drops": drops,
        "rule_owners": rule_owner_names(settings),
    }
    if request.method == "GET":
        form = ListEditForm(initial={"expected_version": agent.persona_version}, spec=spec)
        context.update(form=form, rows=current, seen=agent.persona_version)
        return render(request, "dashboard/list_editor.html", context)
    data = request.POST.copy()
    seen_number = _seen(request, agent.persona_version)
    use = request.POST.get("use", "")
    if use.isascii() and use.isdigit() and int(use) < len(current):
        # "Use this" without JavaScript: the saved line joins the edit
        data.setlist("item", [*data.getlist("item"), current[int(use)]])
        data.setlist("pos", [*data.getlist("pos")[: len(data.getlist("item")) - 1], "999"])
    form = ListEditForm(data, spec=spec)
    action = request.POST.get("action", "save")
    context.update(form=form, rows=form.items, seen=seen_number)
    if form.is_valid() and not use:
        items = form.cleaned_data["items"]
        if action == "preview":
            context["preview"] = _preview(
                head, agent, {spec.field: items}, source=SourceType.UI_FORM
            )
            if is_partial(request):
                return render(request, "dashboard/list_editor.html#preview", context)
        elif not drops_confirmed(request, drops):
            context["ask_drops"] = True
        else:
            try:
                version = persona_edit(
                    agent=agent,
                    by=actor_for_user(request.user),
                    changes={spec.field: items},
                    reason=form.cleaned_data["reason"],
                    base_version=form.cleaned_data["expected_version"],
                )
            except PersonaEditStale as exc:
                seen = _version_at(agent, seen_number)
                theirs = list(getattr(exc.head, spec.field) or [])
                lines, removed = _list_merge(
                    theirs, list(getattr(seen, spec.field) or []) if seen else None, items
                )
                context.update(
                    stale=_stale_sentence(exc),
                    lines=lines,
                    removed=removed,
                    form=_rebased(ListEditForm, data, exc.head.version, spec=spec),
                    current=theirs,
                    **_stale_context(exc.head, seen),
                )
            except (NotPermitted, NotReachable):
                raise
            except Refusal as exc:
                form.add_error(None, str(exc))
            else:
                return _saved(request, agent, version)
    if use and head is not None:
        seen = _version_at(agent, seen_number)
        lines, removed = _list_merge(
            current, list(getattr(seen, spec.field) or []) if seen else None, form.items
        )
        context.update(lines=lines, removed=removed, **_stale_context(head, seen))
    return render(request, "dashboard/list_editor.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def guardrails(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _list_editor(request, slug, GUARDRAILS)


@require_http_methods(["GET", "POST"])
@login_required
def rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    return _list_editor(request, slug, RULES)


# --- revert and undo ------------------------------------------------------------------


def _field_diffs(
    old: dict[str, Any], new: dict[str, Any], fields: list[str] | tuple[str, ...] = PERSONA_FIELDS
) -> list[tuple[str, list[tuple[str, str]]]]:
    return [
        (FIELD_LABELS[f], word_diff(field_text(old[f]), field_text(new[f])))
        for f in fields
        if old[f] != new[f]
    ]


def _reason_of(request: HtmxHttpRequest) -> str:
    return " ".join(request.POST.get("reason", "").split())[: MAX_REASON_CHARS - REASON_PREFIX_ROOM]


@require_http_methods(["GET", "POST"])
@login_required
def revert(request: HtmxHttpRequest, slug: str, version: int) -> HttpResponse:
    """Confirm (GET: what changes, the proposals it drops, a reason), then write a new
    version with the whole content of ``version`` (POST)."""
    agent = agent_for_user(request, slug, with_learning=True)
    _authorise(request, agent, fields=set(PERSONA_FIELDS))
    target = _version_at(agent, version)
    if target is None:
        raise Http404("This persona has no such version.")
    head = _head(agent)
    drops = _drops(agent, SourceType.REVERT)
    context: dict[str, Any] = {
        "agent": agent,
        "target": target,
        "head": head,
        "drops": drops,
        "what": "revert",
        "diffs": _field_diffs(persona_snapshot(head), persona_snapshot(target)),
        "reason_max": MAX_REASON_CHARS - REASON_PREFIX_ROOM,
        "expected_version": agent.persona_version,
    }
    if request.method == "POST":
        raw = request.POST.get("expected_version", "")
        base = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
        saved = _confirm_and_save(
            request,
            agent,
            context,
            save=lambda by, reason: persona_version_revert(
                agent=agent, by=by, version=version, reason=reason, base_version=base
            ),
            said=lambda created: (
                f"Reverted to version {version}: saved as version {created.version}. "
                "You can undo it from the timeline."
            ),
        )
        if saved is not None:
            return saved
    return render(request, "dashboard/revert.html", context)


def _confirm_and_save(
    request: HtmxHttpRequest,
    agent: Any,
    context: dict[str, Any],
    *,
    save: Callable[[Any, str], AgentPersonaVersion],
    said: Callable[[AgentPersonaVersion], str],
) -> HttpResponse | None:
    """The POST of the revert and undo pages: the reason, the confirmation of the
    proposals it drops (``context["drops"]``), then ``save(actor, reason)``. Returns the
    redirect to the new version, or ``None`` with ``context`` saying what to do."""
    context["reason"] = reason = _reason_of(request)
    if not drops_confirmed(request, context["drops"]):
        context["ask_drops"] = True
        return None
    try:
        created = save(actor_for_user(request.user), reason)
    except (NotPermitted, NotReachable):
        raise
    except Refusal as exc:
        context["error"] = str(exc)
        return None
    messages.success(request, said(created))
    return redirect(_agent_url(agent) + f"#v{created.version}")


@require_http_methods(["GET", "POST"])
@login_required
def undo_edit(request: HtmxHttpRequest, slug: str, version: int) -> HttpResponse:
    """Confirm (GET), then undo (POST) the manual edit that made ``version``."""
    agent = agent_for_user(request, slug, with_learning=True)
    target = _version_at(agent, version)
    if target is None:
        raise Http404("This persona has no such version.")
    fields = [f for f in PERSONA_FIELDS if f in (target.fields_changed or [])]
    _authorise(request, agent, fields=set(fields) or set(PERSONA_FIELDS))
    later = list(
        AgentPersonaVersion.objects.filter(agent=agent, version__gt=version).values_list(
            "version", "fields_changed"
        )
    )
    before = _version_at(agent, version - 1)
    drops = _drops(agent, SourceType.REVERT)
    context: dict[str, Any] = {
        "agent": agent,
        "target": target,
        "head": _head(agent),
        "drops": drops,
        "what": "undo",
        "refusal": undo_refusal(target, later),
        "fields": fields_phrase(fields),
        "diffs": _field_diffs(persona_snapshot(target), persona_snapshot(before), fields)
        if before is not None
        else [],
        "reason_max": MAX_REASON_CHARS - REASON_PREFIX_ROOM,
    }
    if request.method == "POST" and not context["refusal"]:
        saved = _confirm_and_save(
            request,
            agent,
            context,
            save=lambda by, reason: persona_edit_undo(
                agent=agent, by=by, version=version, reason=reason
            ),
            said=lambda created: (
                f"Version {version} undone: saved as version {created.version}. "
                "Undo that one to bring the edit back."
            ),
        )
        if saved is not None:
            return saved
    return render(request, "dashboard/revert.html", context)


def editing_rights(request: HtmxHttpRequest, agent: Any, settings: Any) -> dict[str, bool]:
    """Which editing buttons the agent page draws (the services decide on their own)."""
    operator = is_operator(request.user)
    return {
        "can_edit_fields": operator,
        "can_edit_guardrails": operator,
        "can_edit_rules": is_rule_owner(request.user, agent, settings),
        "can_revert": operator,
    }
