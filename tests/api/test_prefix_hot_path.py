"""The prefix route's hot path (issue 24, ``api.prefix``): a warm fetch is one query and
a 304 encodes nothing; every change that alters a prefix is seen by the very next fetch;
a revoked, expired or deactivated token fails at the very next call, though the process
has kept it."""

from __future__ import annotations

import itertools
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from api.models import ApiToken
from api.services import token_revoke
from memory.models import Conversation, Principal
from memory.sealing import conversation_seal
from persona import owner
from persona.models import PlanRotation, SourceType
from persona.plans import plan_get_or_rotate
from persona.services import ChangeTrigger, persona_version_create
from tests.api.conftest import bearer
from tests.builders import add_nomination, add_proposal, learning_on
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db

URL = "/v1/agents/helper/prefix?principal=ana&session=s1"
_fresh_sessions = itertools.count()


def fetch(client, headers, url=URL):
    r = client.get(url, **headers)
    assert r.status_code == 200, r.content
    return r.json() | {"etag": r["ETag"]}


def warm(client, headers, django_assert_num_queries, url=URL):
    """Fetch until the hot path answers (the first fetch makes the plan), and prove it
    did: one query."""
    first = fetch(client, headers, url)
    with django_assert_num_queries(1):
        again = fetch(client, headers, url)
    assert again == first
    return again


def fresh(agent, who: str | None = "ana") -> str:
    """The prefix a plan made now pins for ``who``: what the next fetch must show."""
    person = Principal.objects.get(tenant=agent.tenant, external_id=who) if who else None
    session = f"fresh-{next(_fresh_sessions)}"
    return plan_get_or_rotate(agent=agent, principal=person, session_key=session).prefix_text


def edit(agent, **changes):
    source = SourceType.MANUAL if "guardrails" in changes else SourceType.UI_FORM
    return persona_version_create(
        agent=agent, changes=changes, trigger=ChangeTrigger(source_type=source, reason="edit")
    )


def ana(agent) -> Principal:
    return Principal.objects.get(tenant=agent.tenant, external_id="ana")


# --- cost ----------------------------------------------------------------------------------


def test_a_warm_fetch_is_one_query_and_a_304_encodes_nothing(
    client, host, agent, django_assert_num_queries, monkeypatch
):
    before = warm(client, host, django_assert_num_queries)
    import api.http

    def no_encoding(*args, **kwargs):
        raise AssertionError("a 304 encoded an answer")

    monkeypatch.setattr(api.http.api.renderer, "render", no_encoding)
    monkeypatch.setattr("api.handlers.prefix_answer", no_encoding)
    monkeypatch.setattr("persona.plans._prefix_for", no_encoding)
    with django_assert_num_queries(1):
        r = client.get(URL, HTTP_IF_NONE_MATCH=before["etag"], **host)
    assert r.status_code == 304 and r.content == b"" and r["ETag"] == before["etag"]
    assert r["Cache-Control"] == "private, no-store" and r["X-Request-ID"]


