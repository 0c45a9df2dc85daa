"""``manage.py persona mute|unmute|redact``: a learned line or a document entry muted for
one person and taken back, persona words redacted, from the command line by a named
login through the services the pages call; an unknown name or id, a login who may not and
a refused write are one sentence, exit 2, nothing changed."""

from __future__ import annotations

import pytest

from memory.models import Redaction
from memory.redaction import REDACTED
from persona import owner
from persona.models import AgentPersonaVersion, Mute
from persona.services import ChangeTrigger, persona_version_create
from tests.builders import (
    LEARNED_SENTENCE,
    TYPED_GOAL,
    command_out,
    command_refused,
)
from tests.factories import make_owner, make_user

pytestmark = pytest.mark.django_db

REASON = "These words name a private person; removed on request."
ENTRY = "Has a twin brother called Tom."


def persona(*args: str) -> str:
    return command_out("persona", *args)


def refused(*args: str) -> str:
    return command_refused("persona", *args)


def mute_line(by: str) -> list[str]:
    return ["mute", "line", "helper", "--principal", "ana", "--section", "goals",
            "--text", LEARNED_SENTENCE, "--by", by]  # fmt: skip


def entry_key(person) -> str:
    owner.owner_doc_write(principal=person, expected_version=0, entries=[{"text": ENTRY}])
    return owner.doc_head(person.pk).entries[0].key


def test_an_operator_mutes_a_learned_line_for_one_person_and_takes_it_back(learned, ana, operator):
    said = persona(*mute_line(operator.username), "--reason", "not for her")
    mute = Mute.objects.get()
    assert f"(mute {mute.pk})" in said and f"persona unmute {mute.pk}" in said
    assert (mute.principal, mute.section, mute.muted_by, mute.reason) == (
        ana,
        "goals",
        "olivia",
        "not for her",
    )
    assert "taken back" in persona("unmute", str(mute.pk), "--by", operator.username)
    mute.refresh_from_db()
    assert mute.unmuted_by == "olivia" and mute.unmuted_at is not None


def test_the_person_mutes_an_entry_of_their_own_document(agent, ana):
    key = entry_key(ana)
    login = make_owner(ana)
    args = ["--tenant", "acme", "--principal", "ana", "--key", key]
    assert "Muted this entry" in persona("mute", "entry", *args, "--by", login.username)
    assert Mute.objects.active().filter(kind=Mute.Kind.ENTRY, entry_key=key).exists()
    assert "muted already" in refused("mute", "entry", *args, "--by", login.username)


def test_a_reviewer_may_not_mute_and_nothing_changes(learned, ana, reviewer):
    assert refused(*mute_line(reviewer.username)).startswith("Only the person themself")
    assert not Mute.objects.exists()


def test_unknown_names_ids_and_lines_are_one_sentence(learned, ana, operator, other_tenant):
    assert refused("unmute", "4242", "--by", operator.username) == "No such mute here."
    assert refused(*mute_line("nobody")).startswith("No login is called 'nobody'")
    args = mute_line(operator.username)
    args[args.index("ana")] = "zed"
    assert refused(*args).startswith("No person 'zed' in the tenant of agent 'helper'")
    args = mute_line(operator.username)
    args[args.index(LEARNED_SENTENCE)] = TYPED_GOAL
    assert "not a learned line" in refused(*args)
    make_user("otto", role="operator", tenants=[other_tenant])
    assert refused(*mute_line("otto")) == "No person with that id here."
    assert refused(
        "mute", "entry", "--tenant", "acme", "--principal", "ana", "--key", "nope",
        "--by", operator.username,
    ).startswith("No entry 'nope' in the persona document of 'ana'")  # fmt: skip
    assert not Mute.objects.exists()


def test_a_superuser_redacts_a_passage_of_every_version(agent):
    make_user("root", superuser=True)
    passage = "Mention the lighthouse keeper's schedule."
    persona_version_create(
        agent=agent,
        changes={"goals": f"Help with bakery orders. {passage}"},
        trigger=ChangeTrigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    said = persona(
        "redact", "version", "helper", "2", "--passage", passage, "--by", "root", "--reason", REASON
    )
    assert said.startswith("Redacted from v2;")
    head = AgentPersonaVersion.objects.get(agent=agent, version=2)
    assert head.goals == f"Help with bakery orders. {REDACTED}"
    assert Redaction.objects.get().redacted_by == "root"


def test_a_superuser_redacts_an_entry_and_an_operator_may_not(agent, ana, operator):
    key = entry_key(ana)
    args = ["redact", "entry", "--tenant", "acme", "--principal", "ana", "--key", key]
    assert refused(*args, "--by", operator.username, "--reason", REASON).startswith(
        "Only a superuser may redact text"
    )
    make_user("root", superuser=True)
    assert "Say why" in refused(*args, "--by", "root", "--reason", "short")
    assert not Redaction.objects.exists()
    assert persona(*args, "--by", "root", "--reason", REASON).startswith(
        "Redacted from 1 document version(s)"
    )
    assert owner.doc_head(ana.pk).entries[0].text == REDACTED


def test_a_missing_version_is_one_sentence(agent):
    make_user("root", superuser=True)
    assert (
        refused(
            "redact",
            "version",
            "helper",
            "9",
            "--passage",
            "abc",
            "--by",
            "root",
            "--reason",
            REASON,
        )
        == "Agent 'helper' has no version 9; `persona history` lists them."
    )
