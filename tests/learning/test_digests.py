"""Reviews nobody misses: one digest per person per period, to the people who may decide,
by e-mail and a signed webhook."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import IntegrityError
from django.urls import reverse
from django.utils import timezone

from learning.digests import (
    SIGNATURE_HEADER,
    digests_due,
    digests_send,
    signature_header,
    signature_valid,
)
from learning.models import Proposal, ReviewDigest
from learning.tasks import send_digest_webhook
from persona.models import OwnerNomination
from tests.builders import add_nomination, add_proposal, learning_on
from tests.factories import PrincipalFactory, make_agent, make_owner, make_user

SECRET = "a-long-enough-webhook-secret"


def _age(proposal_or_nomination, hours: float) -> None:
    when = timezone.now() - timedelta(hours=hours)
    if isinstance(proposal_or_nomination, Proposal):
        Proposal.objects.filter(pk=proposal_or_nomination.pk).update(created_at=when)
    else:
        OwnerNomination.objects.filter(pk=proposal_or_nomination.pk).update(nominated_at=when)


@pytest.fixture
def team(tenant, agent):
    """Two reviewers and an operator of the agent's tenant, with e-mail addresses."""
    users = {}
    for name, role in (("rita", "reviewer"), ("raj", "reviewer"), ("olivia", "operator")):
        user = make_user(name, role=role, tenants=[tenant])
        user.email = f"{name}@example.com"
        user.save()
        users[name] = user
    return users


@pytest.fixture
def digest_settings(settings):
    settings.REVIEW_DIGEST_AFTER_HOURS = 24
    settings.REVIEW_DIGEST_PERIOD_HOURS = 24
    settings.REVIEW_DIGEST_WEBHOOK_URL = ""
    settings.PERSONAWEB_BASE_URL = "https://persona.example.com"
    return settings


def test_a_proposal_waiting_too_long_is_mailed_once_to_each_person_who_may_decide_it(
    agent, team, digest_settings, mailoutbox
):
    _age(add_proposal(agent), hours=30)
    run = digests_send()
    assert run.sent == 3
    assert sorted(m.to[0] for m in mailoutbox) == [
        "olivia@example.com",
        "raj@example.com",
        "rita@example.com",
    ]
    mail = mailoutbox[0]
    assert "1 waiting for you" in mail.subject
    assert "a proposed change to Helper, waiting 30 hours" in mail.body
    assert "https://persona.example.com" + reverse("learning:queue") in mail.body
    # the proposal's words are not in the mail: it names what waits and where
    assert "bakery" not in mail.body

    again = digests_send()
    assert (again.sent, again.already_sent) == (0, 3)
    assert len(mailoutbox) == 3
    assert ReviewDigest.objects.count() == 3


def test_nothing_is_sent_before_the_wait_is_over(agent, team, digest_settings, mailoutbox):
    _age(add_proposal(agent), hours=20)
    assert digests_send().sent == 0
    assert mailoutbox == []


def test_a_standing_rule_goes_only_to_its_rule_owners(agent, team, digest_settings, mailoutbox):
    learning_on(agent, rule_owners=["raj"])
    _age(add_proposal(agent, kind="rule"), hours=48)
    digests_send()
    assert [m.to[0] for m in mailoutbox] == ["raj@example.com"]
    assert "a standing rule for Helper" in mailoutbox[0].body
    assert "waiting 2 days" in mailoutbox[0].body


def test_people_of_another_tenant_and_inactive_accounts_get_nothing(
    agent, team, other_tenant, digest_settings, mailoutbox
):
    outsider = make_user("otto", role="operator", tenants=[other_tenant])
    outsider.email = "otto@example.com"
    outsider.save()
    team["raj"].is_active = False
    team["raj"].save()
    _age(add_proposal(agent), hours=30)
    digests_send()
    assert sorted(m.to[0] for m in mailoutbox) == ["olivia@example.com", "rita@example.com"]


def test_a_nomination_waiting_too_long_goes_to_its_owner_without_its_statement(
    agent, tenant, digest_settings, mailoutbox
):
    nomination = add_nomination(agent, "I keep bees on the allotment", who="ana")
    owner = make_owner(nomination.principal, username="ana-login")
    owner.email = "ana@example.com"
    owner.save()
    _age(nomination, hours=25)
    digests_send()
    assert [m.to[0] for m in mailoutbox] == ["ana@example.com"]
    assert "a line nominated for your own persona document" in mailoutbox[0].body
    assert "bees" not in mailoutbox[0].body


