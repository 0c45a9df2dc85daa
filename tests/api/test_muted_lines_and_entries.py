""" "Don't mention this again" for a learned persona line and an owner entry: muted for
ana, the words reach no host of hers through any surface (the prefix, hot and cold, the
persona read of a token bound to her, her document's routes, the context pack, MCP, the
Hermes export), while ben, another person, is still given the line."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from mcp import Client

from api.mcp_server import build_server
from api.selectors import context_pack
from api.services import token_create
from memory.models import Principal
from persona import owner
from persona.hermes import export_files
from persona.mutes import entry_mute, line_mute, mute_undo
from personaweb.actors import Actor
from tests.api.conftest import bearer
from tests.builders import LEARNED_RULE, LEARNED_SENTENCE, add_learned_lines
from tests.factories import make_owner

SYSTEM = Actor.system("test")
ENTRY = "Has a twin brother called Tom."
#: a word of each muted text that no other text of the persona or document holds
WORDS = ("wholesale", "weekday", "twin brother")


@pytest.fixture(autouse=True)
def no_vectors(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def people(tenant):
    return {
        name: Principal.objects.create(tenant=tenant, external_id=name) for name in ("ana", "ben")
    }


@pytest.fixture
def learned(agent, people):
    add_learned_lines(agent)
    agent.refresh_from_db()
    for person in people.values():
        owner.owner_doc_write(
            principal=person, expected_version=0, entries=[{"text": "Likes rye."}, {"text": ENTRY}]
        )
    return agent


def _token(person, scopes: str) -> dict[str, str]:
    _, raw = token_create(
        tenant=person.tenant,
        name=f"{person.external_id}-app",
        scopes=scopes,
        principal=person,
        creator=make_owner(person),
    )
    return bearer(raw)


def _mute_all_for(agent, person) -> list:
    key = owner.doc_head(person.pk).entries[-1].key
    return [
        line_mute(
            actor=SYSTEM, agent=agent, principal=person, section="goals", text=LEARNED_SENTENCE
        ),
        line_mute(
            actor=SYSTEM, agent=agent, principal=person, section="standing_rules", text=LEARNED_RULE
        ),
        entry_mute(actor=SYSTEM, principal=person, key=key, reason="private"),
    ]


def _surfaces(client, agent, person, token, tmp: Path) -> str:
    """Everything a host of ``person`` can read, as one text."""
    answers = []
    for _ in range(2):  # the full path, then the hot path
        r = client.get(
            f"/v1/agents/helper/prefix?principal={person.external_id}&session=s", **token
        )
        assert r.status_code == 200, r.content
        answers.append(r.content.decode())
    for url in ("/v1/agents/helper", "/v1/persona", "/v1/persona/history"):
        r = client.get(url, **token)
        assert r.status_code == 200, (url, r.content)
        answers.append(r.content.decode())
    pack = context_pack(
        agent=agent,
        tenant_id=agent.tenant_id,
        principal=person.external_id,
        query="What should I know about the family?",
        now=None,
        limit=20,
    )
    answers.append(json.dumps(pack))
    out = tmp / person.external_id
    export_files(agent=agent, out_dir=out, principal=person)
    answers += [(out / name).read_text() for name in ("MEMORY.md", "USER.md")]
    return "\n".join(answers)


def test_muted_lines_and_entries_reach_no_host_of_the_person_and_others_keep_them(
    client, persona_on, learned, people, tmp_path
):
    ana, ben = people["ana"], people["ben"]
    tokens = {p: _token(p, "host,memory.read,persona.read,persona.write") for p in (ana, ben)}
    before = _surfaces(client, learned, ana, tokens[ana], tmp_path)
    assert all(w in before for w in WORDS)

    mutes = _mute_all_for(learned, ana)
    after = _surfaces(client, learned, ana, tokens[ana], tmp_path)
    assert [w for w in WORDS if w in after] == []
    assert "Likes rye." in after and "Help the owner run the bakery." in after
    theirs = _surfaces(client, learned, ben, tokens[ben], tmp_path)
    assert all(w in theirs for w in WORDS)

    for mute in mutes:
        mute_undo(actor=SYSTEM, mute=mute)
    assert all(w in _surfaces(client, learned, ana, tokens[ana], tmp_path) for w in WORDS)


def test_a_hosts_document_write_keeps_the_muted_entry_it_never_saw(
    client, persona_on, learned, people
):
    ana = people["ana"]
    token = _token(ana, "persona.read,persona.write")
    _mute_all_for(learned, ana)
    doc = client.get("/v1/persona", **token).json()
    assert [e["text"] for e in doc["entries"]] == ["Likes rye."]
    body = {"expected_version": doc["version"], "entries": [{"text": "Likes spelt."}]}
    r = client.put("/v1/persona", json.dumps(body), content_type="application/json", **token)
    assert r.status_code == 200, r.content
    assert [e["text"] for e in r.json()["entries"]] == ["Likes spelt."]
    assert [e.text for e in owner.doc_head(ana.pk).entries] == ["Likes spelt.", ENTRY]
    muted_key = owner.doc_head(ana.pk).entries[1].key
    r = client.post(f"/v1/persona/entries/{muted_key}/reinforce", **token)
    assert r.status_code == 404, r.content


@pytest.mark.django_db(transaction=True)
def test_the_mcp_tools_of_the_person_leave_out_what_they_muted(tenant, agent):
    ana = Principal.objects.create(tenant=tenant, external_id="ana")
    add_learned_lines(agent)
    agent.refresh_from_db()
    owner.owner_doc_write(principal=ana, expected_version=0, entries=[{"text": ENTRY}])
    _mute_all_for(agent, ana)
    server = build_server(agent_slug=agent.slug, principal="ana", timeout=60)

    async def main() -> list:
        async with Client(server) as client:
            return [
                await client.call_tool("prompt_prefix", {"session": "s"}),
                await client.call_tool("persona_read", {}),
            ]

    results = anyio.run(main)
    text = " ".join(getattr(c, "text", "") for r in results for c in r.content)
    assert "Help the owner run the bakery." in text
    assert [w for w in WORDS if w in text] == []
