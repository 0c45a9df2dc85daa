"""The API tokens page: operators list, make (the token is shown once) and revoke the
tokens of their tenants. Another tenant's token is a 404, as everywhere.

A person whose login is linked to them (an owner account) makes, lists and revokes here
the tokens of their own persona document, operator or not; persona.read / persona.write
are offered to nobody else but superusers (``api.services.token_create`` decides).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import selectors, services
from api.forms import TokenCreateForm
from api.models import SCOPES, ApiToken
from persona.owner_accounts import owner_account_of
from personaweb.errors import Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without
from personaweb.paging import keyset_page
from personaweb.roles import is_operator
from tenancy.access import visible_tenant_ids, visible_tenants

TEMPLATE = "api/tokens.html"


@dataclass(frozen=True)
class _Who:
    """Who uses the page: an operator (every tenant they see), or a person who only makes
    tokens for their own persona document (``own_only``; ``account`` is their link)."""

    operator: bool
    account: Any  # OwnerAccount | None

    @property
    def own_only(self) -> bool:
        return not self.operator

    def form(self, request: HtmxHttpRequest, data: Any = None) -> TokenCreateForm:
        return TokenCreateForm(
            data,
            tenants=visible_tenants(request.user).order_by("name", "id"),
            persona_scopes=bool(request.user.is_superuser or self.account is not None),  # type: ignore[union-attr]
            own_only=self.own_only,
        )

    def tokens(self, request: HtmxHttpRequest) -> Any:
        qs = selectors.tokens_of_tenants(visible_tenant_ids(request.user))
        if self.own_only:
            qs = qs.filter(
                principal_id=self.account.principal_id, user_id=int(request.user.pk or 0)
            )
        return qs


def _who(request: HtmxHttpRequest) -> _Who:
    account = owner_account_of(request.user)
    if not is_operator(request.user) and account is None:
        raise PermissionDenied(
            "Only an operator may manage API tokens (or a person whose login is linked to "
            "them, for their own persona document)."
        )
    return _Who(operator=is_operator(request.user), account=account)


def _create(
    request: HtmxHttpRequest, form: TokenCreateForm, who: _Who
) -> tuple[ApiToken, str] | None:
    """Make the token the form describes, or put the refusal on the form."""
    if not form.is_valid():
        return None
    try:
        expires_at = services.parse_expiry(form.cleaned_data["expires"])
    except Refusal as exc:
        form.add_error("expires", str(exc))
        return None
    if who.own_only:
        return _try(
            form,
            tenant=who.account.principal.tenant,
            name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scopes"],
            principal=who.account.principal,
            creator=request.user,
            expires_at=expires_at,
        )
    tenant = form.cleaned_data["tenant"]
    agent = None
    slug = form.cleaned_data["agent"].strip()
    if slug:
        agent = selectors.agent_in_tenant(tenant_id=tenant.pk, slug=slug)
        if agent is None:
            form.add_error("agent", f"No agent with the slug {slug!r} in {tenant.name}.")
    principal = None
    external_id = form.cleaned_data["principal"].strip()
    if external_id:
        principal = selectors.principal_in_tenant(tenant_id=tenant.pk, external_id=external_id)
        if principal is None:
            form.add_error("principal", f"No person with the id {external_id!r} in {tenant.name}.")
    # the page binds a token to the operator who makes it, never to someone else
    user = request.user if form.cleaned_data["as_me"] else None
    if form.errors:
        return None
    return _try(
        form,
        tenant=tenant,
        name=form.cleaned_data["name"],
        scopes=form.cleaned_data["scopes"],
        agent=agent,
        user=user,
        principal=principal,
        creator=request.user,
        expires_at=expires_at,
    )


def _try(form: TokenCreateForm, **kwargs: Any) -> tuple[ApiToken, str] | None:
    try:
        return services.token_create(**kwargs)
    except Refusal as exc:
        form.add_error(None, str(exc))
        return None


@never_cache  # the page may show a new token once: no copy in any cache
@require_http_methods(["GET", "POST"])
@login_required
def tokens(request: HtmxHttpRequest) -> HttpResponse:
    who = _who(request)
    created: ApiToken | None = None
    raw = ""
    if request.method == "POST":
        form = who.form(request, request.POST)
        made = _create(request, form, who)
        if made is not None:
            created, raw = made
            form = who.form(request)
    else:
        form = who.form(request)
    page = keyset_page(
        who.tokens(request),
        fields=[("created_at", True), ("id", True)],
        kinds=[datetime, int],
        cursor=request.GET.get("after"),
    )
    context: dict[str, Any] = {
        "form": form,
        "page": page,
        "created": created,
        "raw": raw,
        "scopes": SCOPES,
        "base_query": query_without(request, "after"),
        "own_only": who.own_only,
    }
    if is_partial(request):
        if request.method == "POST":
            return render(request, f"{TEMPLATE}#tokens-body", context)
        if request.htmx.target == "token-list":
            return render(request, f"{TEMPLATE}#token-list", context)
    return render(request, TEMPLATE, context)


@require_POST
@login_required
def token_revoke(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    who = _who(request)
    token = who.tokens(request).filter(pk=pk).first()
    if token is None:
        raise Http404("No such token here.")
    ok = error = ""
    try:
        revoked = services.token_revoke(token=token, by=request.user.get_username())
    except Refusal as exc:
        error = str(exc)
    else:
        token.revoked_at, token.revoked_by = revoked.revoked_at, revoked.revoked_by
        ok = f"Token {token.name} revoked: calls with it now answer 401."
    if is_partial(request):
        return render(request, f"{TEMPLATE}#row", {"t": token, "row_ok": ok, "row_error": error})
    if error:
        messages.error(request, error)
    else:
        messages.success(request, ok)
    return redirect(reverse("api:tokens"))