def test_a_304_reads_no_prefix_bytes_and_a_stale_etag_gets_the_whole_prefix(
    client, host, agent, django_assert_num_queries
):
    """The hot path's one query leaves the text out when the caller holds its sha256;
    a tag the caller holds that is not current (or several tags) still gets every byte."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    before = warm(client, host, django_assert_num_queries)
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(URL, HTTP_IF_NONE_MATCH=before["etag"], **host)
    assert r.status_code == 304
    assert len(ctx.captured_queries) == 1
    for held in ('"0000"', f'W/"0000", {before["etag"]}', "*"):
        with django_assert_num_queries(1):
            again = client.get(URL, HTTP_IF_NONE_MATCH=held, **host)
        if held == '"0000"':
            assert again.status_code == 200
            assert again.json()["prefix"] == before["prefix"]
        else:  # the current one among several, or any: nothing to send
            assert again.status_code == 304


def test_the_hot_answer_is_the_full_paths_answer(client, host, agent, django_assert_num_queries):
    """Same body, headers and bytes of JSON as the answer of the plan call, also in an
    epoch that began with a rotation."""
    url = "/v1/agents/helper/prefix?principal=ana&session=s2"
    edit(agent, goals="Plan the bakery's orders.")
    fetch(client, host, url)  # epoch 1
    edit(agent, goals="Plan the bakery's orders and rotas.")
    full = client.get(url, **host)  # the rotation
    with django_assert_num_queries(1):
        hot = client.get(url, **host)
    assert hot.content == full.content and hot["ETag"] == full["ETag"]
    assert hot["Content-Type"] == full["Content-Type"] == "application/json; charset=utf-8"
    body = json.loads(hot.content)
    assert body["epoch"] == 2 and body["rotated_reason"] == "agent_persona_changed"
    assert body["persona_version"] == agent.persona_version == 3


def test_each_person_and_session_is_answered_its_own_plan(
    client, host, agent, django_assert_num_queries
):
    pat_url = "/v1/agents/helper/prefix?principal=pat&session=s1"
    nobody_url = "/v1/agents/helper/prefix?session=s1"
    fetch(client, host)
    fetch(client, host, pat_url)
    owner.owner_doc_write(
        principal=ana(agent), expected_version=0, entries=[{"text": "Prefers short answers."}]
    )
    urls = [URL, pat_url, nobody_url, "/v1/agents/helper/prefix?principal=ana&session=s9"]
    got = [warm(client, host, django_assert_num_queries, url) for url in urls]
    assert "Prefers short answers." in got[0]["prefix"] == got[3]["prefix"]
    assert "Prefers short answers." not in got[1]["prefix"]
    assert got[1]["prefix"] == got[2]["prefix"] == fresh(agent, None)
    assert got[0]["prefix"] == fresh(agent)


# --- every change that alters a prefix is seen by the next fetch ---------------------------


def test_a_persona_edit_is_seen_by_the_next_fetch(client, host, agent, django_assert_num_queries):
    before = warm(client, host, django_assert_num_queries)
    edit(agent, goals="Help the owner plan the weekend market.")
    after = fetch(client, host)
    assert "weekend market" in after["prefix"] and after["prefix"] == fresh(agent)
    assert after["etag"] != before["etag"] and after["epoch"] == before["epoch"] + 1
    assert after["rotated_reason"] == "agent_persona_changed"


def test_a_guardrail_edit_is_seen_by_the_next_fetch(client, host, agent, django_assert_num_queries):
    warm(client, host, django_assert_num_queries)
    edit(agent, guardrails=["Never quote a price without the VAT."])
    after = fetch(client, host)
    assert "Never quote a price without the VAT." in after["prefix"]
    assert after["prefix"] == fresh(agent)
    # and its removal too
    warm(client, host, django_assert_num_queries)
    edit(agent, guardrails=[])
    gone = fetch(client, host)
    assert "VAT" not in gone["prefix"] and gone["prefix"] == fresh(agent)


def test_a_standing_rule_approved_and_undone_is_seen_by_the_next_fetch(
    client, host, agent, make_token, django_assert_num_queries
):
    learning_on(agent, standing_rules=True, rule_owners=["olga"])
    olga = make_user("olga", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(name="olga", scopes="learning.decide", user=olga)
    decider = bearer(raw)
    rule = add_proposal(agent, kind="rule")
    warm(client, host, django_assert_num_queries)
    r = client.post(
        f"/v1/proposals/{rule.pk}/approve",
        json.dumps({"text": "Give every date in full."}),
        content_type="application/json",
        **decider,
    )
    assert r.status_code == 200, r.content
    approved = fetch(client, host)
    assert "Give every date in full." in approved["prefix"]
    assert approved["prefix"] == fresh(agent)
    warm(client, host, django_assert_num_queries)
    r = client.post("/v1/agents/helper/undo", **decider)
    assert r.status_code == 200, r.content
    undone = fetch(client, host)
    assert "Give every date in full." not in undone["prefix"]
    assert undone["prefix"] == fresh(agent) and undone["epoch"] == approved["epoch"] + 1


def test_an_owner_document_change_is_seen_by_the_next_fetch(
    client, host, agent, django_assert_num_queries
):
    empty = warm(client, host, django_assert_num_queries)
    owner.owner_doc_write(
        principal=ana(agent), expected_version=0, entries=[{"text": "Prefers short answers."}]
    )
    one = fetch(client, host)
    assert "Prefers short answers." in one["prefix"] and one["prefix"] == fresh(agent)
    assert one["rotated_reason"] == "persona_changed" and one["etag"] != empty["etag"]
    warm(client, host, django_assert_num_queries)
    owner.owner_doc_write(
        principal=ana(agent), expected_version=1, entries=[{"text": "Prefers long answers."}]
    )
    two = fetch(client, host)
    assert "Prefers long answers." in two["prefix"] and "short" not in two["prefix"]
    assert two["prefix"] == fresh(agent)


def test_an_affirmed_nomination_is_seen_by_the_next_fetch(
    client, host, agent, django_assert_num_queries
):
    fetch(client, host)
    nomination = add_nomination(agent, "I bake rye bread on Saturdays.")
    warm(client, host, django_assert_num_queries)
    owner.nomination_affirm(principal=ana(agent), nomination_id=nomination.pk, by="ana")
    after = fetch(client, host)
    assert "I bake rye bread on Saturdays." in after["prefix"]
    assert after["prefix"] == fresh(agent)
    # sealing the conversation it came from leaves the owner's words where they are:
    # the next fetch is still exactly what a new plan pins
    conversation_seal(conversation=Conversation.objects.get(external_id="talk-1"), by="ana")
    sealed = fetch(client, host)
    assert sealed["prefix"] == fresh(agent)


def test_an_entry_going_dormant_and_coming_back_is_seen_by_the_next_fetch(
    client, host, agent, django_assert_num_queries
):
    fetch(client, host)
    owner.owner_doc_write(
        principal=ana(agent),
        expected_version=0,
        entries=[
            {"text": "Prefers short answers.", "tier": "permanent"},
            {"text": "Is training for a marathon.", "tier": "working"},
        ],
    )
    both = warm(client, host, django_assert_num_queries)
    assert "marathon" in both["prefix"]
    assert owner.mark_dormant(now=timezone.now() + owner.dormant_after() + timedelta(days=1))
    dormant = fetch(client, host)
    assert "marathon" not in dormant["prefix"] and "short answers" in dormant["prefix"]
    assert dormant["rotated_reason"] == "entry_dormant" and dormant["prefix"] == fresh(agent)
    warm(client, host, django_assert_num_queries)
    key = ana(agent).owner_document.versions.get().entries.get(tier="working").key
    owner.owner_entry_reinforce(principal=ana(agent), key=key)
    back = fetch(client, host)
    assert "marathon" in back["prefix"] and back["prefix"] == fresh(agent)


def test_rotations_on_the_hot_path_are_recorded_once(client, host, agent):
    fetch(client, host)
    edit(agent, goals="One goal.")
    answers = [fetch(client, host) for _ in range(3)]
    assert len({a["etag"] for a in answers}) == 1
    assert PlanRotation.objects.count() == 1


# --- tokens: kept by the process, refused at once ------------------------------------------


def test_a_revoked_token_fails_at_the_next_call(client, host, agent, django_assert_num_queries):
    warm(client, host, django_assert_num_queries)
    assert client.get("/v1/agents/helper", **host).status_code == 200
    token_revoke(token=ApiToken.objects.get(name="host-app"), by="olivia")
    for url in (URL, "/v1/agents/helper"):
        r = client.get(url, **host)
        assert r.status_code == 401 and "revoked" in r.json()["error"]["message"]


def test_a_token_revoked_by_another_process_fails_at_the_next_call(
    client, host, agent, django_assert_num_queries
):
    """Another process's revocation runs no hook here: the call asks the database."""
    warm(client, host, django_assert_num_queries)
    assert client.get("/v1/agents/helper", **host).status_code == 200
    ApiToken.objects.filter(name="host-app").update(revoked_at=timezone.now())
    assert client.get(URL, **host).status_code == 401
    assert client.get("/v1/agents/helper", **host).status_code == 401


