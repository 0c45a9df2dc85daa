from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from learning.models import LearningSettings
from learning.services import LearningInputError, learning_settings_get, learning_settings_update

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("people")]


def test_defaults_are_product_defaults(agent):
    s = learning_settings_get(agent)
    assert (s.mode, s.every_n_turns, s.every_hours, s.min_conversations) == ("off", 20, 24, 3)
    assert (s.max_threads, s.max_messages_per_thread, s.across_users, s.min_users) == (
        8,
        40,
        False,
        2,
    )
    assert (s.standing_rules, s.min_corrections, s.rule_owners) == (False, 2, [])
    assert learning_settings_get(agent).pk == s.pk


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("min_conversations", 1, "lowest allowed value is 2"),
        ("min_users", "1", "lowest allowed value is 2"),
        ("min_corrections", 0, "lowest allowed value is 2"),
        ("max_threads", 0, "lowest allowed value is 1"),
        ("max_threads", 51, "highest allowed value is 50"),
        ("max_messages_per_thread", 201, "highest allowed value is 200"),
        ("every_n_turns", 0, "lowest allowed value is 1"),
        ("every_hours", -1, "lowest allowed value is 0"),
        ("every_hours", "soon", "whole number"),
        ("mode", "sometimes", "mode must be one of off, on, on-with-review"),
        ("proposer", "gpt", "proposer must be one of local, openai"),
        ("across_users", "maybe", "true or false"),
        ("rule_owners", ["dev", "auto"], "cannot hold 'auto'"),
        ("rule_owners", "dev, call um", "is not a user name"),
        ("model_base_url", "ftp://x", "http"),
        ("colour", "blue", "Unknown learning setting"),
    ],
)
def test_bad_values_are_refused_with_a_sentence_and_nothing_is_saved(agent, key, value, message):
    with pytest.raises(LearningInputError, match=message) as exc:
        learning_settings_update(agent=agent, values={"mode": "on", key: value}, by="olivia")
    assert key in exc.value.errors
    assert learning_settings_get(agent).mode == "off"


def test_values_from_text_are_parsed(agent):
    s = learning_settings_update(
        agent=agent,
        values={
            "mode": "on-with-review",
            "min_conversations": "2",
            "across_users": "true",
            "standing_rules": "on",
            "rule_owners": "dev, Callum, dev",
            "every_hours": "0",
        },
        by="olivia",
    )
    s.refresh_from_db()
    assert (s.mode, s.min_conversations, s.across_users, s.standing_rules) == (
        "on-with-review",
        2,
        True,
        True,
    )
    assert s.rule_owners == ["dev", "Callum"]
    assert s.every_hours == 0 and s.due_at is None  # no hours rule, turns not reached


def test_auto_apply_is_another_way_to_say_the_mode(agent):
    assert (
        learning_settings_update(
            agent=agent, values={"mode": "on", "auto_apply": False}, by="o"
        ).mode
        == "on-with-review"
    )
    assert learning_settings_update(agent=agent, values={"auto_apply": True}, by="o").mode == "on"
    off = learning_settings_update(agent=agent, values={"mode": "off", "auto_apply": True}, by="o")
    assert off.mode == "off" and off.due_at is None


def test_due_time_is_recomputed_and_counters_kept(agent):
    s = learning_settings_update(agent=agent, values={"mode": "on", "every_hours": 6}, by="o")
    assert timezone.now() + timedelta(hours=5) < s.due_at <= timezone.now() + timedelta(hours=6)
    LearningSettings.objects.filter(pk=s.pk).update(turns_since_review=7, last_seen_message_id=40)
    s = learning_settings_update(agent=agent, values={"every_n_turns": 5}, by="o")
    s.refresh_from_db()
    assert s.turns_since_review == 7 and s.due_at <= timezone.now()  # due at once
    assert s.last_seen_message_id == 40  # the schedule does not change what may be learned
    s = learning_settings_update(agent=agent, values={"min_conversations": 2}, by="o")
    s.refresh_from_db()
    assert s.last_seen_message_id == 0  # the next review reads the old messages again
