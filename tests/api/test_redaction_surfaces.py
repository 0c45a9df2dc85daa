"""Issue 26's acceptance for redaction and muting: a redacted item (a message, a belief,
an owner-document entry, words of a persona version) never appears on any page, in any
prefix, context pack, export, /v1 answer, MCP answer or stored row; a muted belief in
none of what a host or an export reads. Every surface is read before (each word is
there) and after (none is)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import TestCase
from django.urls import reverse
from mcp import Client

from api.mcp_server import build_server
from api.models import ApiToken
from api.selectors import context_pack
from memory.redaction import belief_redact, message_redact
from memory.services_beliefs import belief_mute
from persona.models import AgentPersonaVersion
from persona.owner import doc_head, owner_doc_write
from persona.plans import plan_build, plan_get_or_rotate, prefix_fetch
from persona.redaction import owner_entry_redact, persona_version_redact
from persona.services import ChangeTrigger, persona_version_create
from tenancy.access import actor_for_user
from tests.api.conftest import bearer
from tests.builders import add_belief, add_proposal, add_review, person_said
from tests.factories import make_user

#: one word per item, found nowhere else
MESSAGE = "Zanzibarite"
BELIEF = "Quokkaberry"
ENTRY = "Marzipanova"
PASSAGE_WORD = "Thistlewick"
MUTED = "Fernwhistle"
REDACTED_WORDS = (MESSAGE, BELIEF, ENTRY, PASSAGE_WORD)
PASSAGE = f"Greet regulars with the {PASSAGE_WORD} rhyme."
REASON = "Removed on the person's request, by policy."
#: a question about every item (never naming a word: a pack repeats its question)
QUESTION = "What about the harbour lamp, the balcony vines, the stage name and the choir?"


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    cache.clear()


def build_world(agent) -> dict[str, Any]:
    """One person's memory holding each word, a persona with the passage, a pinned
    plan, proposals quoting them and a health-check run that saw them."""
    said = person_said(agent, f"My cousin keeps the {MESSAGE} lamp by the harbour.")
    ana = said.conversation.principal
    lamp = add_belief(
        agent,
        "Has a cousin who keeps a lamp by the harbour.",
        category="interpersonal",
        quote_from=said,
        quote=f"keeps the {MESSAGE} lamp",
    )
    vines = add_belief(agent, f"Grows {BELIEF} vines on the balcony.")
    muted = add_belief(agent, f"Once sang in the {MUTED} choir.", category="interpersonal")
    owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": f"{ENTRY} is my stage name."}, {"text": "Prefers short answers."}],
        written_by="ana",
    )
    persona_version_create(
        agent=agent,
        changes={"goals": f"Help with bakery orders. {PASSAGE}"},
        trigger=ChangeTrigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    quote = f"the {MESSAGE} lamp"
    start = said.text.index(quote)
    item = {
        "quote": quote,
        "message_id": said.pk,
        "conversation_id": said.conversation_id,
        "conversation_label": said.conversation.external_id,
        "principal_external_id": "ana",
        "start": start,
        "end": start + len(quote),
    }
    add_proposal(agent, text="Mention harbour lamps when asked about the coast.", evidence=[item])
    # a version whose evidence quotes the message (the timeline shows its quotes)
    persona_version_create(
        agent=agent,
        changes={"background": "Knows the harbour well."},
        trigger=ChangeTrigger(
            source_type="persona_learning", reason="learned", evidence=[item], approved_by="o"
        ),
    )
    add_proposal(agent, kind="rule", text=f"Always: {PASSAGE}")
    add_review(agent, passed_over=[{"kind": "sentence", "text": PASSAGE, "reason": "in_persona"}])
    agent.refresh_from_db()
    plan_get_or_rotate(agent=agent, principal=ana, session_key="s1")
    call_command("memory", "audit", stdout=io.StringIO())
    return {
        "said": said,
        "ana": ana,
        "beliefs": [lamp, vines, muted],
        "vines": vines,
        "muted": muted,
        "version": AgentPersonaVersion.objects.get(agent=agent, version=agent.persona_version),
    }


def redact_all(world: dict[str, Any]) -> None:
    # what each commit publishes (the pinned prefixes' cache entries) runs, as in a
    # request that commits
    with TestCase.captureOnCommitCallbacks(execute=True):
        _redact_all(world)


def _redact_all(world: dict[str, Any]) -> None:
    root = actor_for_user(make_user("root", superuser=True))
    message_redact(actor=root, message=world["said"], reason=REASON)
    belief_redact(actor=root, belief=world["vines"], reason=REASON)
    entry = next(e for e in doc_head(world["ana"].pk).entries if ENTRY in e.text)
    owner_entry_redact(actor=root, entry=entry, reason=REASON)
    persona_version_redact(actor=root, version=world["version"], passage=PASSAGE, reason=REASON)
    belief_mute(belief=world["muted"], by="olivia", reason="Ana asked")


def assert_walk(read, *, words: tuple[str, ...], world, agent) -> None:
    """Every word is in what ``read`` returns before, and none after."""
    before = read(world, agent)
    missing = [w for w in words if w not in before]
    assert not missing, f"the walk never saw {missing}: it proves nothing for them"
    redact_all(world)
    after = read(world, agent)
    leaked = [w for w in words if w in after]
    assert not leaked, f"{leaked} still shown"


# --- /v1 ------------------------------------------------------------------------------


@pytest.fixture
def tokens(persona_on, make_token, agent):
    _, host = make_token(name="host", scopes="host,memory.read,learning.read")
    return {"host": bearer(host)}


def _v1(client, tokens, make_token, world, agent) -> str:
    host = tokens["host"]
    paths = [
        "/v1/agents",
        "/v1/agents/helper",
        "/v1/agents/helper/prefix?principal=ana&session=s1",
        "/v1/agents/helper/prefix?principal=ana&session=fresh",
        "/v1/agents/helper/learning",
        "/v1/agents/helper/reviews",
        "/v1/memories?principal=ana&status=all",
        "/v1/memories?principal=ana",
        f"/v1/memories?principal=ana&status=all&text={BELIEF}",
        f"/v1/context?principal=ana&query={QUESTION}",
        "/v1/intentions?principal=ana",
    ]
    paths += [f"/v1/memories/{b.pk}?principal=ana" for b in world["beliefs"]]
    out = []
    for path in paths:
        r = client.get(path, **host)
        assert r.status_code in (200, 404), (path, r.content)
        out.append(r.content.decode())
    _, own = make_token(
        name=f"ana-{ApiToken.objects.count()}",
        scopes="persona.read,persona.write",
        principal=world["ana"],
        on_behalf=True,
    )
    for path in ("/v1/persona", "/v1/persona/history", "/v1/persona/nominations"):
        r = client.get(path, **bearer(own))
        assert r.status_code == 200, (path, r.content)
        out.append(r.content.decode())
    return "\n".join(out)


def test_no_v1_answer_holds_a_redacted_or_muted_word(client, agent, tokens, make_token):
    world = build_world(agent)
    assert_walk(
        lambda w, a: _v1(client, tokens, make_token, w, a),
        words=(*REDACTED_WORDS, MUTED),
        world=world,
        agent=agent,
    )


# --- prefix, context pack, exports ----------------------------------------------------


def _host_reads(world, agent) -> str:
    ana = world["ana"]
    out = [
        prefix_fetch(agent_id=agent.pk, principal_id=ana.pk, session_key="s1").prefix_text,
        prefix_fetch(
            agent_id=agent.pk, principal_id=ana.pk, session_key="s1", use_cache=False
        ).prefix_text,
    ]
    plan = plan_get_or_rotate(agent=agent, principal=ana, session_key="s1")
    out += [plan.prefix_text, plan_build(plan)]
    pack = context_pack(
        agent=agent, tenant_id=agent.tenant_id, principal="ana", query=QUESTION, now=None, limit=50
    )
    out.append(json.dumps(pack))
    return "\n".join(out)


def test_no_prefix_or_context_pack_holds_a_redacted_or_muted_word(agent):
    world = build_world(agent)
    assert_walk(_host_reads, words=(*REDACTED_WORDS, MUTED), world=world, agent=agent)


def _exports(world, agent, tmp: Path) -> str:
    out = []
    commands = [
        ("persona", "show", "helper"),
        ("persona", "history", "helper"),
        ("memory", "beliefs", "list", "helper", "--principal", "ana", "--json", "--all"),
        ("memory", "context", "helper", "--principal", "ana", "--query", QUESTION, "--json"),
        ("persona", "doc", "show", "--tenant", agent.tenant.slug, "--principal", "ana", "--json"),
        ("persona", "doc", "history", "--tenant", agent.tenant.slug, "--principal", "ana"),
        ("learning", "status", "helper", "--json"),
        ("memory", "audit", "--json", "--dry-run"),
    ]
    for command in commands:
        buffer = io.StringIO()
        call_command(*command, stdout=buffer, stderr=io.StringIO())
        out.append(buffer.getvalue())
    folder = tmp / f"hermes-{len(list(tmp.iterdir()))}"
    call_command(
        "persona", "export", "helper", "--principal", "ana", "--out", str(folder),
        stdout=io.StringIO(),
    )  # fmt: skip
    out += [p.read_text() for p in sorted(folder.iterdir())]
    return "\n".join(out)


def test_no_export_holds_a_redacted_or_muted_word(agent, tmp_path):
    world = build_world(agent)
    # the exports read the person's beliefs, the persona and its history, the owner
    # document: every word has one of them
    assert_walk(
        lambda w, a: _exports(w, a, tmp_path),
        words=(BELIEF, ENTRY, PASSAGE_WORD, MUTED),
        world=world,
        agent=agent,
    )


def test_no_stored_row_holds_a_redacted_word(agent):
    """The strongest check: the words are gone from the database itself (copies,
    quotes, caches, plans, proposals, health-check findings), not only hidden."""

    def dump(world, agent) -> str:
        buffer = io.StringIO()
        call_command("dumpdata", "memory", "persona", "learning", "tenancy", stdout=buffer)
        return json.dumps(json.loads(buffer.getvalue()), ensure_ascii=False)

    world = build_world(agent)
    assert_walk(dump, words=REDACTED_WORDS, world=world, agent=agent)


# --- pages ----------------------------------------------------------------------------


def _pages(client, world, agent) -> str:
    said = world["said"]
    urls = [
        reverse("memory:person", args=[world["ana"].pk]) + "?show=all",
        reverse("memory:conversation", args=[said.conversation_id]),
        reverse("memory:conversations"),
        reverse("memory:people"),
        reverse("memory:health"),
        reverse("persona:agent", args=[agent.slug]),
        reverse("persona:evolution"),
        reverse("persona:version_redact", args=[agent.slug, world["version"].version]),
        reverse("learning:queue"),
        reverse("learning:log"),
    ]
    out = []
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, (url, r.status_code)
        out.append(r.content.decode())
    return "\n".join(out)


def test_no_page_shows_a_redacted_word(client, agent):
    client.force_login(make_user("boss", superuser=True))
    world = build_world(agent)
    assert_walk(lambda w, a: _pages(client, w, a), words=REDACTED_WORDS, world=world, agent=agent)


# --- MCP ------------------------------------------------------------------------------


def _mcp(world, agent) -> str:
    server = build_server(agent_slug=agent.slug, principal="ana", timeout=60)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("persona_read", {"slug": agent.slug}),
        ("prompt_prefix", {"slug": agent.slug, "principal": "ana", "session": "s1"}),
        ("beliefs_search", {"principal": "ana", "status": "all"}),
        ("build_context", {"principal": "ana", "query": QUESTION}),
        ("intentions_list", {"principal": "ana"}),
        ("persona_entries_list", {}),
        ("persona_history", {}),
        ("nominations_list", {}),
    ]
    calls += [
        ("belief_evidence", {"memory_id": b.pk, "principal": "ana"}) for b in world["beliefs"]
    ]

    async def main() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    results = anyio.run(main)
    out = []
    for (name, _), result in zip(calls, results, strict=True):
        text = " ".join(getattr(c, "text", "") for c in result.content)
        if name != "belief_evidence":
            assert not result.is_error, (name, text)
        out.append(text)
    return "\n".join(out)


@pytest.mark.django_db(transaction=True)
def test_no_mcp_answer_holds_a_redacted_or_muted_word(persona_on, agent, settings):
    settings.PERSONA_INJECTION_SEMANTIC = False
    world = build_world(agent)
    assert_walk(_mcp, words=(*REDACTED_WORDS, MUTED), world=world, agent=agent)
