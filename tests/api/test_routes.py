"""The /v1 host API: the acceptance list of issue 10 and the conventions on every answer."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from learning.models import Proposal, Review
from memory.models import Conversation, Message
from persona.models import AgentPersonaVersion, PlanRotation
from tests.api.conftest import bearer
from tests.builders import add_conversations, add_proposal, evidence_for, learning_on
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db

TURN = {
    "principal": "ana@example.org",
    "conversation": "chat-1",
    "user_text": "Can you draft the release notes for 4.2?",
    "assistant_text": "Here is a first draft.",
}


def post(client, url, body=None, **headers):
    """A JSON POST; no body at all when ``body`` is None (as `curl -X POST` sends)."""
    data = "" if body is None else json.dumps(body)
    return client.post(url, data, content_type="application/json", **headers)


def assert_conventions(response):
    assert response["Cache-Control"] == "private, no-store"
    assert response["X-Request-ID"]


def assert_envelope(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "request_id"}
    assert body["error"]["code"] == code
    assert body["error"]["request_id"] == response["X-Request-ID"]
    assert body["error"]["message"].endswith((".", ")"))
    return body["error"]


# --- the acceptance walk ----------------------------------------------------------------


def test_host_walk_turn_prefix_etag_304_and_rotation(client, host, agent, operator_client):
    # a turn posted
    r = post(client, "/v1/agents/helper/turns", TURN, **host)
    assert r.status_code == 201, r.content
    assert_conventions(r)
    body = r.json()
    assert body["created_conversation"] is True and body["conversation"] == "chat-1"
    assert len(body["message_ids"]) == 2
    assert list(
        Message.objects.filter(pk__in=body["message_ids"])
        .order_by("seq")
        .values_list("role", flat=True)
    ) == ["user", "assistant"]

    # the prefix fetched twice: equal sha256 and ETag
    url = "/v1/agents/helper/prefix?principal=ana@example.org&session=s1"
    first = client.get(url, **host)
    second = client.get(url, **host)
    for r in (first, second):
        assert r.status_code == 200, r.content
        assert_conventions(r)
    a, b = first.json(), second.json()
    assert a == b
    assert a["sha256"] and first["ETag"] == second["ETag"] == f'"{a["sha256"]}"'
    assert a["epoch"] == 1 and a["rotated_reason"] is None
    assert a["persona_version"] == agent.persona_version and a["tokens"] > 0
    assert "Personal assistant" in a["prefix"]

    # If-None-Match with the current one: 304, no body
    r = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **host)
    assert r.status_code == 304 and r.content == b""
    assert r["ETag"] == first["ETag"]
    assert_conventions(r)

    # an edit through the dashboard (the guardrail editor) -> a new sha256 and a reason
    edit = operator_client.post(
        reverse("persona:guardrails", args=["helper"]),
        {
            "item": ["Never share a customer's address."],
            "pos": ["1"],
            "reason": "house rule",
            "expected_version": str(agent.persona_version),
        },
    )
    assert edit.status_code == 302, edit.content
    r = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **host)
    assert r.status_code == 200
    c = r.json()
    assert c["sha256"] != a["sha256"] and r["ETag"] == f'"{c["sha256"]}"'
    assert c["epoch"] == 2 and c["rotated_reason"] == "agent_persona_changed"
    assert c["persona_version"] == a["persona_version"] + 1
    assert "Never share a customer's address." in c["prefix"]
    assert PlanRotation.objects.count() == 1
    # and the next fetch is the same epoch again, no second rotation
    assert client.get(url, **host).json() == c
    assert PlanRotation.objects.count() == 1


def test_prefix_is_a_cached_fetch_without_render_when_nothing_changed(
    client, host, agent, monkeypatch
):
    url = "/v1/agents/helper/prefix?principal=ana&session=s1"
    first = client.get(url, **host).json()

    def no_render(*args, **kwargs):
        raise AssertionError("the prefix was rendered again")

    monkeypatch.setattr("persona.plans._prefix_for", no_render)
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(url, **host)
        not_modified = client.get(url, HTTP_IF_NONE_MATCH=f'W/"{first["sha256"]}"', **host)
    assert again.json() == first and not_modified.status_code == 304
    writes = [
        q["sql"] for q in ctx.captured_queries if not q["sql"].lstrip().upper().startswith("SELECT")
    ]
    assert writes == []
    # token, agent, person, plan: four indexed reads per call
    assert len(ctx.captured_queries) <= 8


def test_prefix_without_principal_and_a_list_if_none_match(client, host, agent):
    r = client.get("/v1/agents/helper/prefix", **host)
    assert r.status_code == 200
    sha = r.json()["sha256"]
    r = client.get("/v1/agents/helper/prefix", HTTP_IF_NONE_MATCH=f'"nope", "{sha}"', **host)
    assert r.status_code == 304


# --- tenancy, tokens, scopes -------------------------------------------------------------


def test_other_tenants_token_is_a_404_like_absence(client, api_on, agent, other_tenant, make_token):
    _, raw = make_token(name="globex-host", tenant_=other_tenant)
    theirs = client.get("/v1/agents/helper", **bearer(raw))
    nothing = client.get("/v1/agents/no-such-agent", **bearer(raw))
    a = assert_envelope(theirs, 404, "not_found")
    b = assert_envelope(nothing, 404, "not_found")
    assert a["message"] == b["message"]
    assert_envelope(post(client, "/v1/agents/helper/turns", TURN, **bearer(raw)), 404, "not_found")
    assert_envelope(client.get("/v1/agents/helper/prefix", **bearer(raw)), 404, "not_found")
    assert not Conversation.objects.exists()


def test_no_token_bad_token_revoked_token_are_401(client, api_on, agent, make_token):
    from api.services import token_revoke

    assert_envelope(client.get("/v1/agents/helper"), 401, "unauthorized")
    assert_envelope(client.get("/v1/agents/helper", **bearer("pw_nope")), 401, "unauthorized")
    assert_envelope(
        client.get("/v1/agents/helper", HTTP_AUTHORIZATION="Basic eDp5"), 401, "unauthorized"
    )
    token, raw = make_token()
    assert client.get("/v1/agents/helper", **bearer(raw)).status_code == 200
    token_revoke(token=token, by="test")
    assert_envelope(client.get("/v1/agents/helper", **bearer(raw)), 401, "unauthorized")


def test_a_scope_the_token_lacks_is_403(client, api_on, agent, make_token):
    _, raw = make_token(name="reader", scopes="learning.read")
    err = assert_envelope(
        post(client, "/v1/agents/helper/turns", TURN, **bearer(raw)), 403, "forbidden"
    )
    assert "host" in err["message"]
    _, raw = make_token(name="host-only", scopes="host")
    assert_envelope(client.get("/v1/agents/helper/learning", **bearer(raw)), 403, "forbidden")


def test_a_token_bound_to_an_agent_reaches_that_agent_only(
    client, api_on, tenant, agent, make_token
):
    make_agent(tenant=tenant, slug="other", name="Other")
    _, raw = make_token(name="bound", agent=agent)
    assert client.get("/v1/agents/helper", **bearer(raw)).status_code == 200
    assert_envelope(client.get("/v1/agents/other", **bearer(raw)), 404, "not_found")
    listed = client.get("/v1/agents", **bearer(raw)).json()
    assert [a["slug"] for a in listed["items"]] == ["helper"]


def test_last_used_is_written_at_most_once_a_minute(client, api_on, agent, make_token):
    token, raw = make_token()
    client.get("/v1/agents/helper", **bearer(raw))
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None
    client.get("/v1/agents/helper", **bearer(raw))
    token.refresh_from_db()
    assert token.last_used_at == first


# --- conventions on every answer ---------------------------------------------------------


def test_request_id_is_echoed_or_made(client, host, agent):
    r = client.get("/v1/agents/helper", HTTP_X_REQUEST_ID="host-req-42", **host)
    assert r["X-Request-ID"] == "host-req-42"
    r = client.get("/v1/agents/helper", HTTP_X_REQUEST_ID="bad id\twith spaces", **host)
    assert r["X-Request-ID"] != "bad id\twith spaces" and len(r["X-Request-ID"]) == 32
    r = client.get("/v1/agents/nobody", HTTP_X_REQUEST_ID="req-7", **host)
    assert assert_envelope(r, 404, "not_found")["request_id"] == "req-7"


def test_every_success_has_cache_control_and_request_id(client, api_on, agent, make_token):
    from tests.factories import make_user

    reviewer = make_user("rita", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(name="all", scopes="host,learning.read,learning.decide", user=reviewer)
    h = bearer(raw)
    learning_on(agent)
    proposal = add_proposal(agent, evidence=evidence_for(add_conversations(agent, n=3)))
    answers = [
        client.get("/v1/agents", **h),
        client.get("/v1/agents/helper", **h),
        post(client, "/v1/agents/helper/turns", TURN, **h),
        client.get("/v1/agents/helper/prefix?principal=ana", **h),
        client.get("/v1/agents/helper/learning", **h),
        client.get("/v1/agents/helper/reviews", **h),
        post(client, "/v1/agents/helper/reviews", **h),
        post(client, f"/v1/proposals/{proposal.pk}/approve", **h),
        post(client, "/v1/agents/helper/undo", **h),
        client.get("/v1/openapi.json"),
        client.get("/v1/health"),
    ]
    review = Review.objects.get(agent=agent)
    answers.append(client.get(f"/v1/reviews/{review.pk}", **h))
    for r in answers:
        assert 200 <= r.status_code < 300, (r.status_code, r.content[:300])
        assert_conventions(r)


def test_malformed_requests_are_400_envelopes_never_500(client, host, agent):
    url = "/v1/agents/helper/turns"
    assert_envelope(post(client, url, {"principal": "ana"}, **host), 400, "malformed_request")
    r = client.post(url, "{not json", content_type="application/json", **host)
    assert_envelope(r, 400, "malformed_request")
    assert_envelope(post(client, url, [1, 2], **host), 400, "malformed_request")
    nul = {**TURN, "user_text": "a\x00b"}
    assert_envelope(post(client, url, nul, **host), 400, "malformed_request")
    naive = {**TURN, "at": "2026-11-29T12:00:00"}
    err = assert_envelope(post(client, url, naive, **host), 400, "malformed_request")
    assert "time zone" in err["message"]
    edge = {**TURN, "at": "9999-12-31T23:59:59.999999+00:00"}
    assert_envelope(post(client, url, edge, **host), 400, "malformed_request")
    blank = {**TURN, "conversation": "   "}
    err = assert_envelope(post(client, url, blank, **host), 400, "malformed_request")
    assert "conversation: it is empty" in err["message"]
    assert_envelope(client.get("/v1/agents/bad%20slug!", **host), 400, "malformed_request")
    assert_envelope(client.get("/v1/reviews/0", **host), 400, "malformed_request")
    assert_envelope(client.get(f"/v1/reviews/{2**70}", **host), 400, "malformed_request")
    assert_envelope(client.get("/v1/agents?limit=0", **host), 400, "malformed_request")
    assert not Conversation.objects.exists()


def test_a_conversation_of_another_person_is_a_conflict(client, host, agent):
    assert post(client, "/v1/agents/helper/turns", TURN, **host).status_code == 201
    other = {**TURN, "principal": "bo@example.org"}
    err = assert_envelope(post(client, "/v1/agents/helper/turns", other, **host), 409, "conflict")
    assert "belongs to another person" in err["message"]
    assert Message.objects.count() == 2


def test_a_replayed_turn_with_the_same_time_is_a_conflict(client, host, agent):
    timed = {**TURN, "at": "2026-11-29T12:00:00+00:00"}
    assert post(client, "/v1/agents/helper/turns", timed, **host).status_code == 201
    err = assert_envelope(post(client, "/v1/agents/helper/turns", timed, **host), 409, "conflict")
    assert "recorded already" in err["message"]
    assert Message.objects.count() == 2


def test_sealed_seals_and_never_unseals(client, host, agent):
    post(client, "/v1/agents/helper/turns", {**TURN, "sealed": True}, **host)
    r = post(client, "/v1/agents/helper/turns", {**TURN, "sealed": False}, **host)
    assert r.json()["sealed"] is True
    assert Conversation.objects.get().sealed is True


def test_unknown_paths_and_methods_answer_the_envelope(client, host, agent):
    assert_envelope(client.get("/v1/nothing/here", **host), 404, "not_found")
    r = client.delete("/v1/agents/helper", **host)
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "malformed_request"
    assert_conventions(r)


def test_schema_and_docs_are_served_when_on(client, api_on):
    schema = client.get("/v1/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    for path in (
        "/v1/agents/{slug}/turns",
        "/v1/agents/{slug}/prefix",
        "/v1/agents/{slug}",
        "/v1/agents/{slug}/learning",
        "/v1/agents/{slug}/reviews",
        "/v1/reviews/{review_id}",
        "/v1/proposals/{proposal_id}/approve",
        "/v1/proposals/{proposal_id}/turn-down",
        "/v1/agents/{slug}/undo",
    ):
        assert path in schema["paths"], path
    docs = client.get("/v1/docs")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()
    assert b"cdn" not in docs.content.lower()


def test_api_off_answers_404_under_v1(client, settings, agent):
    import importlib

    from django.urls import clear_url_caches

    import personaweb.urls

    settings.PERSONAWEB_API_ENABLED = False
    clear_url_caches()
    importlib.reload(personaweb.urls)
    for path in ("/v1/", "/v1/openapi.json", "/v1/agents/helper", "/v1/docs"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "X-Request-ID" not in r  # nothing of the API is there


# --- lists page by keyset -----------------------------------------------------------------


def test_agents_page_by_keyset(client, host, tenant, agent):
    for slug in ("b-desk", "c-desk", "d-desk"):
        make_agent(tenant=tenant, slug=slug)
    seen, after, pages = [], None, 0
    while True:
        url = "/v1/agents?limit=2" + (f"&after={after}" if after else "")
        body = client.get(url, **host).json()
        seen += [a["slug"] for a in body["items"]]
        pages += 1
        after = body["next"]
        if after is None:
            break
    assert seen == ["b-desk", "c-desk", "d-desk", "helper"] and pages == 2
    assert_envelope(client.get("/v1/agents?after=garbage!!", **host), 400, "malformed_request")


def test_reviews_page_newest_first(client, api_on, agent, make_token):
    _, raw = make_token(name="reader", scopes="learning.read")
    ids = [
        Review.objects.create(
            agent=agent, trigger="manual", status="done", outcome="nothing_to_do"
        ).pk
        for _ in range(3)
    ]
    first = client.get("/v1/agents/helper/reviews?limit=2", **bearer(raw)).json()
    rest = client.get(
        f"/v1/agents/helper/reviews?limit=2&after={first['next']}", **bearer(raw)
    ).json()
    assert [r["id"] for r in first["items"] + rest["items"]] == ids[::-1]
    assert rest["next"] is None


# --- learning: status, review now, decisions ------------------------------------------------


@pytest.fixture
def decider(api_on, agent, make_token):
    reviewer = make_user("rex", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(name="desk", scopes="learning.read,learning.decide", user=reviewer)
    return bearer(raw)


def test_learning_status_shows_settings_counters_waiting_with_evidence(client, decider, agent):
    learning_on(agent, every_n_turns=7)
    evidence = evidence_for(add_conversations(agent, n=3))
    proposal = add_proposal(agent, evidence=evidence)
    body = client.get("/v1/agents/helper/learning", **decider).json()
    assert body["settings"]["mode"] == "on-with-review" and body["settings"]["every_n_turns"] == 7
    assert body["counters"]["turns_since_review"] == 3
    assert [p["id"] for p in body["waiting"]] == [proposal.pk]
    assert body["waiting"][0]["evidence"][0]["quote"] == "plan the sourdough order"


def test_learning_status_says_how_many_people_muted_a_waiting_proposal_s_words(
    client, decider, agent
):
    from memory.models import Principal
    from persona.mutes import line_mute
    from personaweb.actors import Actor
    from tests.builders import LEARNED_SENTENCE, add_learned_lines

    add_learned_lines(agent)
    agent.refresh_from_db()
    ana = Principal.objects.create(tenant=agent.tenant, external_id="ana")
    line_mute(
        actor=Actor.system("test"), agent=agent, principal=ana, section="goals",
        text=LEARNED_SENTENCE,
    )  # fmt: skip
    # learning proposes the same words again (a hand edit took the line out)
    again = add_proposal(agent, text=LEARNED_SENTENCE)
    rule = add_proposal(agent, kind="rule")
    body = client.get("/v1/agents/helper/learning", **decider).json()
    assert {p["id"]: p["muted_for"] for p in body["waiting"]} == {again.pk: 1, rule.pk: 0}
    assert "muted_for" not in json.dumps(body["recent_decisions"])
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]
    waiting = schemas["LearningOut"]["properties"]["waiting"]["items"]["$ref"].rsplit("/", 1)[1]
    assert "muted_for" in schemas[waiting]["required"]
    assert schemas[waiting]["properties"]["muted_for"]["type"] == "integer"


def test_review_now_queues_and_reports(client, api_on, agent, other_tenant, make_token):
    _, raw = make_token(name="h", scopes="host")
    r = post(client, "/v1/agents/helper/reviews", **bearer(raw))
    assert r.status_code == 202, r.content
    review_id = r.json()["review_id"]
    review = Review.objects.get(pk=review_id)
    assert review.trigger == "manual" and review.requested_by == "token:h"
    # a second click returns the same review
    assert post(client, "/v1/agents/helper/reviews", **bearer(raw)).json()["review_id"] == review_id
    got = client.get(f"/v1/reviews/{review_id}", **bearer(raw)).json()
    assert (
        got["id"] == review_id and got["agent"] == "helper" and got["status"] in ("queued", "done")
    )
    _, theirs = make_token(name="g", scopes="host", tenant_=other_tenant)
    assert_envelope(client.get(f"/v1/reviews/{review_id}", **bearer(theirs)), 404, "not_found")


def test_decisions_approve_then_conflict_then_undo(client, decider, agent):
    learning_on(agent)
    proposal = add_proposal(agent, evidence=evidence_for(add_conversations(agent, n=3)))
    r = post(client, f"/v1/proposals/{proposal.pk}/approve", **decider)
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["status"] == "applied" and body["applied_version"] == body["persona_version"]
    proposal.refresh_from_db()
    assert proposal.decided_by == "rex"
    head = AgentPersonaVersion.objects.get(agent=agent, version=body["persona_version"])
    assert head.source_type == "persona_learning" and head.approved_by == "rex"
    # decided already: conflict, with who decided
    err = assert_envelope(
        post(client, f"/v1/proposals/{proposal.pk}/approve", **decider), 409, "conflict"
    )
    assert "rex" in err["message"]
    # undo takes it back
    r = post(client, "/v1/agents/helper/undo", **decider)
    assert r.status_code == 200 and r.json()["proposal_id"] == proposal.pk
    assert r.json()["persona_version"] == body["persona_version"] + 1
    assert_envelope(post(client, "/v1/agents/helper/undo", **decider), 409, "conflict")


def test_turn_down(client, decider, agent):
    learning_on(agent)
    proposal = add_proposal(agent)
    r = post(client, f"/v1/proposals/{proposal.pk}/turn-down", **decider)
    assert r.status_code == 200 and r.json()["status"] == "dismissed"


def test_a_standing_rule_needs_a_rule_owner(client, api_on, agent, make_token):
    learning_on(agent, standing_rules=True, rule_owners=["olga"])
    make_user("olga", role="reviewer", tenants=[agent.tenant])
    rex = make_user("rex", role="reviewer", tenants=[agent.tenant])
    olga = make_user("olga2", role="reviewer", tenants=[agent.tenant])
    del olga
    _, raw = make_token(name="rex", scopes="learning.decide", user=rex)
    rule = add_proposal(agent, kind="rule")
    err = assert_envelope(
        post(client, f"/v1/proposals/{rule.pk}/approve", **bearer(raw)), 403, "forbidden"
    )
    assert "olga" in err["message"]
    rule.refresh_from_db()
    assert rule.status == Proposal.Status.WAITING


def test_rule_owner_approves_in_own_words(client, api_on, agent, make_token):
    learning_on(agent, standing_rules=True, rule_owners=["olga"])
    olga = make_user("olga", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(name="olga", scopes="learning.decide", user=olga)
    rule = add_proposal(agent, kind="rule")
    r = post(
        client,
        f"/v1/proposals/{rule.pk}/approve",
        {"text": "Give every date in full."},
        **bearer(raw),
    )
    assert r.status_code == 200, r.content
    rule.refresh_from_db()
    assert rule.applied_text == "Give every date in full." and rule.decided_by == "olga"


def test_another_tenants_proposal_is_404(client, decider, other_tenant):
    elsewhere = make_agent(tenant=other_tenant, slug="elsewhere")
    learning_on(elsewhere)
    proposal = add_proposal(elsewhere)
    assert_envelope(
        post(client, f"/v1/proposals/{proposal.pk}/approve", **decider), 404, "not_found"
    )
    assert_envelope(post(client, "/v1/proposals/999999/approve", **decider), 404, "not_found")
