"""The owner-document routes of /v1 (issue 12; seed 001, "The routes"): the document of
the person a token is bound to, its history and nominations, under the conventions of
every /v1 route, with the gates routes_exact_scope, principal_scoped and
revision_precondition."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from api.models import SCOPES, ApiToken
from api.services import TokenInputError, token_create
from memory.models import Belief, Principal
from memory.sealing import conversation_seal
from persona import owner
from persona.models import (
    OwnerAccount,
    OwnerDocument,
    OwnerDocumentVersion,
    OwnerEntry,
    OwnerNomination,
)
from tests.api.conftest import bearer, mount_api
from tests.api.test_routes import assert_conventions, assert_envelope, post
from tests.builders import add_nomination, count_queries
from tests.factories import make_agent, make_owner

pytestmark = pytest.mark.django_db

BOTH = "persona.read,persona.write"
ENTRY_KEYS = {
    "key",
    "text",
    "source",
    "sensitivity",
    "tier",
    "reinforcement_count",
    "last_reinforced_at",
    "stale",
    "stale_reason",
    "dormant",
}
NOMINATION_KEYS = {
    "id",
    "statement",
    "category",
    "confidence",
    "corroboration_count",
    "sensitivity",
    "evidence_quote",
    "sealed",
    "state",
    "nominated_at",
    "resolved_at",
    "affirmed_version",
}
#: The six routes of seed 001 and the one scope each requires.
PERSONA_ROUTES = {
    ("GET", "/v1/persona"): "persona.read",
    ("PUT", "/v1/persona"): "persona.write",
    ("GET", "/v1/persona/history"): "persona.read",
    ("GET", "/v1/persona/nominations"): "persona.read",
    ("POST", "/v1/persona/nominations/{nomination_id}/affirm"): "persona.write",
    ("POST", "/v1/persona/nominations/{nomination_id}/decline"): "persona.write",
    ("POST", "/v1/persona/entries/{key}/reinforce"): "persona.write",
}
#: The memory routes' documented table (issue 11), which the persona routes leave alone.
MEMORY_ROUTES = {
    ("GET", "/v1/memories"): "memory.read",
    ("GET", "/v1/memories/{memory_id}"): "memory.read",
    ("GET", "/v1/context"): "memory.read",
    ("POST", "/v1/memories"): "memory.write",
    ("POST", "/v1/memories/{memory_id}/retire"): "memory.write",
    ("GET", "/v1/intentions"): "memory.read",
    ("POST", "/v1/intentions/{intention_id}/done"): "memory.write",
    ("POST", "/v1/routines"): "memory.write",
    ("POST", "/v1/routines/{routine_id}/feedback"): "memory.write",
}


@pytest.fixture(autouse=True)
def no_vectors(settings):
    # the nominations' beliefs are written on words only: no embedding model here
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def ana(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ana")


def owner_of(person):
    """The login linked to ``person`` (made on first use): the one that makes their tokens."""
    account = OwnerAccount.objects.filter(principal=person).select_related("user").first()
    if account is not None:
        return account.user
    return make_owner(person, f"{person.external_id}-of-{person.tenant.slug}")


def token_for(person, *, scopes=BOTH, name=None, **kwargs):
    if "creator" not in kwargs and "on_behalf" not in kwargs:
        kwargs["creator"] = owner_of(person)
    _, raw = token_create(
        tenant=person.tenant,
        name=name or f"{person.external_id}-app",
        scopes=scopes,
        principal=person,
        **kwargs,
    )
    return bearer(raw)


@pytest.fixture
def mine(persona_on, ana):
    """Ana's token for her own document (both persona scopes)."""
    return token_for(ana)


def put(client, body, headers):
    return client.put("/v1/persona", json.dumps(body), content_type="application/json", **headers)


nominate = add_nomination


def write(person, texts, *, expected):
    return owner.owner_doc_write(
        principal=person, expected_version=expected, entries=[{"text": t} for t in texts]
    )


