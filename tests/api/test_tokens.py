"""API tokens: the service, the `api token` command and the operator page."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from api.errors import Forbidden, NotFound, Unauthorized
from api.models import ApiToken
from api.services import TokenInputError, token_authenticate, token_create, token_revoke
from tests.builders import HX
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db


# --- service --------------------------------------------------------------------------


def test_only_the_sha256_is_stored(tenant):
    token, raw = token_create(tenant=tenant, name="chat-app", scopes="host")
    assert raw.startswith("pw_") and len(raw) > 40
    stored = ApiToken.objects.get(pk=token.pk)
    assert stored.sha256 == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in repr(list(ApiToken.objects.values()))
    assert stored.hint == raw[:10]


def test_scopes_are_a_closed_set_and_decide_needs_a_person(tenant, reviewer):
    with pytest.raises(TokenInputError, match="Unknown scope 'admin'"):
        token_create(tenant=tenant, name="x", scopes="host,admin")
    with pytest.raises(TokenInputError, match="at least one scope"):
        token_create(tenant=tenant, name="x", scopes=" , ")
    with pytest.raises(TokenInputError, match="--user"):
        token_create(tenant=tenant, name="x", scopes="learning.decide")
    outsider = make_user("otto", role="reviewer")
    with pytest.raises(TokenInputError, match="may not decide"):
        token_create(tenant=tenant, name="x", scopes="learning.decide", user=outsider)
    viewer = make_user("vera", tenants=[tenant])
    with pytest.raises(TokenInputError, match="may not decide"):
        token_create(tenant=tenant, name="x", scopes="learning.decide", user=viewer)
    token, _ = token_create(tenant=tenant, name="x", scopes="learning.decide", user=reviewer)
    assert token.scopes == ["learning.decide"]


def test_names_are_unique_among_live_tokens_of_a_tenant(tenant, other_tenant):
    first, _ = token_create(tenant=tenant, name="host", scopes="host")
    with pytest.raises(TokenInputError, match="exists already"):
        token_create(tenant=tenant, name="host", scopes="host")
    token_create(tenant=other_tenant, name="host", scopes="host")  # another tenant: fine
    token_revoke(token=first, by="olivia")
    token_create(tenant=tenant, name="host", scopes="host")  # a revoked name is free again
    with pytest.raises(TokenInputError, match="not usable"):
        token_create(tenant=tenant, name="has spaces", scopes="host")


def test_an_agent_of_another_tenant_cannot_be_bound(tenant, other_tenant):
    elsewhere = make_agent(tenant=other_tenant, slug="elsewhere")
    with pytest.raises(TokenInputError, match="not in the tenant"):
        token_create(tenant=tenant, name="x", scopes="host", agent=elsewhere)


def test_authenticate_checks_token_scope_tenant_and_binding(tenant, other_tenant, agent):
    make_agent(tenant=tenant, slug="second")
    make_agent(tenant=other_tenant, slug="elsewhere")
    token, raw = token_create(tenant=tenant, name="h", scopes="host", agent=agent)
    assert token_authenticate(raw=raw, scope="host", agent_slug="helper").agent == agent
    assert token_authenticate(raw=raw, scope=("learning.read", "host")).agent is None
    with pytest.raises(Forbidden):
        token_authenticate(raw=raw, scope="learning.read")
    for slug in ("second", "elsewhere", "absent"):
        with pytest.raises(NotFound):
            token_authenticate(raw=raw, scope="host", agent_slug=slug)
    for bad in (None, "", "pw_x", raw + "x", "x" * 500):
        with pytest.raises(Unauthorized):
            token_authenticate(raw=bad, scope="host")
    token_revoke(token=token, by="t")
    with pytest.raises(Unauthorized):
        token_authenticate(raw=raw, scope="host")
    with pytest.raises(TokenInputError, match="revoked already"):
        token_revoke(token=token, by="t")


def test_a_token_of_a_deactivated_user_stops_working(tenant, reviewer):
    _, raw = token_create(tenant=tenant, name="r", scopes="learning.read", user=reviewer)
    reviewer.is_active = False
    reviewer.save()
    with pytest.raises(Unauthorized):
        token_authenticate(raw=raw, scope="learning.read")


# --- the command ------------------------------------------------------------------------


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("api", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_cli_create_list_revoke(tenant, agent, reviewer):
    out, err = run(
        "token",
        "create",
        "--name",
        "desk",
        "--tenant",
        "acme",
        "--scopes",
        "host,learning.decide",
        "--agent",
        "helper",
        "--user",
        "rita",
    )
    raw = out.strip()
    assert raw.startswith("pw_") and "shown only now" in err
    access = token_authenticate(raw=raw, scope="learning.decide", agent_slug="helper")
    assert access.by == "rita"
    listed, _ = run("token", "list")
    assert "acme/desk" in listed and raw not in listed and "agent=helper" in listed
    assert "user=rita" in listed
    out, _ = run("token", "revoke", "desk")
    assert "Revoked acme/desk" in out
    assert "acme/desk" not in run("token", "list")[0]
    assert "REVOKED" in run("token", "list", "--all")[0]


def test_cli_refusals_exit_2(tenant, other_tenant):
    with pytest.raises(CommandError, match="--user") as info:
        run("token", "create", "--name", "d", "--tenant", "acme", "--scopes", "learning.decide")
    assert info.value.returncode == 2
    with pytest.raises(CommandError, match="No tenant"):
        run("token", "create", "--name", "d", "--tenant", "nope", "--scopes", "host")
    run("token", "create", "--name", "same", "--tenant", "acme", "--scopes", "host")
    run("token", "create", "--name", "same", "--tenant", "globex", "--scopes", "host")
    with pytest.raises(CommandError, match="add --tenant"):
        run("token", "revoke", "same")
    assert "globex/same" in run("token", "revoke", "same", "--tenant", "globex")[0]
    with pytest.raises(CommandError, match="No live token"):
        run("token", "revoke", "ghost")


# --- the operator page --------------------------------------------------------------------


def test_operator_makes_a_token_shown_once(operator_client, tenant, agent):
    url = reverse("api:tokens")
    r = operator_client.post(
        url, {"name": "chat", "tenant": tenant.pk, "scopes": ["host"], "agent": "helper"}
    )
    assert r.status_code == 200
    html = r.content.decode()
    token = ApiToken.objects.get(name="chat")
    raw = html.split('id="new-token" type="text" readonly value="')[1].split('"')[0]
    assert hashlib.sha256(raw.encode()).hexdigest() == token.sha256
    assert token.agent == agent and token.created_by == "olivia"
    assert "no-store" in r["Cache-Control"] or "no-cache" in r["Cache-Control"]
    again = operator_client.get(url).content.decode()
    assert raw not in again and "chat" in again and token.hint in again


def test_the_page_shows_refusals_on_the_form(operator_client, tenant):
    url = reverse("api:tokens")
    r = operator_client.post(
        url, {"name": "d", "tenant": tenant.pk, "scopes": ["learning.decide"]}, **HX
    )
    html = r.content.decode()
    assert 'id="tokens-body"' in html and "<html" not in html
    assert "--user" in html and not ApiToken.objects.exists()
    r = operator_client.post(
        url, {"name": "d", "tenant": tenant.pk, "scopes": ["host"], "agent": "nope"}
    )
    assert "No agent with the slug" in r.content.decode()


def test_a_token_from_the_page_decides_as_its_maker_only(operator_client, tenant, reviewer):
    r = operator_client.post(
        reverse("api:tokens"),
        {
            "name": "mine",
            "tenant": tenant.pk,
            "scopes": ["learning.decide"],
            "as_me": "on",
            "user": "rita",
        },
    )
    assert r.status_code == 200
    token = ApiToken.objects.get(name="mine")
    assert token.user.get_username() == "olivia"  # never rita, whatever is posted


def test_operator_revokes_with_htmx(operator_client, tenant):
    token, raw = token_create(tenant=tenant, name="old", scopes="host")
    r = operator_client.post(reverse("api:token_revoke", args=[token.pk]), **HX)
    html = r.content.decode()
    assert r.status_code == 200 and f'id="token-{token.pk}"' in html and "revoked" in html
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == "olivia"
    r = operator_client.post(reverse("api:token_revoke", args=[token.pk]))
    assert r.status_code == 302


def test_only_operators_of_the_tenant(client, tenant, other_tenant, reviewer, operator):
    theirs, _ = token_create(tenant=other_tenant, name="globex", scopes="host")
    client.force_login(reviewer)
    assert client.get(reverse("api:tokens")).status_code == 403
    client.force_login(operator)
    page = client.get(reverse("api:tokens")).content.decode()
    assert "globex" not in page
    assert client.post(reverse("api:token_revoke", args=[theirs.pk])).status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    r = client.post(
        reverse("api:tokens"), {"name": "sneak", "tenant": other_tenant.pk, "scopes": ["host"]}
    )
    assert "Select a valid choice" in r.content.decode()
    assert not ApiToken.objects.filter(name="sneak").exists()
    client.logout()
    assert client.get(reverse("api:tokens")).status_code == 302


def test_nav_link_for_operators_only(client, operator, reviewer):
    client.force_login(operator)
    assert 'href="/tokens/"' in client.get("/").content.decode()
    client.force_login(reviewer)
    assert 'href="/tokens/"' not in client.get("/").content.decode()


def test_token_list_query_count_is_flat(
    operator_client, tenant, agent, django_assert_max_num_queries
):
    from tests.builders import count_queries

    url = reverse("api:tokens")
    token_create(tenant=tenant, name="t0", scopes="host", agent=agent)
    small = count_queries(operator_client, url)
    for i in range(1, 12):
        token_create(tenant=tenant, name=f"t{i}", scopes="host", agent=agent)
    assert count_queries(operator_client, url) == small
    with django_assert_max_num_queries(12):
        operator_client.get(url, HTTP_HX_TARGET="token-list", **HX)


def test_token_list_pages_by_keyset(operator_client, tenant):
    for i in range(55):
        token_create(tenant=tenant, name=f"t{i:02d}", scopes="host")
    first = operator_client.get(reverse("api:tokens")).content.decode()
    assert "t54" in first and "t04" not in first and "after=" in first
    cursor = first.split("after=")[1].split('"')[0]
    rest = operator_client.get(
        reverse("api:tokens") + f"?after={cursor}", HTTP_HX_TARGET="token-list", **HX
    )
    html = rest.content.decode()
    assert "t04" in html and "t54" not in html and "<html" not in html


def test_admin_shows_tokens_read_only_without_the_hash(client, tenant):
    token, raw = token_create(tenant=tenant, name="chat", scopes="host")
    client.force_login(make_user("root", superuser=True))
    listing = client.get(reverse("admin:api_apitoken_changelist")).content.decode()
    assert "chat" in listing and token.hint in listing
    page = client.get(reverse("admin:api_apitoken_change", args=[token.pk])).content.decode()
    assert token.sha256 not in page and raw not in page
    assert client.get(reverse("admin:api_apitoken_add")).status_code == 403
