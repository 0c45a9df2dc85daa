"""Every host operation, over HTTP and over MCP, for every kind of caller, against the
data of person A (ana) and person B (bo): each cell is the expected answer, and both
transports give it with the same sentence. An operation offered on one transport only
fails the first test.

Callers: a tenant-wide token with every scope; a token bound to A with every scope; a
token of another tenant with every scope; and, per operation, a token of the tenant with
every scope but the operation's own.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import anyio
import pytest
from django.utils import timezone
from mcp import Client
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken

from api.mcp_server import build_server
from api.models import PERSONA_SCOPES, SCOPES
from api.operations import OPERATIONS, enabled_operations
from api.services import token_create
from memory.models import Principal
from memory.services_beliefs import belief_write, intention_write, routine_label
from persona import owner
from tests.api.conftest import bearer
from tests.builders import add_nomination, add_proposal, add_review
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db(transaction=True)

#: MCP's name of each path parameter of /v1
MCP_NAME = {"slug": "agent", "memory_id": "belief_id"}
OK, FORBIDDEN, NOT_FOUND = "ok", 403, 404
#: words of the sentences ``authorize`` refuses with (an OK cell never shows one; a
#: refusal about the state of things, e.g. nothing left to undo, may differ between two
#: calls because the first one changed it)
AUTHORISATION_WORDS = ("lacks the scope", "with that", "bound to", "may not", "not reachable")
_counter = itertools.count(1)


@dataclass
class Call:
    """One call of an operation: path parameters, and query or body arguments."""

    path: dict[str, Any] = field(default_factory=dict)
    args: dict[str, Any] = field(default_factory=dict)


@pytest.fixture(autouse=True)
def words_only(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False  # no embedding model in this test


@pytest.fixture
def world(persona_on, tenant, other_tenant, agent):
    """Two people of the tenant with memory, documents and nominations; the callers."""
    operator = make_user("olivia", role="operator", tenants=[tenant])
    ana = Principal.objects.create(tenant=tenant, external_id="ana")
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    make_agent(tenant=other_tenant, slug="elsewhere")
    for person in (ana, bo):
        owner.owner_doc_write(
            principal=person, expected_version=0, entries=[{"text": f"{person.external_id} bakes."}]
        )
    all_scopes = ",".join(SCOPES)
    # the persona scopes need a person binding: the unbound callers carry every other one
    unbound_scopes = ",".join(s for s in SCOPES if s not in PERSONA_SCOPES)
    _, wide = token_create(tenant=tenant, name="wide", scopes=unbound_scopes, user=operator)
    _, bound = token_create(
        tenant=tenant,
        name="bound-a",
        scopes=all_scopes,
        user=operator,
        principal=ana,
        on_behalf=True,
    )
    other_operator = make_user("otto", role="operator", tenants=[other_tenant])
    _, other = token_create(
        tenant=other_tenant, name="other", scopes=unbound_scopes, user=other_operator
    )
    return {
        "agent": agent,
        "people": {"A": ana, "B": bo},
        "tokens": {"wide": wide, "bound": bound, "other": other},
        "operator": operator,
        "tenant": tenant,
    }


def _nomination(agent, who: str) -> int:
    from memory.models import Belief

    # a restatement would corroborate the belief a call before nominated: set those aside
    Belief.objects.filter(statement__startswith="Keeps bees").update(status="retired")
    return add_nomination(
        agent, f"Keeps bees number {next(_counter)}", who=who, conversation=f"nom-{next(_counter)}"
    ).pk


def call_for(name: str, world: dict[str, Any], column: str) -> Call:
    """Fresh rows for one call (a write never meets a row another call used up)."""
    agent = world["agent"]
    person = world["people"][column]
    who = person.external_id
    n = next(_counter)

    def belief() -> int:
        from memory.models import Belief

        Belief.objects.filter(statement__startswith="Runs market stall").update(status="retired")
        return belief_write(
            agent=agent,
            principal_external_id=who,
            category="projects",
            statement=f"Runs market stall number {n}",
            confidence=0.8,
            source="direct",
        ).belief.pk

    if name == "agents_list":
        return Call()
    if name in ("persona_read", "learning_status", "reviews_list", "review_now", "undo"):
        return Call(path={"slug": "helper"})
    if name == "persona_update":
        return Call(
            path={"slug": "helper"}, args={"reason": "Matrix check.", "role": f"Planner {n}"}
        )
    if name == "record_turn":
        return Call(
            path={"slug": "helper"},
            args={"principal": who, "conversation": f"m-{n}", "user_text": "Plan the rye order."},
        )
    if name in ("prompt_prefix", "prompt_explain"):
        return Call(path={"slug": "helper"}, args={"principal": who})
    if name == "review_get":
        return Call(path={"review_id": add_review(agent).pk})
    if name in ("proposal_approve", "proposal_turn_down"):
        from learning.models import Proposal

        # one waiting proposal per agent: the one a call before left is set aside
        Proposal.objects.filter(agent=agent, status="waiting").update(status="dismissed")
        proposal = add_proposal(agent, text=f"Plan weekend bakery orders number {n}.")
        return Call(path={"proposal_id": proposal.pk})
    if name == "beliefs_search":
        return Call(args={"principal": who})
    if name == "belief_evidence":
        return Call(path={"memory_id": belief()}, args={"principal": who})
    if name == "build_context":
        return Call(args={"agent": "helper", "principal": who, "query": "market"})
    if name == "memory_write":
        return Call(
            args={
                "agent": "helper",
                "principal": who,
                "category": "likes",
                "statement": f"Likes green tea number {n}",
                "confidence": 0.8,
                "source": "direct",
            }
        )
    if name == "belief_retire":
        return Call(path={"memory_id": belief()}, args={"principal": who})
    if name == "intentions_list":
        return Call(args={"principal": who})
    if name == "intention_done":
        intention = intention_write(
            agent=agent,
            principal_external_id=who,
            action=f"Order rye flour batch {n}",
            due=timezone.now() + timedelta(hours=6),
            source="direct",
        )
        return Call(path={"intention_id": intention.pk}, args={"principal": who})
    if name == "routine_label":
        return Call(
            args={
                "agent": "helper",
                "principal": who,
                "action": f"Bakes bread batch {n}",
                "weekdays": [6],
                "time": "08:00",
            }
        )
    if name == "routine_feedback":
        routine = routine_label(
            agent=agent,
            principal_external_id=who,
            action=f"Walks the dog {n}",
            weekdays=[1, 2, 3],
            time="07:00",
            anchor_date=date(2026, 1, 1),
        )
        return Call(
            path={"routine_id": routine.pk}, args={"principal": who, "feedback": "confirmed"}
        )
    # the person's own document: the person comes from the token; B's rows by id or key
    if name in ("persona_entries_list", "persona_history", "nominations_list"):
        return Call()
    if name == "persona_document_write":
        head = owner.doc_head(world["people"]["A"])
        return Call(
            args={
                "expected_version": head.version,
                "entries": [{"key": e.key, "text": e.text} for e in head.entries],
            }
        )
    if name in ("nomination_affirm", "nomination_decline"):
        return Call(path={"nomination_id": _nomination(agent, who)})
    if name == "persona_entry_reinforce":
        return Call(path={"key": owner.doc_head(person).entries[0].key})
    raise AssertionError(f"no call written for {name}")


def http(client, op, call: Call, raw: str):
    url = op.path
    for key, value in call.path.items():
        url = url.replace("{" + key + "}", str(value))
    headers = bearer(raw)
    if op.method == "GET":
        return client.get(url, {**call.args, **op.query}, **headers)
    return client.generic(
        op.method, url, json.dumps(call.args), content_type="application/json", **headers
    )


def mcp(server, op, call: Call, raw: str):
    args = {MCP_NAME.get(k, k): v for k, v in call.path.items()} | call.args

    async def main() -> Any:
        auth_context_var.set(
            AuthenticatedUser(AccessToken(token=raw, client_id="test", scopes=["host"]))
        )
        async with Client(server) as client:
            return await client.call_tool(op.name, args)

    return anyio.run(main)


def expected(op, caller: str, column: str) -> Any:
    if caller == "noscope":
        return FORBIDDEN
    if caller == "other":
        if op.reach == "document":
            return FORBIDDEN  # not bound to a person
        if op.reach == "tenant" and op.name == "agents_list":
            return OK  # its own agents
        return NOT_FOUND  # A's agent, review, proposal or person is not theirs
    if caller == "wide":
        return FORBIDDEN if op.reach == "document" else OK
    # bound to A
    if op.others_data:
        return FORBIDDEN
    if op.reach in ("person", "document"):
        return OK if column == "A" else NOT_FOUND
    return OK


def columns(op) -> tuple[str, ...]:
    if op.reach == "person":
        return ("A", "B")
    if op.reach == "document" and op.name in (
        "nomination_affirm",
        "nomination_decline",
        "persona_entry_reinforce",
    ):
        return ("A", "B")
    return ("A",)


def test_every_operation_is_on_both_transports(client, world):
    schema = client.get("/v1/openapi.json").json()
    routes = {
        (method.upper(), path): spec["operationId"]
        for path, methods in schema["paths"].items()
        for method, spec in methods.items()
        if path != "/v1/health"
    }
    server = build_server(http_base="http://127.0.0.1:1", timeout=60)

    async def tools() -> Any:
        async with Client(server) as c:
            return await c.list_tools()

    listed = {t.name: t for t in anyio.run(tools).tools}
    names = {op.name for op in OPERATIONS}
    # an operation with a fixed query (prompt_explain: ?explain=1) is a flag of its
    # path's route, which declares that query parameter
    own = [op for op in OPERATIONS if not op.query]
    assert set(routes.values()) == {op.name for op in own}, "a /v1 route that is no operation"
    assert set(listed) == names, "an MCP tool that is no operation, or one missing"
    assert {(op.method, op.path): op.name for op in own} == routes
    for op in OPERATIONS:
        if op.query:
            spec = schema["paths"][op.path][op.method.lower()]
            assert set(op.query) <= {p["name"] for p in spec["parameters"]}, op.name
    for op in OPERATIONS:
        hints = listed[op.name].annotations
        assert hints.read_only_hint is op.read_only and hints.destructive_hint is op.destructive


def test_every_cell_of_the_authorisation_matrix(client, world):
    assert {op.name for op in enabled_operations()} == {op.name for op in OPERATIONS}
    server = build_server(http_base="http://127.0.0.1:1", timeout=60)
    tokens = dict(world["tokens"])
    failures: list[str] = []
    cells = 0
    for op in OPERATIONS:
        lacking = [s for s in SCOPES if s not in op.scopes]
        _, tokens["noscope"] = token_create(
            tenant=world["tenant"],
            name=f"no-{op.name}",
            scopes=",".join(lacking),
            user=world["operator"] if "learning.decide" in lacking else None,
            principal=world["people"]["A"] if set(PERSONA_SCOPES) & set(lacking) else None,
            on_behalf=bool(set(PERSONA_SCOPES) & set(lacking)),
        )
        for caller in ("wide", "bound", "other", "noscope"):
            for column in columns(op):
                want = expected(op, caller, column)
                got_http = http(client, op, call_for(op.name, world, column), tokens[caller])
                got_mcp = mcp(server, op, call_for(op.name, world, column), tokens[caller])
                cells += 1
                where = f"{op.name} as {caller} on {column}'s data"
                status = got_http.status_code
                mcp_text = " ".join(getattr(c, "text", "") for c in got_mcp.content)
                if want == OK:
                    if status in (401, 403, 404) or status >= 500:
                        failures.append(f"{where}: HTTP {status} {got_http.content[:200]!r}")
                    elif got_mcp.is_error and any(w in mcp_text for w in AUTHORISATION_WORDS):
                        failures.append(f"{where}: HTTP {status} but MCP refused: {mcp_text}")
                    continue
                if status != want:
                    failures.append(f"{where}: HTTP {status}, expected {want}")
                    continue
                message = got_http.json()["error"]["message"]
                if not got_mcp.is_error or message not in mcp_text:
                    failures.append(f"{where}: MCP said {mcp_text!r}, HTTP said {message!r}")
    assert not failures, "\n".join(failures)
    assert cells > 100
