"""The Team page (operators add a person with a role; the new person sets a password
through the e-mailed link), changing one's own password, and the account menu."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core import mail
from django.urls import reverse

from persona.models import OwnerAccount
from tenancy.models import Membership
from tests.builders import HX
from tests.factories import PrincipalFactory, make_owner, make_user

pytestmark = pytest.mark.django_db

TEAM = reverse("team:team")
TEAM_MAX_QUERIES = 12


def _post(client, **fields):
    data = {
        "tenant": "acme",
        "role": "reviewer",
        "username": "rosa",
        "email": "rosa@example.org",
        "first_name": "Rosa",
        **fields,
    }
    return client.post(TEAM, data, **({} if "plain" in fields else HX))


def test_an_operator_sees_the_team_of_their_tenants_only(
    operator_client, tenant, other_tenant, reviewer
):
    make_user("gus", role="reviewer", tenants=[other_tenant])
    html = operator_client.get(TEAM).content.decode()
    assert 'data-username="rita"' in html and 'data-username="olivia"' in html
    assert "gus" not in html and "Globex" not in html
    assert '<option value="globex"' not in html


def test_the_team_page_runs_a_constant_number_of_queries(
    operator_client, tenant, django_assert_max_num_queries
):
    for i in range(3):
        make_user(f"r{i}", role="reviewer", tenants=[tenant])
    with django_assert_max_num_queries(TEAM_MAX_QUERIES):
        operator_client.get(TEAM)
    for i in range(3, 15):
        make_owner(PrincipalFactory(tenant=tenant), username=f"o{i}")
        make_user(f"r{i}", role="reviewer", tenants=[tenant])
    with django_assert_max_num_queries(TEAM_MAX_QUERIES):
        html = operator_client.get(TEAM).content.decode()
    assert html.count("data-username=") == 28


def test_adding_a_reviewer_mails_the_set_password_link_and_shows_it_locally(
    operator_client, tenant, settings
):
    settings.TEAM_SHOW_SET_PASSWORD_LINK = True
    response = _post(operator_client)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html  # the htmx partial
    assert "rosa added to Acme as reviewer" in html
    (message,) = mail.outbox
    assert message.to == ["rosa@example.org"] and "olivia added you to Acme" in message.body
    link = re.search(r"http://testserver(/password/reset/\S+)", message.body).group(1)
    assert f'value="http://testserver{link}"' in html  # the same one-time link, for a local run
    rosa = User.objects.get(username="rosa")
    assert not rosa.has_usable_password()
    assert Membership.objects.filter(user=rosa, tenant=tenant).exists()
    assert 'data-username="rosa"' in html and "not set yet" in html


def test_the_link_is_not_shown_when_the_mail_really_goes_out(operator_client, tenant, settings):
    settings.TEAM_SHOW_SET_PASSWORD_LINK = False
    html = _post(operator_client).content.decode()
    assert "rosa added to Acme" in html and "set-password-link" not in html
    assert len(mail.outbox) == 1


def test_adding_an_owner_links_the_login_to_the_person(operator_client, tenant):
    ana = PrincipalFactory(tenant=tenant, external_id="ana")
    html = _post(operator_client, role="owner", username="ana", person="ana").content.decode()
    assert "ana added to Acme as owner" in html
    assert OwnerAccount.objects.get(user__username="ana").principal == ana


def test_a_refusal_is_a_sentence_on_the_form_and_adds_nobody(operator_client, tenant):
    response = _post(operator_client, username="olivia")
    assert response.status_code == 200  # htmx swaps it in
    plain = operator_client.post(TEAM, {"tenant": "acme", "username": "olivia"})
    assert plain.status_code == 400 and b"This field is required" in plain.content
    assert (
        "Nobody was added: The login &#x27;olivia&#x27; exists already" in response.content.decode()
    )
    response = _post(operator_client, role="owner", person="nobody-here")
    assert "No person &#x27;nobody-here&#x27; in Acme" in response.content.decode()
    assert not User.objects.filter(username="rosa").exists() and not mail.outbox


def test_another_tenant_is_a_404_and_a_reviewer_a_403(
    operator_client, other_tenant, client, reviewer
):
    assert _post(operator_client, tenant="globex").status_code == 404
    assert _post(operator_client, tenant="nope").status_code == 404
    client.force_login(reviewer)
    assert client.get(TEAM).status_code == 403
    assert _post(client).status_code == 403
    assert not User.objects.filter(username="rosa").exists()


def test_a_reviewer_changes_their_own_password(reviewer_client, reviewer):
    page = reviewer_client.get(reverse("password_change"))
    assert page.status_code == 200 and b"Change your password" in page.content
    response = reviewer_client.post(
        reverse("password_change"),
        {
            "old_password": "pw-rita",
            "new_password1": "a long new phrase 42",
            "new_password2": "a long new phrase 42",
        },
        follow=True,
    )
    assert b"Password changed" in response.content
    reviewer.refresh_from_db()
    assert reviewer.check_password("a long new phrase 42")


def test_a_wrong_current_password_is_refused_on_the_form(reviewer_client, reviewer):
    response = reviewer_client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": "x", "new_password2": "x"},
    )
    assert response.status_code == 200 and b'role="alert"' in response.content
    reviewer.refresh_from_db()
    assert reviewer.check_password("pw-rita")


def test_the_password_reset_mail_reaches_a_login_with_a_password(client, reviewer):
    User.objects.filter(pk=reviewer.pk).update(email="rita@example.org")
    response = client.post(reverse("password_reset"), {"email": "rita@example.org"}, follow=True)
    assert b"Look in your mailbox" in response.content
    (message,) = mail.outbox
    assert "/password/reset/" in message.body and "rita" in message.body
    assert b"Forgot your password" in client.get(reverse("login")).content


@pytest.mark.parametrize(
    ("who", "badge", "team"),
    [("olivia", "operator", True), ("rita", "reviewer", False), ("owner", "owner", False)],
)
def test_the_account_menu_names_the_role_and_offers_the_password_change(
    client, tenant, operator, reviewer, who, badge, team
):
    user = (
        make_owner(PrincipalFactory(tenant=tenant), username="owner")
        if who == "owner"
        else User.objects.get(username=who)
    )
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'data-testid="role">([^<]*)<', html).group(1) == badge
    assert f'href="{reverse("password_change")}"' in html
    assert (f'href="{TEAM}"' in html) is team


def test_a_reviewer_who_owns_a_persona_is_called_both(client, tenant):
    user = make_owner(PrincipalFactory(tenant=tenant), username="maya", role="reviewer")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'data-testid="role">([^<]*)<', html).group(1) == "reviewer · owner"


def test_demo_logins_print_working_passwords_for_the_demo_people_only(tenant):
    from io import StringIO

    from django.core.management import call_command

    from dashboard.demo_data import DEMO_USERS
    from tenancy.models import Tenant

    harbour = Tenant.objects.create(name="Harbour", slug="harbour")
    for spec in DEMO_USERS:
        if spec.tenant_slug == "harbour":
            make_user(spec.username, role="reviewer", tenants=[harbour])
    stranger = make_user("dev2", role="reviewer", tenants=[tenant])
    out = StringIO()
    call_command("demo_logins", "--port", "8001", stdout=out)
    text = out.getvalue()
    assert "http://127.0.0.1:8001/" in text
    printed = dict(re.findall(r"^\s+(\w+)\s+/ (\S+)", text, re.M))
    assert set(printed) == {"dev", "callum", "priya"}  # maya's tenant is not there: skipped
    for name, password in printed.items():
        user = User.objects.get(username=name)
        assert user.check_password(password)
        validate_password(password, user)  # the project's own password rules hold
    assert stranger.check_password("pw-dev2")


def test_a_new_member_whose_link_expired_asks_for_another(operator_client, tenant, client):
    _post(operator_client)
    mail.outbox.clear()
    client.post(reverse("password_reset"), {"email": "ROSA@example.org"})
    (message,) = mail.outbox
    assert "/password/reset/" in message.body and "rosa" in message.body
    # a login that logged in once and then lost its password on purpose gets nothing
    User.objects.filter(username="rosa").update(last_login="2026-01-01T00:00:00Z")
    mail.outbox.clear()
    client.post(reverse("password_reset"), {"email": "rosa@example.org"})
    assert mail.outbox == []
