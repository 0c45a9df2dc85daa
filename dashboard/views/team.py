"""The Team page: who may log in to each of the operator's tenants, with which role,
and the form that adds a person (operator, reviewer, or an owner linked to the person
the assistants serve). The services decide (``tenancy.team.member_add``,
``persona.owner_accounts.owner_add``, with the page's actor); another tenant is a 404.

The new login has no password: its person is e-mailed a one-time link to set one
(Django's password reset confirmation). For a local run, where the e-mail only reaches
the server's console, the page also shows that link (``TEAM_SHOW_SET_PASSWORD_LINK``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from persona.models import OwnerAccount
from persona.owner_accounts import team_add
from personaweb.actors import TEAM_MANAGE, Actor
from personaweb.errors import NotPermitted, NotReachable, Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial
from tenancy.access import actor_for_user, visible_tenants
from tenancy.models import Tenant
from tenancy.team import (
    MAX_USERNAME_CHARS,
    OWNER,
    TEAM_ROLES,
    members_of,
    roles_of,
)

#: the tenants one page lists (an operator of more sees the first ones by name)
TENANTS_SHOWN = 50


class MemberForm(forms.Form):
    tenant = forms.ChoiceField(label="Tenant")
    role = forms.ChoiceField(
        label="Role",
        choices=list(TEAM_ROLES.items()),
        widget=forms.RadioSelect,
        initial="reviewer",
    )
    username = forms.CharField(
        label="Username",
        max_length=MAX_USERNAME_CHARS,
        help_text="What they log in with: letters, digits and @ . + - _.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    email = forms.CharField(
        label="E-mail address",
        max_length=254,
        help_text="The link to set their password goes here.",
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )
    first_name = forms.CharField(label="First name", max_length=150, required=False)
    last_name = forms.CharField(label="Last name", max_length=150, required=False)
    person = forms.CharField(
        label="Person (owners only)",
        max_length=200,
        required=False,
        help_text="Their id as the assistants know it, as the People page shows it.",
    )

    def __init__(self, *args: Any, tenants: list[Tenant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tenant"].choices = [(t.slug, t.name) for t in tenants]  # type: ignore[attr-defined]


def _actor_or_403(request: HtmxHttpRequest) -> Actor:
    actor = actor_for_user(request.user)
    if not actor.may(TEAM_MANAGE):
        raise PermissionDenied(
            "Only an operator may see and add the team; ask an operator of your tenant."
        )
    return actor


def _team(tenants: list[Tenant]) -> list[dict[str, Any]]:
    """Each tenant with its members, their roles and the person an owner is (four
    queries, whatever the number of tenants and members)."""
    memberships = members_of([t.pk for t in tenants])
    owners = {
        a.user_id: a.principal
        for a in OwnerAccount.objects.filter(
            user_id__in={m.user_id for m in memberships}
        ).select_related("principal")
    }
    by_tenant: dict[int, list[dict[str, Any]]] = {t.pk: [] for t in tenants}
    for m in memberships:
        person = owners.get(m.user_id)
        if person is not None and person.tenant_id != m.tenant_id:
            person = None
        roles = roles_of(m.user)
        if m.user.is_superuser:
            roles = ["superuser", *roles]
        if person is not None:
            roles.append(OWNER)
        by_tenant[m.tenant_id].append(
            {
                "user": m.user,
                "roles": roles,
                "person": person,
                "has_password": m.user.has_usable_password(),
            }
        )
    return [{"tenant": t, "members": by_tenant[t.pk]} for t in tenants]


def _render(
    request: HtmxHttpRequest,
    tenants: list[Tenant],
    form: MemberForm,
    *,
    added: Any = None,
    link: str = "",
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "form": form,
        "team": _team(tenants),
        "added": added,
        "link": link,
        "error": error,
        "owner_role": OWNER,
    }
    if is_partial(request):
        # htmx swaps only 2xx answers: a refusal is drawn on the form like a success
        return render(request, "dashboard/team.html#team-body", context)
    return render(request, "dashboard/team.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def team(request: HtmxHttpRequest) -> HttpResponse:
    actor = _actor_or_403(request)
    tenants = list(visible_tenants(request.user).order_by("name", "id")[:TENANTS_SHOWN])
    if request.method == "GET":
        initial = {"tenant": request.GET.get("tenant", "")}
        return _render(request, tenants, MemberForm(tenants=tenants, initial=initial))
    slug = request.POST.get("tenant", "")
    tenant = Tenant.objects.filter(slug=slug).first() if slug else None
    if tenant is None or not actor.reaches_tenant(tenant.pk):
        raise Http404("No tenant with that name here.")
    form = MemberForm(request.POST, tenants=[*tenants, tenant])
    if not form.is_valid():
        return _render(request, tenants, form, status=400)
    data = form.cleaned_data
    try:
        added, link = team_add(
            actor=actor,
            tenant=tenant,
            role=data["role"],
            person=data["person"] or "",
            username=data["username"],
            email=data["email"],
            first_name=data["first_name"],
            last_name=data["last_name"],
            base_url=request.build_absolute_uri("/"),
            added_by=request.user.get_username(),
        )
    except NotReachable:
        raise Http404("No tenant with that name here.") from None
    except NotPermitted as exc:
        raise PermissionDenied(str(exc)) from None
    except Refusal as exc:
        return _render(request, tenants, form, error=f"Nobody was added: {exc}", status=400)
    fresh = MemberForm(tenants=tenants, initial={"tenant": tenant.slug, "role": added.role})
    return _render(
        request,
        tenants,
        fresh,
        added=added,
        link=link if settings.TEAM_SHOW_SET_PASSWORD_LINK else "",
    )