def texts_of(doc):
    return [e["text"] for e in doc["entries"]]


# --- reading and writing the document ---------------------------------------------------


def test_version_0_is_an_empty_document_and_a_read_writes_nothing(client, mine):
    r = client.get("/v1/persona", **mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    assert r.json() == {"version": 0, "created_at": None, "entries": []}
    assert not OwnerDocument.objects.exists()


def test_put_writes_a_version_and_get_shows_the_allow_listed_view(client, mine, ana):
    body = {
        "expected_version": 0,
        "entries": [
            {"text": "Prefers short answers with the conclusion first.", "tier": "permanent"},
            {"text": "Works   in Lisbon.", "sensitivity": "confidential", "tier": "working"},
        ],
    }
    r = put(client, body, mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    written = r.json()
    assert set(written) == {"version", "created_at", "entries", "changed"}
    assert written["version"] == 1 and written["changed"] is True and written["created_at"]
    assert texts_of(written) == [
        "Prefers short answers with the conclusion first.",
        "Works in Lisbon.",
    ]
    first, second = written["entries"]
    assert all(set(e) == ENTRY_KEYS for e in written["entries"])
    assert (first["source"], first["sensitivity"], first["tier"]) == (
        "user_edit",
        "internal",
        "permanent",
    )
    assert (second["sensitivity"], second["tier"]) == ("confidential", "working")
    assert first["reinforcement_count"] == 0 and not first["stale"] and not first["dormant"]
    assert len(first["key"]) == 32 and first["key"] != second["key"]

    head = client.get("/v1/persona", **mine)
    assert_conventions(head)
    assert head.json() == {k: v for k, v in written.items() if k != "changed"}
    # no tenant, principal or belief id anywhere in the view
    text = head.content.decode()
    assert "tenant" not in text and "principal" not in text and "belief" not in text

    # an edit keeps an entry by its key (text changed), drops one, adds one
    edit = {
        "expected_version": 1,
        "entries": [
            {"key": first["key"], "text": "Prefers short answers, conclusion first."},
            {"text": "Bakes sourdough on Saturdays."},
        ],
    }
    r = put(client, edit, mine)
    assert r.status_code == 200, r.content
    v2 = r.json()
    assert v2["version"] == 2 and texts_of(v2) == [
        "Prefers short answers, conclusion first.",
        "Bakes sourdough on Saturdays.",
    ]
    assert v2["entries"][0]["key"] == first["key"] and v2["entries"][0]["tier"] == "permanent"

    # the same entries again write nothing
    same = {
        "expected_version": 2,
        "entries": [{"key": e["key"], "text": e["text"]} for e in v2["entries"]],
    }
    r = put(client, same, mine)
    assert r.status_code == 200, r.content
    assert r.json()["changed"] is False and r.json()["version"] == 2
    assert OwnerDocumentVersion.objects.count() == 2


def test_history_pages_versions_newest_first_by_keyset(client, mine, ana):
    write(ana, ["One."], expected=0)
    write(ana, ["One.", "Two."], expected=1)
    write(ana, ["Three."], expected=2)
    r = client.get("/v1/persona/history?limit=2", **mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    page = r.json()
    assert [v["version"] for v in page["items"]] == [3, 2] and page["next"]
    newest = page["items"][0]
    assert set(newest) == {"version", "source", "nomination_id", "note", "created_at", "entries"}
    assert newest["source"] == "user_edit" and newest["nomination_id"] is None
    assert set(newest["entries"][0]) == {"key", "text", "source", "sensitivity", "tier"}
    assert [e["text"] for e in page["items"][1]["entries"]] == ["One.", "Two."]
    rest = client.get(f"/v1/persona/history?limit=2&after={page['next']}", **mine).json()
    assert [v["version"] for v in rest["items"]] == [1] and rest["next"] is None
    assert_envelope(
        client.get("/v1/persona/history?after=not-ours", **mine), 400, "malformed_request"
    )


LONG = "word " * 120


@pytest.mark.parametrize(
    ("entries", "words"),
    [
        ([{"text": LONG}], "the limit is 500"),
        ([{"text": f"Entry number {i}."} for i in range(31)], "the limit is 30"),
        ([{"text": "A fact. " * 60} for _ in range(30)], "the limit is 2,000"),
        ([{"text": "Fine.", "tier": "forever"}], "The tier 'forever' is not one of"),
        ([{"text": "Fine.", "sensitivity": "secret"}], "The sensitivity 'secret' is not one of"),
        ([{"text": "I said so.", "source": "affirmation"}], "only affirming a nomination"),
        ([{"text": "   "}], "Entry 1 is empty"),
    ],
    ids=["too-long", "too-many", "too-many-tokens", "tier", "sensitivity", "affirmed", "empty"],
)
def test_refused_content_is_a_400_with_the_services_sentence_and_writes_nothing(
    client, mine, ana, entries, words
):
    write(ana, ["Keeps this."], expected=0)
    r = put(client, {"expected_version": 1, "entries": entries}, mine)
    error = assert_envelope(r, 400, "malformed_request")
    assert words in error["message"]
    assert OwnerDocumentVersion.objects.count() == 1 and OwnerEntry.objects.count() == 1
    assert texts_of(client.get("/v1/persona", **mine).json()) == ["Keeps this."]


def test_put_refuses_a_secret_and_writes_nothing(client, mine):
    secret = "Her password is Tr0ub4dor&3xQz9!"
    r = put(client, {"expected_version": 0, "entries": [{"text": secret}]}, mine)
    error = assert_envelope(r, 400, "malformed_request")
    assert "looks like it holds a secret" in error["message"]
    assert "Tr0ub4dor" not in error["message"]
    assert not OwnerDocumentVersion.objects.exists()
    assert client.get("/v1/persona", **mine).json()["version"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {"entries": []},
        {"expected_version": "0", "entries": []},
        {"expected_version": -1, "entries": []},
        {"expected_version": 0},
        {"expected_version": 0, "entries": [{"text": "Fine.", "stale": True}]},
        {"expected_version": 0, "entries": [{"text": "nul\x00"}]},
        {"expected_version": 0, "entries": [], "principal": "bo"},
    ],
)
def test_malformed_bodies_are_400_envelopes(client, mine, body):
    assert_envelope(put(client, body, mine), 400, "malformed_request")
    assert not OwnerDocumentVersion.objects.exists()


def test_gate_persona_revision_precondition(client, mine, ana):
    r = put(client, {"expected_version": 0, "entries": [{"text": "First line."}]}, mine)
    assert r.status_code == 200 and r.json()["version"] == 1

    # a write that names a version other than the head: the conflict code, nothing written
    replacement = [{"text": "Second line."}, {"text": "Third line."}]
    for stale in (0, 7):
        error = assert_envelope(
            put(client, {"expected_version": stale, "entries": replacement}, mine), 409, "conflict"
        )
        assert "at version 1" in error["message"]
    assert OwnerDocumentVersion.objects.count() == 1 and OwnerEntry.objects.count() == 1
    assert texts_of(client.get("/v1/persona", **mine).json()) == ["First line."]

    # the corrected retry succeeds
    r = put(client, {"expected_version": 1, "entries": replacement}, mine)
    assert r.status_code == 200, r.content
    assert r.json()["version"] == 2 and texts_of(r.json()) == ["Second line.", "Third line."]

    # a write from another surface meanwhile (the dashboard) makes the next PUT stale
    write(ana, ["Edited on the dashboard."], expected=2)
    error = assert_envelope(
        put(client, {"expected_version": 2, "entries": [{"text": "Mine."}]}, mine), 409, "conflict"
    )
    assert "at version 3" in error["message"]
    assert texts_of(client.get("/v1/persona", **mine).json()) == ["Edited on the dashboard."]


# --- nominations ---------------------------------------------------------------------------


def test_nominations_list_affirm_and_decline(client, mine, ana, agent):
    rye = nominate(agent, "Likes rye bread with butter")
    tea = nominate(agent, "Prefers tea over coffee", conversation="talk-2")
    r = client.get("/v1/persona/nominations", **mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    items = r.json()["items"]
    assert [n["id"] for n in items] == [tea.pk, rye.pk]
    assert all(set(n) == NOMINATION_KEYS for n in items)
    assert items[1]["evidence_quote"] == "Likes rye bread with butter" and not items[1]["sealed"]
    assert items[1]["state"] == "nominated" and items[1]["corroboration_count"] == 3
    first = client.get("/v1/persona/nominations?limit=1", **mine).json()
    assert [n["id"] for n in first["items"]] == [tea.pk]
    second = client.get(f"/v1/persona/nominations?limit=1&after={first['next']}", **mine).json()
    assert [n["id"] for n in second["items"]] == [rye.pk] and second["next"] is None

    # affirm: a new version with the statement as an affirmed entry
    r = post(client, f"/v1/persona/nominations/{rye.pk}/affirm", None, **mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    affirmed = r.json()
    assert affirmed["version"] == 1
    assert affirmed["nomination"]["state"] == "affirmed"
    assert affirmed["nomination"]["affirmed_version"] == 1
    head = client.get("/v1/persona", **mine).json()
    assert [(e["text"], e["source"]) for e in head["entries"]] == [
        ("Likes rye bread with butter", "affirmation")
    ]
    assert Belief.objects.get(pk=rye.belief_id).promoted

    # idempotent: the same answer again, no second version
    again = post(client, f"/v1/persona/nominations/{rye.pk}/affirm", None, **mine)
    assert again.status_code == 200 and again.json()["version"] == 1
    assert OwnerDocumentVersion.objects.count() == 1
    # a resolved nomination cannot be declined
    assert_envelope(
        post(client, f"/v1/persona/nominations/{rye.pk}/decline", None, **mine), 409, "conflict"
    )

    r = post(client, f"/v1/persona/nominations/{tea.pk}/decline", None, **mine)
    assert r.status_code == 200, r.content
    assert_conventions(r)
    assert r.json()["state"] == "declined" and r.json()["resolved_at"]
    assert_envelope(
        post(client, f"/v1/persona/nominations/{tea.pk}/decline", None, **mine), 409, "conflict"
    )
    assert_envelope(
        post(client, f"/v1/persona/nominations/{tea.pk}/affirm", None, **mine), 409, "conflict"
    )
    assert OwnerDocumentVersion.objects.count() == 1

    by_state = client.get("/v1/persona/nominations?state=declined", **mine).json()
    assert [n["id"] for n in by_state["items"]] == [tea.pk]
    assert client.get("/v1/persona/nominations?state=nominated", **mine).json()["items"] == []
    assert_envelope(
        client.get("/v1/persona/nominations?state=maybe", **mine), 400, "malformed_request"
    )

    # the affirmed entry round-trips through PUT with its key and source: nothing changes
    entry = head["entries"][0]
    keep = {"key": entry["key"], "text": entry["text"], "source": entry["source"]}
    r = put(client, {"expected_version": 1, "entries": [keep]}, mine)
    assert r.status_code == 200 and r.json()["changed"] is False
    # the history says which nomination the version affirmed
    history = client.get("/v1/persona/history", **mine).json()
    assert history["items"][0]["source"] == "affirmation"
    assert history["items"][0]["nomination_id"] == rye.pk


def test_a_sealed_conversation_is_not_quoted(client, mine, agent):
    nomination = nominate(agent, "Likes rye bread with butter")
    conversation_seal(conversation=nomination.belief.evidence_message.conversation)
    (item,) = client.get("/v1/persona/nominations", **mine).json()["items"]
    assert item["sealed"] is True and item["evidence_quote"] is None
    assert item["statement"] == "Likes rye bread with butter"


def test_gate_persona_principal_scoped(client, persona_on, tenant, other_tenant, agent, ana):
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    their_ana = Principal.objects.create(tenant=other_tenant, external_id="ana")
    ana_h, bo_h, their_h = token_for(ana), token_for(bo), token_for(their_ana)
    elsewhere = make_agent(tenant=other_tenant, slug="elsewhere")
    put(client, {"expected_version": 0, "entries": [{"text": "Ana's own line."}]}, ana_h)
    own = nominate(agent, "Likes rye bread with butter")
    bos = nominate(agent, "Likes oat milk in coffee", who="bo", conversation="bo-1")
    theirs = nominate(elsewhere, "Likes green tea", conversation="g-1")

    # documents: a token reaches its own person's document only, whoever else is called ana
    for headers in (bo_h, their_h):
        assert client.get("/v1/persona", **headers).json() == {
            "version": 0,
            "created_at": None,
            "entries": [],
        }
        assert client.get("/v1/persona/history", **headers).json()["items"] == []
    assert [n["id"] for n in client.get("/v1/persona/nominations", **ana_h).json()["items"]] == [
        own.pk
    ]
    assert [n["id"] for n in client.get("/v1/persona/nominations", **bo_h).json()["items"]] == [
        bos.pk
    ]

    # nominations: another person's, another tenant's and an unknown id answer alike
    unknown = OwnerNomination.objects.order_by("-pk").first().pk + 1000
    answers = set()
    for nomination_id in (bos.pk, theirs.pk, unknown):
        for action in ("affirm", "decline"):
            r = post(client, f"/v1/persona/nominations/{nomination_id}/{action}", None, **ana_h)
            error = assert_envelope(r, 404, "not_found")
            answers.add((r.status_code, error["code"], error["message"]))
    assert answers == {(404, "not_found", "No nomination with that id here.")}
    assert set(OwnerNomination.objects.values_list("state", flat=True)) == {"nominated"}
    assert not OwnerDocument.objects.filter(principal__in=[bo, their_ana]).exists()
    assert not Belief.objects.filter(promoted=True).exists()

    # writes stay with their own person too
    r = put(client, {"expected_version": 0, "entries": [{"text": "Bo's line."}]}, bo_h)
    assert r.status_code == 200 and r.json()["version"] == 1
    assert texts_of(client.get("/v1/persona", **ana_h).json()) == ["Ana's own line."]
    assert_envelope(
        post(client, f"/v1/persona/nominations/{own.pk}/affirm", None, **bo_h), 404, "not_found"
    )
    r = post(client, f"/v1/persona/nominations/{own.pk}/affirm", None, **ana_h)
    assert r.status_code == 200 and r.json()["version"] == 2
    assert texts_of(client.get("/v1/persona", **bo_h).json()) == ["Bo's line."]


# --- tokens and scopes ---------------------------------------------------------------------


def _call(client, method, path, headers, **params):
    url = path
    for name in ("nomination_id", "memory_id", "intention_id", "routine_id", "key"):
        url = url.replace("{" + name + "}", "1")
    if method == "GET":
        return client.get(url, params, **headers)
    body = params or ({"expected_version": 0, "entries": []} if method == "PUT" else None)
    data = "" if body is None else json.dumps(body)
    return getattr(client, method.lower())(url, data, content_type="application/json", **headers)


def _operations(schema):
    return {(m.upper(), p) for p, ops in schema["paths"].items() for m in ops}


MEMORY_CALLS = {
    ("POST", "/v1/memories/{memory_id}/retire"): {"principal": "ana"},
    ("GET", "/v1/intentions"): {"principal": "ana"},
    ("POST", "/v1/intentions/{intention_id}/done"): {"principal": "ana"},
    ("POST", "/v1/routines"): {
        "agent": "helper",
        "principal": "ana",
        "action": "Bakes bread",
        "weekdays": [6],
        "time": "08:00",
    },
    ("POST", "/v1/routines/{routine_id}/feedback"): {"principal": "ana", "feedback": "confirmed"},
    ("GET", "/v1/memories"): {"principal": "ana"},
    ("GET", "/v1/memories/{memory_id}"): {"principal": "ana"},
    ("GET", "/v1/context"): {"agent": "helper", "principal": "ana", "query": "tea"},
    ("POST", "/v1/memories"): {
        "agent": "helper",
        "principal": "ana",
        "category": "likes",
        "statement": "Prefers green tea",
        "confidence": 0.8,
        "source": "direct",
    },
}


def test_gate_persona_routes_exact_scope(client, api_on, settings, agent, ana, reviewer):
    # off (the default): no persona route in the schema or the URLs
    off = client.get("/v1/openapi.json").json()
    assert not [op for op in _operations(off) if op[1].startswith("/v1/persona")]
    assert_envelope(client.get("/v1/persona", **token_for(ana)), 404, "not_found")

    settings.AGENT_PERSONA_API_ENABLED = True
    mount_api()
    try:
        on = client.get("/v1/openapi.json").json()
        persona_ops = {op for op in _operations(on) if op[1].startswith("/v1/persona")}
        assert persona_ops == set(PERSONA_ROUTES)
        assert _operations(on) - persona_ops == _operations(off)  # nothing else moved
        # the routes are the table's: each persona operation's scope is its one exact scope
        from api.operations import OPERATIONS

        table = {(op.method, op.path): list(op.scopes) for op in OPERATIONS}
        assert {k: v for k, v in table.items() if k in persona_ops} == {
            op: [scope] for op, scope in PERSONA_ROUTES.items()
        }
        assert {k: v for k, v in table.items() if k in MEMORY_ROUTES} == {
            op: [scope] for op, scope in MEMORY_ROUTES.items()
        }
        assert {
            op
            for op in _operations(on)
            if op[1].split("/")[2] in ("memories", "context", "intentions", "routines")
        } == set(MEMORY_ROUTES)

        # and in use: every other scope is refused, the one scope is let through
        def token(name, scopes):
            return token_for(ana, name=name, scopes=",".join(scopes), user=reviewer, on_behalf=True)

        for i, ((method, path), scope) in enumerate(PERSONA_ROUTES.items()):
            others = token(f"others-{i}", [s for s in SCOPES if s != scope])
            error = assert_envelope(_call(client, method, path, others), 403, "forbidden")
            assert scope in error["message"]
            r = _call(client, method, path, token(f"only-{i}", [scope]))
            assert r.status_code not in (401, 403), (method, path, r.content)
            assert_conventions(r)
        persona_only = token("persona-only", ["persona.read", "persona.write"])
        for i, ((method, path), scope) in enumerate(MEMORY_ROUTES.items()):
            params = MEMORY_CALLS[(method, path)]
            error = assert_envelope(
                _call(client, method, path, persona_only, **params), 403, "forbidden"
            )
            assert scope in error["message"]
            r = _call(client, method, path, token(f"memory-{i}", [scope]), **params)
            assert r.status_code not in (401, 403), (method, path, r.content)
    finally:
        settings.AGENT_PERSONA_API_ENABLED = False
        mount_api()

    # the persona flag alone mounts nothing: /v1 itself is off without PERSONAWEB_API_ENABLED
    settings.AGENT_PERSONA_API_ENABLED = True
    settings.PERSONAWEB_API_ENABLED = False
    mount_api()
    try:
        assert client.get("/v1/persona", **token_for(ana, name="late")).status_code == 404
    finally:
        settings.AGENT_PERSONA_API_ENABLED = False
        settings.PERSONAWEB_API_ENABLED = True
        mount_api()


def test_a_token_must_be_bound_to_a_person(client, persona_on, tenant, ana, make_token):
    # a token with the persona scopes but no person (as made before the binding existed)
    token, raw = make_token(name="unbound", scopes=BOTH, principal=ana, on_behalf=True)
    ApiToken.objects.filter(pk=token.pk).update(principal=None)
    for method, path in PERSONA_ROUTES:
        error = assert_envelope(_call(client, method, path, bearer(raw)), 403, "forbidden")
        assert "not bound to a person" in error["message"] and "--principal" in error["message"]
    _, host_only = make_token(name="host-only", scopes="host")
    error = assert_envelope(client.get("/v1/persona", **bearer(host_only)), 403, "forbidden")
    assert "persona.read" in error["message"]
    assert_envelope(client.get("/v1/persona"), 401, "unauthorized")
    assert_envelope(client.get("/v1/persona", **bearer("pw_nothing")), 401, "unauthorized")
    assert not OwnerDocument.objects.exists()


def test_reads_run_a_constant_number_of_queries(client, mine, ana, agent):
    urls = ("/v1/persona", "/v1/persona/history", "/v1/persona/nominations")
    write(ana, ["One."], expected=0)
    nominate(agent, "Likes rye bread with butter")
    few = [count_queries(client, url, **mine) for url in urls]
    for i in range(2, 8):
        write(ana, [f"Line {n}." for n in range(i)], expected=i - 1)
    for i, statement in enumerate(
        ["Likes oat milk", "Prefers tea over coffee", "Enjoys long walks"]
    ):
        nominate(agent, statement, conversation=f"talk-{i + 2}")
    many = [count_queries(client, url, **mine) for url in urls]
    assert many == few
    assert max(many) <= 6


# --- binding a token to a person -----------------------------------------------------------


def test_the_command_line_binds_a_persona_token_to_a_person(tenant, other_tenant, ana):
    out = StringIO()
    call_command(
        "api",
        "token",
        "create",
        "--name",
        "ana-phone",
        "--tenant",
        "acme",
        "--scopes",
        BOTH,
        "--principal",
        "ana",
        "--on-behalf",
        "--json",
        stdout=out,
    )
    made = json.loads(out.getvalue())
    assert made["principal"] == "ana" and made["token"].startswith("pw_")
    assert ApiToken.objects.get(name="ana-phone").principal == ana
    listed = StringIO()
    call_command("api", "token", "list", stdout=listed)
    assert "principal=ana" in listed.getvalue()

    base = ["api", "token", "create", "--tenant", "acme", "--scopes", "persona.read"]
    with pytest.raises(CommandError, match="--principal") as info:
        call_command(*base, "--name", "unbound")
    assert info.value.returncode == 2
    with pytest.raises(CommandError, match="No person with the id 'zoe' in acme") as info:
        call_command(*base, "--name", "zoe", "--principal", "zoe")
    assert info.value.returncode == 2
    their_ana = Principal.objects.create(tenant=other_tenant, external_id="ana")
    with pytest.raises(TokenInputError, match="not in the tenant"):
        token_create(tenant=tenant, name="x", scopes=BOTH, principal=their_ana)
    assert ApiToken.objects.count() == 1


def test_the_tokens_page_binds_a_token_to_a_person(operator_client, operator, tenant, ana):
    OwnerAccount.objects.create(user=operator, principal=ana)  # olivia is ana
    url = reverse("api:tokens")
    base = {"tenant": tenant.pk, "scopes": ["persona.read"]}
    r = operator_client.post(url, {**base, "name": "ana-app", "principal": "ana"})
    assert r.status_code == 200
    assert ApiToken.objects.get(name="ana-app").principal == ana
    assert "persona of ana" in r.content.decode()
    r = operator_client.post(url, {**base, "name": "nobody"})
    assert "must be bound to the person" in r.content.decode()
    r = operator_client.post(url, {**base, "name": "zoe", "principal": "zoe"})
    assert "No person with the id" in r.content.decode()
    assert ApiToken.objects.count() == 1
