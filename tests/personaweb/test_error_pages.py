"""Error pages (issue 9, finding 8): 400, 403, 404 and 500 are styled pages with the
navigation; a 403 says why (the reason the view gave) and what to do, and the reason is
logged as one line without a traceback."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import BadRequest
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from learning.models import LearningSettings
from personaweb import errorpages
from tests.factories import make_agent, make_user

RULE_OWNERS_REASON = "Only a rule owner (rex) may decide a standing rule; rita is not one. Standing rules are edited by a rule owner."


def assert_styled(html: str) -> None:
    """The page extends base.html: our stylesheet and the top bar, not Django's bare page."""
    assert '<link rel="stylesheet" href="/static/css/app.css">' in html
    assert '<header class="topbar">' in html
    assert 'class="card error-page"' in html


@pytest.fixture
def rules_url(agent):
    LearningSettings.objects.update_or_create(
        agent=agent,
        defaults={"mode": "on-with-review", "standing_rules": True, "rule_owners": ["rex"]},
    )
    return reverse("persona:rules", args=[agent.slug])


@pytest.mark.django_db
def test_a_non_owner_on_the_standing_rule_editor_gets_a_styled_403_with_the_reason(
    client, tenant, rules_url
):
    make_user("rex", role="reviewer", tenants=[tenant])
    client.force_login(make_user("rita", role="reviewer", tenants=[tenant]))
    response = client.get(rules_url)
    assert response.status_code == 403
    html = response.content.decode()
    assert_styled(html)
    assert 'aria-label="Main"' in html  # the navigation of a logged-in user
    assert RULE_OWNERS_REASON.replace("'", "&#x27;") in html
    assert "ask an operator of this tenant or a superuser" in html  # what to do


@pytest.mark.django_db
def test_a_403_is_logged_as_one_line_with_the_reason_and_no_traceback(
    client, tenant, rules_url, caplog
):
    client.force_login(make_user("rita", role="reviewer", tenants=[tenant]))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client.get(rules_url).status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    record = records[0]
    assert record.exc_info is None and record.exc_text is None
    assert (
        record.getMessage() == f"Forbidden (Permission denied): {rules_url}: {RULE_OWNERS_REASON}"
    )


@pytest.mark.django_db
def test_an_operator_only_page_says_so_to_a_reviewer(client, tenant, agent):
    client.force_login(make_user("rita", role="reviewer", tenants=[tenant]))
    response = client.get(reverse("persona:guardrails", args=[agent.slug]))
    assert response.status_code == 403
    html = response.content.decode()
    assert_styled(html)
    assert "Only an operator may edit an assistant&#x27;s persona." in html


@pytest.mark.django_db
def test_an_unknown_address_gets_a_styled_404(operator_client):
    response = operator_client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert_styled(html)
    assert 'aria-label="Main"' in html
    assert "There is nothing here" in html
    assert "no/such/page" not in html  # the resolver's detail is not shown


@pytest.mark.django_db
def test_another_tenants_agent_is_a_404_with_the_views_sentence(operator_client, other_tenant):
    hidden = make_agent(tenant=other_tenant, slug="hidden")
    response = operator_client.get(reverse("persona:agent", args=[hidden.slug]))
    assert response.status_code == 404
    html = response.content.decode()
    assert_styled(html)
    assert "No agent with that name here." in html


@pytest.mark.django_db
def test_anonymous_404_offers_the_login(client):
    html = client.get("/no/such/page/").content.decode()
    assert_styled(html)
    assert 'href="/login/"' in html and 'aria-label="Main"' not in html


@pytest.mark.django_db
def test_a_bad_host_gets_the_styled_400_without_the_servers_configuration(client):
    response = client.get(reverse("login"), HTTP_HOST="evil.example")
    assert response.status_code == 400
    html = response.content.decode()
    assert_styled(html)
    assert "This request could not be understood" in html
    assert "evil.example" not in html and "ALLOWED_HOSTS" not in html


@pytest.mark.django_db
def test_a_bad_request_shows_its_sentence(rf, operator):
    request = rf.get("/persona/helper/?before=%C2%B2")
    request.user = operator
    response = errorpages.bad_request(request, BadRequest("The page cursor is not a date."))
    assert response.status_code == 400
    html = response.content.decode()
    assert_styled(html)
    assert "The page cursor is not a date." in html


@pytest.mark.django_db
def test_a_crash_gets_the_styled_500_without_details(monkeypatch, tenant, operator):
    def broken(**kwargs):
        raise DatabaseError("connection to the database server was lost")

    monkeypatch.setattr("dashboard.views.home.home_counts", broken)
    client = Client(raise_request_exception=False)
    client.force_login(operator)
    response = client.get(reverse("home"))
    assert response.status_code == 500
    html = response.content.decode()
    assert_styled(html)
    assert "Something went wrong on our side" in html
    assert "database server" not in html and "Traceback" not in html


def test_the_500_page_renders_when_the_session_and_the_database_fail(rf):
    """No database access allowed here (no db fixture): the page must not need it."""

    class Exploding:
        def __getattr__(self, name):
            raise DatabaseError("the database is down")

    request = rf.get("/")
    request.user = Exploding()
    request.session = Exploding()
    response = errorpages.server_error(request)
    assert response.status_code == 500
    html = response.content.decode()
    assert_styled(html)
    assert "Something went wrong on our side" in html


def test_the_500_page_falls_back_to_plain_html_when_its_template_fails(rf, monkeypatch):
    def no_template(name):
        raise RuntimeError("template engine broken")

    monkeypatch.setattr(errorpages.loader, "get_template", no_template)
    response = errorpages.server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


@pytest.mark.django_db
def test_a_failed_csrf_check_gets_the_styled_403_with_what_to_do():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "a", "password": "b"})
    assert response.status_code == 403
    html = response.content.decode()
    assert_styled(html)
    assert "This form could not be sent" in html
    assert "reload the page and send the form again" in html


def test_a_403_without_a_reason_gets_a_general_sentence(rf):
    request = rf.get("/")
    request.user = AnonymousUser()
    response = errorpages.permission_denied(request, None)
    html = response.content.decode()
    assert response.status_code == 403
    assert "Your account does not have the role this page needs." in html