def test_an_expired_token_fails_at_the_next_call(
    client, api_on, agent, make_token, monkeypatch, django_assert_num_queries
):
    start = timezone.now()
    _, raw = make_token(expires_at=start + timedelta(hours=1))
    warm(client, bearer(raw), django_assert_num_queries)
    assert client.get("/v1/agents/helper", **bearer(raw)).status_code == 200
    monkeypatch.setattr("django.utils.timezone.now", lambda: start + timedelta(hours=2))
    for url in (URL, "/v1/agents/helper"):
        r = client.get(url, **bearer(raw))
        assert r.status_code == 401 and "expired" in r.json()["error"]["message"]


def test_a_token_whose_login_is_deactivated_fails_at_the_next_call(
    client, api_on, agent, make_token, django_assert_num_queries
):
    rex = make_user("rex", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(scopes="host,learning.decide", user=rex)
    warm(client, bearer(raw), django_assert_num_queries)
    type(rex).objects.filter(pk=rex.pk).update(is_active=False)
    for url in (URL, "/v1/agents/helper"):
        r = client.get(url, **bearer(raw))
        assert r.status_code == 401 and "not active" in r.json()["error"]["message"]


def test_a_refusal_is_never_kept(client, api_on, agent, other_tenant, make_token):
    """What is kept comes only from an answered fetch: a token without ``host``, another
    tenant's token, and a token bound to another person are refused every time, also
    after the same token fetched for its own person."""
    _, memory_only = make_token(name="m", scopes="memory.read")
    _, elsewhere = make_token(name="e", tenant_=other_tenant)
    pat = Principal.objects.create(tenant=agent.tenant, external_id="pat")
    _, pats = make_token(name="p", scopes="host,persona.read", principal=pat, on_behalf=True)
    for _ in range(2):
        assert client.get(URL, **bearer(memory_only)).status_code == 403
        assert client.get(URL, **bearer(elsewhere)).status_code == 404
        assert (
            client.get("/v1/agents/helper/prefix?principal=pat", **bearer(pats)).status_code == 200
        )
        assert client.get(URL, **bearer(pats)).status_code == 404


def test_an_agent_deleted_or_its_slug_taken_over_is_not_answered_from_what_was_kept(
    client, host, agent, tenant, django_assert_num_queries
):
    warm(client, host, django_assert_num_queries)
    agent.delete()
    assert client.get(URL, **host).status_code == 404
    again = make_agent(tenant=tenant, slug="helper", name="Helper", role="Baker's assistant")
    r = fetch(client, host)
    assert "Baker's assistant" in r["prefix"] and r["prefix"] == fresh(again)


def test_the_hot_path_counts_against_the_rate_limit(client, host, agent, settings, one_rate_window):
    settings.PERSONAWEB_API_RATE_LIMIT = 3
    statuses = [client.get(URL, **host).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


@pytest.mark.parametrize(
    ("header", "named", "matches_abc"),
    [
        ("", "", False),
        ('"abc"', "abc", True),
        ('W/"abc"', "abc", True),
        ("abc", "abc", True),
        ('"x", "abc"', "", True),  # several: the query reads the text, the answer is a 304
        ("*", "", True),
        ('"x"', "x", False),
    ],
)
def test_the_one_etag_a_header_names_is_what_the_query_compares(header, named, matches_abc):
    from api.services import etag_matches, etag_named

    assert etag_named(header) == named
    assert etag_matches(header, "abc") is matches_abc
