from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from learning.models import LearningSettings
from memory.models import Conversation, Message, Principal
from memory.services import record_turn
from tenancy.models import Agent, Tenant


def write_jsonl(path: Path, rows: list[dict | str]) -> Path:
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def msg(
    conversation: str,
    role: str,
    text: str,
    at: str,
    *,
    user: str = "ana",
    agent: str = "desk",
    **extra,
):
    return {
        "agent": agent,
        "user": user,
        "conversation": conversation,
        "role": role,
        "text": text,
        "at": at,
        **extra,
    }


ROWS = [
    # deliberately out of time order inside c-1: seq must follow time, not file order
    msg("c-1", "assistant", "Here is the summary of the invoices.", "2026-11-02T09:00:05+00:00"),
    msg("c-1", "user", "Summarise this month's invoices.", "2026-11-02T09:00:00Z"),
    msg("c-1", "user", "Thanks, now the open ones only.", "2026-11-02T10:00:10+01:00"),
    msg("c-2", "user", "Book the meeting room for Friday.", "2026-11-03T08:00:00Z", user="bo"),
    msg(
        "c-3",
        "user",
        "Private: my medical appointment.",
        "2026-11-04T08:00:00Z",
        user="bo",
        sealed=True,
    ),
    msg("c-3", "assistant", "Noted.", "2026-11-04T08:00:01Z", user="bo"),
]


def run_import(path: Path, *args: str) -> None:
    call_command("memory", "import", str(path), *args, verbosity=0)


def test_import_creates_everything(db, tmp_path):
    run_import(write_jsonl(tmp_path / "m.jsonl", ROWS))

    agent = Agent.objects.get(slug="desk")
    assert agent.tenant.slug == "default"
    assert agent.persona_version == 1  # made through agent_create
    assert set(Principal.objects.values_list("external_id", flat=True)) == {"ana", "bo"}
    c1 = Conversation.objects.get(agent=agent, external_id="c-1")
    assert list(c1.messages.order_by("seq").values_list("seq", "role", "text")) == [
        (1, "user", "Summarise this month's invoices."),
        (2, "assistant", "Here is the summary of the invoices."),
        (3, "user", "Thanks, now the open ones only."),
    ]
    assert c1.message_count == 3
    assert c1.started_at.isoformat() == "2026-11-02T09:00:00+00:00"
    assert c1.last_message_at.isoformat() == "2026-11-02T09:00:10+00:00"  # 10:00:10+01:00
    assert c1.principal.external_id == "ana"
    assert Conversation.objects.get(external_id="c-2").principal.external_id == "bo"
    assert Message.objects.count() == 6
    assert Message.objects.filter(embedding__isnull=True).count() == 6


def test_import_is_idempotent(db, tmp_path, capsys):
    path = write_jsonl(tmp_path / "m.jsonl", ROWS)
    run_import(path)
    before = list(
        Message.objects.order_by("id").values_list("id", "conversation_id", "seq", "dedupe_key")
    )
    counts = dict(Conversation.objects.values_list("external_id", "message_count"))

    call_command("memory", "import", str(path), verbosity=0)

    assert (
        list(
            Message.objects.order_by("id").values_list("id", "conversation_id", "seq", "dedupe_key")
        )
        == before
    )
    assert dict(Conversation.objects.values_list("external_id", "message_count")) == counts
    assert Agent.objects.count() == 1
    assert Principal.objects.count() == 2
    assert "Imported 0 messages" in capsys.readouterr().out


def test_import_appends_after_existing_messages(agent, tmp_path):
    record_turn(
        agent=agent, principal_external_id="ana", conversation="c-1", user_text="earlier question"
    )
    run_import(
        write_jsonl(
            tmp_path / "m.jsonl",
            [msg("c-1", "user", "a later line", "2026-11-02T09:00:00Z", agent=agent.slug)],
        )
    )
    conv = Conversation.objects.get(agent=agent, external_id="c-1")
    assert list(conv.messages.order_by("seq").values_list("seq", "text")) == [
        (1, "earlier question"),
        (2, "a later line"),
    ]
    assert conv.message_count == 2
    assert (
        Tenant.objects.filter(slug="default").exists() is False
    )  # existing agent keeps its tenant


