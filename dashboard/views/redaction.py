"""Redact (superusers only; nobody else sees the action): a belief and an owner-document
entry on the person's page, a message on its conversation, a passage of a persona
version from the agent's timeline. Each asks a reason and a confirmation; the page then
shows "Redacted by X on D: reason" where the words were (``memory.redaction``,
``persona.redaction``: the services check who may)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from dashboard.views.people import REASON_LIMITS, _belief_for, belief_acted
from memory.models import Message, Redaction
from memory.redaction import belief_redact, message_redact, redactions_for
from persona.models import AgentPersonaVersion, OwnerEntry
from persona.redaction import owner_entry_redact, persona_version_redact
from personaweb.errors import NotPermitted, NotReachable, Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial, safe_next
from tenancy.access import actor_for_user, agent_for_user, scope_to_user


@require_POST
@login_required
def belief_redact_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    belief = _belief_for(request, pk)
    return belief_acted(
        request,
        belief,
        lambda: belief_redact(
            actor=actor_for_user(request.user), belief=belief, reason=request.POST.get("reason", "")
        ),
        ok="Redacted: its words and quotes are gone from every page, prompt and answer.",
        failed="Not redacted",
    )


def _message_for(request: HtmxHttpRequest, pk: int) -> Message:
    message = (
        scope_to_user(
            Message.objects.readable().filter(pk=pk),
            user=request.user,
            path="conversation__agent__tenant_id",
        )
        .select_related("conversation")
        .first()
    )
    if message is None:
        raise Http404("No such message here.")
    return message


def message_row(message: Message, redaction: Redaction | None) -> dict[str, Any]:
    """A message as the conversation page lists it, when it is not marked."""
    return {
        "message": message,
        "segments": [] if redaction else [(message.text, False)],
        "quoted": False,
        "focus": False,
        "redaction": redaction,
    }


@require_POST
@login_required
def message_redact_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    message = _message_for(request, pk)
    error = ok = ""
    try:
        message_redact(
            actor=actor_for_user(request.user),
            message=message,
            reason=request.POST.get("reason", ""),
        )
    except NotPermitted as exc:
        raise PermissionDenied(str(exc)) from exc
    except NotReachable as exc:
        raise Http404(str(exc)) from exc
    except Refusal as exc:
        error = f"Not redacted: {exc}"
    else:
        ok = "Redacted: its words are gone from every page, prompt, quote and answer."
    if is_partial(request):
        message.refresh_from_db()
        found = redactions_for(Redaction.Kind.MESSAGE, [message.pk])
        return render(
            request,
            "dashboard/conversation.html#message-row",
            {
                "r": message_row(message, found.get(message.pk)),
                "can_redact": True,
                "row_ok": ok,
                "row_error": error,
                **REASON_LIMITS,
            },
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    url = reverse("memory:conversation", args=[message.conversation_id])
    return redirect(f"{url}#m{message.seq}")


@require_POST
@login_required
def owner_entry_redact_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    entry = (
        scope_to_user(
            OwnerEntry.objects.filter(pk=pk),
            user=request.user,
            path="version__document__tenant_id",
        )
        .select_related("version__document")
        .first()
    )
    if entry is None:
        raise Http404("No such entry here.")
    try:
        owner_entry_redact(
            actor=actor_for_user(request.user), entry=entry, reason=request.POST.get("reason", "")
        )
    except NotPermitted as exc:
        raise PermissionDenied(str(exc)) from exc
    except NotReachable as exc:
        raise Http404(str(exc)) from exc
    except Refusal as exc:
        messages.error(request, f"Not redacted: {exc}")
    else:
        messages.success(
            request, "Redacted: the entry's words are gone from every version and every prompt."
        )
    fallback = reverse("memory:person", args=[entry.version.document.principal_id])
    return redirect(safe_next(request, fallback) + "#owner-document")


def _shown_fields(version: AgentPersonaVersion) -> list[tuple[str, str]]:
    """The version's words a passage may be taken from, as (label, text)."""
    out: list[tuple[str, str]] = []
    for name in ("name", "role", "goals", "background"):
        if getattr(version, name):
            out.append((name, getattr(version, name)))
    for name in ("guardrails", "standing_rules"):
        for item in getattr(version, name) or []:
            out.append((name.replace("_", " ").rstrip("s"), str(item)))
    return out


@require_http_methods(["GET", "POST"])
@login_required
def version_redact(request: HtmxHttpRequest, slug: str, version: int) -> HttpResponse:
    """Confirm (GET: the version's words and a form for the passage and the reason), then
    redact the passage from every version that holds it (POST)."""
    agent = agent_for_user(request, slug)
    actor = actor_for_user(request.user)
    if not actor.is_superuser:
        # the service says the same; the form is not even shown to anyone else
        raise PermissionDenied("Only a superuser may redact text; ask one to do it.")
    target = AgentPersonaVersion.objects.filter(agent=agent, version=version).first()
    if target is None:
        raise Http404("This persona has no such version.")
    context: dict[str, Any] = {
        "agent": agent,
        "target": target,
        "fields": _shown_fields(target),
        "redactions": list(
            Redaction.objects.filter(kind=Redaction.Kind.PERSONA_VERSION, object_id=target.pk)
        ),
        **REASON_LIMITS,
    }
    if request.method == "POST":
        passage = request.POST.get("passage", "")
        reason = request.POST.get("reason", "")
        context.update(passage=passage, reason=reason)
        try:
            result = persona_version_redact(
                actor=actor, version=target, passage=passage, reason=reason
            )
        except NotPermitted as exc:
            raise PermissionDenied(str(exc)) from exc
        except NotReachable as exc:
            raise Http404(str(exc)) from exc
        except Refusal as exc:
            context["error"] = str(exc)
        else:
            shown = ", ".join(f"v{n}" for n in result.versions)
            messages.success(
                request,
                f"Redacted from {shown}; {result.plans_rotated} pinned prompt"
                f"{'s' if result.plans_rotated != 1 else ''} rebuilt without it.",
            )
            return redirect(reverse("persona:agent", args=[agent.slug]) + f"#v{version}")
    return render(request, "dashboard/version_redact.html", context)