def test_one_digest_lists_everything_oldest_first(agent, tenant, team, digest_settings):
    second = make_agent(tenant=tenant, slug="desk", name="Team desk")
    _age(add_proposal(second), hours=26)
    _age(add_proposal(agent), hours=40)
    due = {d.user.username: d for d in digests_due()}
    assert [item.agent for item in due["rita"].items] == ["Helper", "Team desk"]


def test_the_database_keeps_one_digest_per_person_per_period(agent, team, digest_settings):
    now = timezone.now()
    ReviewDigest.objects.create(
        user=team["rita"], username="rita", period_start=now, sent_at=now, item_count=1
    )
    with pytest.raises(IntegrityError):
        ReviewDigest.objects.create(
            user=team["rita"], username="rita", period_start=now, sent_at=now, item_count=2
        )


def test_a_person_without_an_email_address_is_recorded_but_not_mailed(
    agent, tenant, digest_settings, mailoutbox
):
    make_user("nomail", role="reviewer", tenants=[tenant])
    _age(add_proposal(agent), hours=30)
    digests_send()
    row = ReviewDigest.objects.get(username="nomail")
    assert (row.emailed, row.item_count) == (False, 1)
    assert mailoutbox == []


# --- the signed webhook ------------------------------------------------------------------------


class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def receiver():
    _Receiver.received = []
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook", _Receiver.received
    server.shutdown()


def test_the_webhook_receives_a_digest_it_can_verify(
    agent, team, digest_settings, receiver, django_capture_on_commit_callbacks, monkeypatch
):
    url, received = receiver
    digest_settings.REVIEW_DIGEST_WEBHOOK_URL = url
    digest_settings.REVIEW_DIGEST_WEBHOOK_SECRET = SECRET
    sent: list[int] = []
    monkeypatch.setattr(send_digest_webhook, "delay", lambda pk: sent.append(pk))
    _age(add_proposal(agent), hours=30)
    with django_capture_on_commit_callbacks(execute=True):
        digests_send()
    assert len(sent) == 3  # one webhook per digest, queued after commit

    assert send_digest_webhook.run(sent[0]) == 204
    headers, body = received[0]
    assert signature_valid(SECRET, headers[SIGNATURE_HEADER], body)
    assert not signature_valid("another-secret-entirely", headers[SIGNATURE_HEADER], body)
    assert not signature_valid(SECRET, headers[SIGNATURE_HEADER], body + b" ")
    payload = json.loads(body)
    assert payload["type"] == "review_digest"
    assert payload["waiting"] == 1
    assert payload["items"][0]["agent"] == "Helper"
    assert ReviewDigest.objects.get(pk=sent[0]).webhook_status == 204


def test_an_old_signature_is_refused():
    body = b'{"type": "review_digest"}'
    header = signature_header(SECRET, body, timestamp=1_000_000)
    assert signature_valid(SECRET, header, body, now=1_000_100)
    assert not signature_valid(SECRET, header, body, now=1_000_000 + 3600)
    assert not signature_valid(SECRET, "garbage", body)


def test_a_webhook_without_a_secret_or_with_a_bad_address_stops_the_start(settings):
    settings.REVIEW_DIGEST_WEBHOOK_URL = "ftp://chat.example.com/hook"
    settings.REVIEW_DIGEST_WEBHOOK_SECRET = ""
    with pytest.raises(SystemCheckError) as refused:
        call_command("check")
    assert "learning.E001" in str(refused.value)
    assert "learning.E002" in str(refused.value)


# --- home shows how long the oldest has waited -------------------------------------------------


def test_home_says_how_long_the_oldest_proposal_has_waited(
    operator_client, agent, django_assert_max_num_queries
):
    _age(add_proposal(agent), hours=50)
    PrincipalFactory(tenant=agent.tenant)
    with django_assert_max_num_queries(16):
        page = operator_client.get(reverse("home")).content.decode()
    assert "oldest waiting" in page
    assert "2\xa0days" in page and "(Helper)" in page