def test_import_skips_repeated_lines_in_one_file(db, tmp_path):
    run_import(write_jsonl(tmp_path / "m.jsonl", [ROWS[1], ROWS[1], ROWS[0]]))
    assert Message.objects.count() == 2


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "one JSON object"),
        (json.dumps({k: v for k, v in ROWS[0].items() if k != "text"}), "missing 'text'"),
        (json.dumps({**ROWS[0], "role": "bot"}), "the role 'bot' is not one of"),
        (json.dumps({**ROWS[0], "text": "  "}), "text is empty"),
        (json.dumps({**ROWS[0], "at": "2026-11-02T09:00:00"}), "no time zone"),
        (json.dumps({**ROWS[0], "at": "yesterday"}), "not an ISO-8601 time"),
        (json.dumps({**ROWS[0], "user": "u" * 201}), "the limit is 200"),
        (json.dumps({**ROWS[0], "sealed": "yes"}), '"sealed" must be true or false'),
        (
            json.dumps({**ROWS[0], "user": "someone-else", "conversation": "c-1"}),
            "belongs to user 'ana' (line 1)",
        ),
    ],
)
def test_bad_line_names_the_line_and_imports_nothing(db, tmp_path, bad, expected):
    path = write_jsonl(tmp_path / "m.jsonl", [ROWS[1], ROWS[2], "", bad, ROWS[3]])

    with pytest.raises(CommandError) as excinfo:
        run_import(path)

    assert excinfo.value.returncode == 2
    assert "line 4:" in str(excinfo.value)
    assert expected in str(excinfo.value)
    assert "Nothing was imported" in str(excinfo.value)
    assert not Message.objects.exists()
    assert not Agent.objects.exists()
    assert not Conversation.objects.exists()


def test_conflict_found_while_writing_rolls_everything_back(agent, tmp_path):
    record_turn(agent=agent, principal_external_id="ana", conversation="c-9", user_text="mine")
    rows = [
        msg("c-new", "user", "a new conversation", "2026-11-02T09:00:00Z", agent="other-agent"),
        msg("c-9", "user", "not yours", "2026-11-02T09:00:00Z", user="bo", agent=agent.slug),
    ]
    with pytest.raises(
        CommandError, match="line 2: conversation 'c-9' .* already belongs to another user"
    ):
        run_import(write_jsonl(tmp_path / "m.jsonl", rows))

    assert Message.objects.count() == 1
    assert not Agent.objects.filter(slug="other-agent").exists()
    assert not Principal.objects.filter(external_id="bo").exists()


def test_sealed_flag_seals_the_conversation(db, tmp_path):
    run_import(write_jsonl(tmp_path / "m.jsonl", ROWS))
    sealed = dict(Conversation.objects.values_list("external_id", "sealed"))
    assert sealed == {"c-1": False, "c-2": False, "c-3": True}

    # a later file can seal a conversation that exists already
    run_import(
        write_jsonl(
            tmp_path / "n.jsonl",
            [msg("c-1", "user", "seal it", "2026-11-05T08:00:00Z", sealed=True)],
        )
    )
    assert Conversation.objects.get(external_id="c-1").sealed is True


def test_import_counts_user_turns_once_per_agent(agent, tmp_path):
    LearningSettings.objects.get_or_create(agent=agent)
    rows = [
        msg("c-1", "user", f"question number {i}", f"2026-11-02T09:0{i}:00Z", agent=agent.slug)
        for i in range(5)
    ] + [msg("c-1", "assistant", "an answer", "2026-11-02T09:09:00Z", agent=agent.slug)]
    run_import(write_jsonl(tmp_path / "m.jsonl", rows))
    assert LearningSettings.objects.get(agent=agent).turns_since_review == 5

    run_import(write_jsonl(tmp_path / "m.jsonl", rows))  # nothing new, nothing counted
    assert LearningSettings.objects.get(agent=agent).turns_since_review == 5


def test_import_query_count_does_not_grow_with_messages(
    db, tmp_path, django_assert_max_num_queries
):
    rows = [
        msg(
            f"c-{i % 7}",
            "user" if i % 2 else "assistant",
            f"line {i} about the quarterly plan",
            f"2026-11-02T09:{i // 60:02d}:{i % 60:02d}Z",
            user=f"u{i % 7}",
        )
        for i in range(600)
    ]
    path = write_jsonl(tmp_path / "m.jsonl", rows)
    # agent_create (its first version counted in the persona change counts, its checked
    # text's scan verdict recorded: savepoint, insert, release), tenant, principals,
    # conversations, 3 message batches, counters: ~37 on SQLite
    with django_assert_max_num_queries(40):
        run_import(path, "--batch", "250")
    assert Message.objects.count() == 600
