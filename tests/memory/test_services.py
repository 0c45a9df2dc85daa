from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from learning.models import LearningSettings
from memory.models import Conversation, Message, Principal
from memory.services import MAX_MESSAGE_CHARS, MemoryInputError, record_turn

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def test_record_turn_creates_principal_and_conversation(agent):
    result = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="c-1",
        user_text="Please draft the weekly report.",
        assistant_text="Here is the draft.",
        at=T0,
    )

    principal = Principal.objects.get(tenant=agent.tenant, external_id="ana")
    conv = Conversation.objects.get(agent=agent, external_id="c-1")
    assert result.created_conversation is True
    assert result.conversation == conv
    assert conv.principal == principal
    assert conv.message_count == 2
    assert conv.started_at == T0
    rows = list(conv.messages.values_list("seq", "role", "text"))
    assert rows == [
        (1, "user", "Please draft the weekly report."),
        (2, "assistant", "Here is the draft."),
    ]


def test_record_turn_continues_seq_in_order(agent):
    record_turn(
        agent=agent, principal_external_id="ana", conversation="c-1", user_text="one", at=T0
    )
    second = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="c-1",
        user_text="two",
        assistant_text="three",
        at=T0 + timedelta(minutes=5),
    )

    assert second.created_conversation is False
    conv = Conversation.objects.get(agent=agent, external_id="c-1")
    assert list(conv.messages.order_by("seq").values_list("seq", "text")) == [
        (1, "one"),
        (2, "two"),
        (3, "three"),
    ]
    assert conv.message_count == 3
    assert conv.last_message_at == T0 + timedelta(minutes=5)
    assert Principal.objects.filter(external_id="ana").count() == 1


def test_record_turn_refuses_conversation_of_another_person(agent):
    record_turn(
        agent=agent, principal_external_id="ana", conversation="c-1", user_text="hello", at=T0
    )

    with pytest.raises(MemoryInputError, match="belongs to another person"):
        record_turn(
            agent=agent, principal_external_id="bo", conversation="c-1", user_text="hi", at=T0
        )

    assert Message.objects.count() == 1


@pytest.mark.parametrize(
    ("user_text", "assistant_text", "match"),
    [
        ("", None, "user text is empty"),
        ("   \n", None, "user text is empty"),
        ("x" * (MAX_MESSAGE_CHARS + 1), None, "the limit is"),
        ("fine", "", "assistant text is empty"),
        ("fine", "y" * (MAX_MESSAGE_CHARS + 1), "the limit is"),
    ],
)
def test_record_turn_refuses_empty_or_oversized_text(agent, user_text, assistant_text, match):
    with pytest.raises(MemoryInputError, match=match):
        record_turn(
            agent=agent,
            principal_external_id="ana",
            conversation="c-1",
            user_text=user_text,
            assistant_text=assistant_text,
            at=T0,
        )
    assert not Conversation.objects.exists()
    assert not Message.objects.exists()


def test_record_turn_refuses_naive_time(agent):
    with pytest.raises(MemoryInputError, match="no time zone"):
        record_turn(
            agent=agent,
            principal_external_id="ana",
            conversation="c-1",
            user_text="hi",
            at=datetime(2026, 11, 2, 9),
        )
    assert not Message.objects.exists()


def test_record_turn_counts_turns_towards_learning(agent):
    settings, _ = LearningSettings.objects.get_or_create(agent=agent)
    settings.mode = "on"
    settings.every_n_turns = 2
    settings.save()

    record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="c-1",
        user_text="one",
        assistant_text="r",
        at=T0,
    )
    settings.refresh_from_db()
    assert settings.turns_since_review == 1
    assert settings.due_at is None

    record_turn(
        agent=agent, principal_external_id="ana", conversation="c-1", user_text="two", at=T0
    )
    settings.refresh_from_db()
    assert settings.turns_since_review == 2
    assert settings.due_at is not None


def test_record_turn_schedules_embedding_after_commit(
    agent, django_capture_on_commit_callbacks, monkeypatch
):
    import memory.tasks

    calls = []
    monkeypatch.setattr(memory.tasks, "schedule_embedding", lambda: calls.append(1))
    with django_capture_on_commit_callbacks(execute=True):
        record_turn(
            agent=agent, principal_external_id="ana", conversation="c-1", user_text="hi", at=T0
        )
    assert calls == [1]


def test_record_turn_never_unseals_a_conversation(agent):
    """Sealing is one way: only sealed=True changes the flag (issue 9, finding 6)."""
    record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="c-1",
        user_text="private",
        sealed=True,
    )
    for sealed in (False, None):
        result = record_turn(
            agent=agent,
            principal_external_id="ana",
            conversation="c-1",
            user_text="still private",
            sealed=sealed,
        )
        assert result.conversation.sealed is True
        assert Conversation.objects.get(agent=agent, external_id="c-1").sealed is True


def test_record_turn_seals_an_open_conversation_with_sealed_true(agent):
    record_turn(agent=agent, principal_external_id="ana", conversation="c-1", user_text="hello")
    record_turn(
        agent=agent, principal_external_id="ana", conversation="c-1", user_text="now", sealed=True
    )
    assert Conversation.objects.get(agent=agent, external_id="c-1").sealed is True


@pytest.mark.parametrize(
    "at",
    [
        datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone(timedelta(hours=-14))),
        datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))),
        datetime(1899, 12, 31, tzinfo=UTC),
    ],
)
def test_record_turn_refuses_a_time_outside_the_years_kept(agent, at):
    with pytest.raises(MemoryInputError, match="outside the years 1900 to 2200"):
        record_turn(
            agent=agent, principal_external_id="ana", conversation="c-1", user_text="hi", at=at
        )
    assert not Conversation.objects.exists()


@pytest.mark.parametrize("text", [7, 2.5, ["hi"], {"a": 1}, None, True])
def test_record_turn_says_text_that_is_not_a_string_must_be_text(agent, text):
    with pytest.raises(MemoryInputError, match="must be text") as exc:
        record_turn(agent=agent, principal_external_id="ana", conversation="c-1", user_text=text)
    assert "empty" not in str(exc.value)
