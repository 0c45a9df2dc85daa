"""Who may make a token for an owner document, and tokens that end (issue 22, points 7
and 8): a persona token is made by the person's own login or by a superuser on their
behalf (recorded), what it writes says truthfully who wrote it, and a token may expire."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from api.errors import Unauthorized
from api.models import ApiToken
from api.services import TokenInputError, parse_expiry, token_authenticate, token_create
from memory.models import Principal
from persona.models import OwnerEntry
from persona.models_owner import Author
from persona.owner import ROW_HEADING, ROW_HEADING_ON_BEHALF, render_row
from tests.api.conftest import bearer
from tests.factories import make_owner, make_user

BOTH = "persona.read,persona.write"


@pytest.fixture
def ana(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ana")


@pytest.fixture
def ana_login(ana):
    return make_owner(ana, "ana-login")


def put(client, headers, texts, expected=0):
    return client.put(
        "/v1/persona",
        json.dumps({"expected_version": expected, "entries": [{"text": t} for t in texts]}),
        content_type="application/json",
        **headers,
    )


# --- who makes a persona token (the service) ------------------------------------------------


@pytest.mark.parametrize("scopes", ["persona.write", "persona.read", BOTH])
def test_an_operator_may_not_make_a_persona_token_for_someone_else(tenant, ana, operator, scopes):
    with pytest.raises(TokenInputError, match="Only ana's own login may make"):
        token_create(tenant=tenant, name="x", scopes=scopes, principal=ana, creator=operator)
    with pytest.raises(TokenInputError, match="--on-behalf"):
        token_create(tenant=tenant, name="x", scopes=scopes, principal=ana)  # no one named
    assert not ApiToken.objects.exists()


def test_another_persons_login_may_not_make_one_either(tenant, ana):
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    bo_login = make_owner(bo, "bo-login")
    with pytest.raises(TokenInputError, match="Only ana's own login"):
        token_create(tenant=tenant, name="x", scopes=BOTH, principal=ana, creator=bo_login)


def test_the_owners_own_login_makes_one_bound_to_that_login(tenant, ana, ana_login):
    token, _ = token_create(
        tenant=tenant, name="ana-app", scopes=BOTH, principal=ana, creator=ana_login
    )
    assert token.user == ana_login and not token.on_behalf
    assert token.created_by == "ana-login"
    other = make_user("olga", tenants=[tenant])
    with pytest.raises(TokenInputError, match="cannot be bound to another login"):
        token_create(
            tenant=tenant, name="y", scopes=BOTH, principal=ana, creator=ana_login, user=other
        )


def test_a_deactivated_owner_login_may_not_make_one(tenant, ana, ana_login):
    ana_login.is_active = False
    ana_login.save()
    with pytest.raises(TokenInputError, match="Only ana's own login"):
        token_create(tenant=tenant, name="x", scopes=BOTH, principal=ana, creator=ana_login)


def test_a_superuser_makes_one_on_the_persons_behalf_recorded_as_such(tenant, ana):
    root = make_user("root", superuser=True)
    token, _ = token_create(tenant=tenant, name="x", scopes=BOTH, principal=ana, creator=root)
    assert token.on_behalf and token.user is None
    assert token.created_by == "superuser root on behalf of ana"


def test_tokens_without_persona_scopes_are_not_affected(tenant, ana, operator):
    token, _ = token_create(
        tenant=tenant, name="mem", scopes="memory.read", principal=ana, creator=operator
    )
    assert not token.on_behalf and token.created_by == "olivia"


# --- the command line --------------------------------------------------------------------


def test_the_command_line_refuses_a_persona_token_without_on_behalf(tenant, ana):
    base = ["api", "token", "create", "--tenant", "acme", "--scopes", BOTH, "--principal", "ana"]
    with pytest.raises(CommandError, match="Only ana's own login") as info:
        call_command(*base, "--name", "ana-phone")
    assert info.value.returncode == 2
    out = StringIO()
    call_command(*base, "--name", "ana-phone", "--on-behalf", "--json", stdout=out)
    made = json.loads(out.getvalue())
    assert made["on_behalf"] is True
    assert made["created_by"] == "superuser (cli) on behalf of ana"
    listed = StringIO()
    call_command("api", "token", "list", stdout=listed)
    assert "made by superuser (cli) on behalf of ana" in listed.getvalue()


# --- the tokens page ------------------------------------------------------------------------


def test_the_tokens_page_offers_persona_scopes_to_an_operator_who_is_no_owner_never(
    operator_client, tenant, ana
):
    url = reverse("api:tokens")
    page = operator_client.get(url).content.decode()
    assert 'value="persona.write"' not in page and 'value="persona.read"' not in page
    # posted anyway: refused, nothing made
    r = operator_client.post(
        url,
        {"tenant": tenant.pk, "scopes": ["persona.write"], "name": "sneaky", "principal": "ana"},
    )
    assert r.status_code == 200
    assert "not one of the available choices" in r.content.decode()
    assert not ApiToken.objects.exists()


def test_an_operator_who_is_the_owner_may_only_bind_one_to_themself(
    operator_client, operator, tenant, ana
):
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    make_owner(ana, "ana-login")  # ana has her own login; olivia is bo
    from persona.owner_accounts import owner_account_link

    owner_account_link(user=operator, principal=bo)
    url = reverse("api:tokens")
    base = {"tenant": tenant.pk, "scopes": ["persona.write"]}
    r = operator_client.post(url, {**base, "name": "for-ana", "principal": "ana"})
    assert "Only ana&#x27;s own login may make" in r.content.decode()
    r = operator_client.post(url, {**base, "name": "for-me", "principal": "bo"})
    token = ApiToken.objects.get()
    assert (token.name, token.principal, token.user) == ("for-me", bo, operator)


def test_a_person_who_is_not_an_operator_makes_their_own_on_the_page(
    client, tenant, ana, ana_login
):
    make_user("olga", role="operator", tenants=[tenant])
    theirs, _ = token_create(tenant=tenant, name="host", scopes="host")
    client.force_login(ana_login)
    url = reverse("api:tokens")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="persona.write"' in html and 'value="host"' not in html
    assert "host" not in [t.name for t in page.context["page"].rows]  # only her own tokens
    r = client.post(url, {"name": "ana-phone", "scopes": ["persona.read", "persona.write"]})
    assert r.status_code == 200
    token = ApiToken.objects.get(name="ana-phone")
    assert (token.principal, token.user, token.on_behalf) == (ana, ana_login, False)
    # she cannot revoke the operators' token (not hers: a 404), but her own
    assert client.post(reverse("api:token_revoke", args=[theirs.pk])).status_code == 404
    assert client.post(reverse("api:token_revoke", args=[token.pk])).status_code == 302


def test_a_login_that_is_neither_operator_nor_owner_is_refused_the_page(client, tenant):
    client.force_login(make_user("vic", tenants=[tenant]))
    assert client.get(reverse("api:tokens")).status_code == 403


# --- what a token writes says who wrote it ----------------------------------------------------


def test_what_the_owners_own_token_writes_is_typed_by_them(
    client, persona_on, tenant, ana, ana_login
):
    _, raw = token_create(tenant=tenant, name="a", scopes=BOTH, principal=ana, creator=ana_login)
    assert put(client, bearer(raw), ["Prefers short answers."]).status_code == 200
    entry = OwnerEntry.objects.get()
    assert entry.author == Author.OWNER_TOKEN and entry.written_by == "ana-login"
    row = render_row([entry])
    assert row.startswith(ROW_HEADING) and "- Prefers short answers. (typed by them)" in row


def test_what_a_token_made_on_their_behalf_writes_never_says_typed_by_them(
    client, persona_on, tenant, ana, ana_login
):
    root = make_user("root", superuser=True)
    _, raw = token_create(tenant=tenant, name="a", scopes=BOTH, principal=ana, creator=root)
    assert put(client, bearer(raw), ["Approve every refund."]).status_code == 200
    entry = OwnerEntry.objects.get()
    assert entry.author == Author.ON_BEHALF and entry.written_by == "token:a"
    row = render_row([entry])
    assert "typed by them" not in row and ROW_HEADING not in row
    assert row.startswith(ROW_HEADING_ON_BEHALF)
    assert "- Approve every refund. (written on their behalf)" in row


# --- expiry ---------------------------------------------------------------------------------


def test_expiry_is_read_as_a_duration_or_a_date():
    now = timezone.now()
    assert parse_expiry("", now=now) is None
    assert parse_expiry("30d", now=now) == now + timedelta(days=30)
    assert parse_expiry("12h", now=now) == now + timedelta(hours=12)
    assert parse_expiry("2w", now=now) == now + timedelta(weeks=2)
    day = parse_expiry("2999-01-31", now=now)
    assert (day.year, day.month, day.day, day.hour, day.minute) == (2999, 1, 31, 23, 59)
    for bad in ("soon", "30 years", "0d", "2000-01-01", "-3d"):
        with pytest.raises(TokenInputError, match="expiry"):
            parse_expiry(bad, now=now)


def test_an_expired_token_is_refused_with_a_sentence_saying_so(tenant):
    token, raw = token_create(
        tenant=tenant, name="t", scopes="host", expires_at=timezone.now() + timedelta(hours=1)
    )
    assert token_authenticate(raw=raw, scope="host").token.pk == token.pk
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Unauthorized, match="expired on .*make a new one"):
        token_authenticate(raw=raw, scope="host")


def test_an_expired_token_answers_401_on_the_api(client, api_on, agent, tenant):
    token, raw = token_create(
        tenant=tenant, name="t", scopes="host", expires_at=timezone.now() + timedelta(hours=1)
    )
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    r = client.get("/v1/agents/helper", **bearer(raw))
    assert r.status_code == 401 and "expired" in r.json()["error"]["message"]


def test_a_token_cannot_be_made_already_expired(tenant):
    with pytest.raises(TokenInputError, match="not in the future"):
        token_create(
            tenant=tenant, name="t", scopes="host", expires_at=timezone.now() - timedelta(days=1)
        )


def test_the_command_line_and_the_page_take_an_expiry(operator_client, tenant):
    out = StringIO()
    call_command(
        "api", "token", "create", "--name", "cli", "--tenant", "acme", "--scopes", "host",
        "--expires-in", "30d", "--json", stdout=out,
    )  # fmt: skip
    made = ApiToken.objects.get(name="cli")
    assert timedelta(days=29) < made.expires_at - timezone.now() <= timedelta(days=30)
    assert json.loads(out.getvalue())["expires_at"] == made.expires_at.isoformat()
    with pytest.raises(CommandError, match="expiry"):
        call_command(
            "api", "token", "create", "--name", "x", "--tenant", "acme", "--scopes", "host",
            "--expires-in", "soon",
        )  # fmt: skip
    url = reverse("api:tokens")
    operator_client.post(
        url, {"tenant": tenant.pk, "scopes": ["host"], "name": "pg", "expires": "12h"}
    )
    assert ApiToken.objects.get(name="pg").expires_at is not None
    r = operator_client.post(
        url, {"tenant": tenant.pk, "scopes": ["host"], "name": "bad", "expires": "soon"}
    )
    assert "is not readable" in r.content.decode()
    assert not ApiToken.objects.filter(name="bad").exists()


def test_the_tokens_page_shows_expired_tokens_as_expired(
    operator_client, tenant, django_assert_max_num_queries
):
    token, _ = token_create(
        tenant=tenant, name="old", scopes="host", expires_at=timezone.now() + timedelta(hours=1)
    )
    token_create(tenant=tenant, name="fresh", scopes="host")
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(days=1))
    with django_assert_max_num_queries(12):
        html = operator_client.get(reverse("api:tokens")).content.decode()
    row = html.split(f'id="token-{token.pk}"')[1].split("</tr>")[0]
    assert "expired" in row and "live" not in row


# --- a token bound to a login ends with the login ----------------------------------------------


def test_the_owners_token_stops_when_their_login_is_deactivated(tenant, ana, ana_login):
    _, raw = token_create(tenant=tenant, name="a", scopes=BOTH, principal=ana, creator=ana_login)
    assert token_authenticate(raw=raw, scope="persona.read").principal == ana
    ana_login.is_active = False
    ana_login.save()
    with pytest.raises(Unauthorized, match="not active"):
        token_authenticate(raw=raw, scope="persona.read")
