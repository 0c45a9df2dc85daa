"""The API tokens page: operators list, make (the token is shown once) and revoke the
tokens of their tenants. Another tenant's token is a 404, as everywhere."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from api import selectors, services
from api.forms import TokenCreateForm
from api.models import SCOPES, ApiToken
from personaweb.errors import Refusal
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without
from personaweb.paging import keyset_page
from tenancy.access import require_operator, scope_to_user, visible_tenant_ids, visible_tenants

TEMPLATE = "api/tokens.html"


def _create(request: HtmxHttpRequest, form: TokenCreateForm) -> tuple[ApiToken, str] | None:
    """Make the token the form describes, or put the refusal on the form."""
    if not form.is_valid():
        return None
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
    try:
        return services.token_create(
            tenant=tenant,
            name=form.cleaned_data["name"],
            scopes=form.cleaned_data["scopes"],
            agent=agent,
            user=user,
            principal=principal,
            created_by=request.user.get_username(),
        )
    except Refusal as exc:
        form.add_error(None, str(exc))
        return None


@never_cache  # the page may show a new token once: no copy in any cache
@require_http_methods(["GET", "POST"])
@login_required
def tokens(request: HtmxHttpRequest) -> HttpResponse:
    require_operator(request)
    tenants = visible_tenants(request.user).order_by("name", "id")
    created: ApiToken | None = None
    raw = ""
    if request.method == "POST":
        form = TokenCreateForm(request.POST, tenants=tenants)
        made = _create(request, form)
        if made is not None:
            created, raw = made
            form = TokenCreateForm(tenants=tenants)
    else:
        form = TokenCreateForm(tenants=tenants)
    page = keyset_page(
        selectors.tokens_of_tenants(visible_tenant_ids(request.user)),
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
    require_operator(request)
    token = (
        scope_to_user(ApiToken.objects.filter(pk=pk), user=request.user, path="tenant_id")
        .select_related("tenant", "agent", "user", "principal")
        .first()
    )
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
