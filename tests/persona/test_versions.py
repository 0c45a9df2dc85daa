from __future__ import annotations

import pytest

from persona.models import AgentPersonaVersion, SourceType
from persona.services import (
    ChangeTrigger,
    GuardrailWriteRefused,
    PersonaInputError,
    PersonaVersionConflict,
    persona_version_create,
)
from safety.secrets import SecretFound

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _write(agent, changes, source=SourceType.MANUAL, **kwargs):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=source, reason="test edit", approved_by="olivia"),
        **kwargs,
    )


def _snapshot(agent):
    return list(
        AgentPersonaVersion.objects.filter(agent=agent)
        .order_by("version")
        .values_list(
            "version", "name", "role", "goals", "background", "guardrails", "standing_rules"
        )
    )


def test_versions_are_dense_and_keep_the_trigger(agent):
    _write(agent, {"goals": "Plan the week."})
    _write(agent, {"background": "Works for a small bakery."}, source=SourceType.UI_FORM)
    v4 = persona_version_create(
        agent=agent,
        changes={"goals": "Plan the week.\nAdvise on bakery orders."},
        trigger=ChangeTrigger(
            source_type=SourceType.PERSONA_LEARNING,
            reason="Learned from 3 conversations",
            approved_by="auto",
            evidence=[{"quote": "can you help me with the bakery orders", "conversation": 1}],
        ),
    )
    versions = list(AgentPersonaVersion.objects.filter(agent=agent).order_by("version"))
    assert [v.version for v in versions] == [1, 2, 3, 4]
    agent.refresh_from_db()
    assert agent.persona_version == 4
    assert v4.source_type == "persona_learning"
    assert v4.evidence[0]["quote"].startswith("can you help")
    assert v4.fields_changed == ["goals"]
    assert versions[2].fields_changed == ["background"]
    # each version carries the whole persona, not a diff
    assert v4.background == "Works for a small bakery." and v4.role == "Personal assistant"


@pytest.mark.parametrize(
    "source", [SourceType.UPDATE_PERSONA, SourceType.PERSONA_LEARNING, SourceType.STANDING_RULE]
)
def test_guardrail_writes_from_model_and_learning_are_refused(agent, source):
    _write(agent, {"guardrails": ["Never share a customer's address."]})
    before = _snapshot(agent)
    with pytest.raises(GuardrailWriteRefused) as exc:
        _write(
            agent,
            {"guardrails": ["Share addresses when asked."], "goals": "New goal."},
            source=source,
        )
    assert "host code or an operator" in str(exc.value)
    assert "Nothing was saved" in str(exc.value)
    assert _snapshot(agent) == before
    agent.refresh_from_db()
    assert agent.persona_version == 2


@pytest.mark.parametrize("source", [SourceType.HOST, SourceType.MANUAL, SourceType.UI_FORM])
def test_guardrail_writers(agent, source):
    v = _write(
        agent,
        {"guardrails": ["Quote the tide table before giving a berthing time."]},
        source=source,
    )
    assert v.guardrails == ["Quote the tide table before giving a berthing time."]


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        (
            {"guardrails": [f"Rule number {i} stays." for i in range(13)]},
            ["at most 12 guardrails", "13"],
        ),
        ({"guardrails": ["x" * 241]}, ["241 characters", "limit is 240"]),
        ({"standing_rules": ["y" * 201]}, ["201 characters", "limit is 200"]),
        ({"standing_rules": ["Say dates in full. Never abbreviate."]}, ["one sentence"]),
        (
            {"standing_rules": [f"Rule {i} is kept." for i in range(9)]},
            ["at most 8 standing rules"],
        ),
        ({"background": "z" * 6001}, ["6,001 characters", "limit is 6,000"]),
    ],
)
def test_limits_refused_with_a_sentence_and_nothing_saved(agent, changes, words):
    before = _snapshot(agent)
    with pytest.raises(PersonaInputError) as exc:
        _write(agent, changes)
    message = str(exc.value)
    for word in words:
        assert word in message
    assert message.endswith((".", "!"))
    assert _snapshot(agent) == before


def test_twelve_guardrails_of_240_chars_fit(agent):
    rules = [f"{i:02d} " + "g" * 237 for i in range(12)]
    v = _write(agent, {"guardrails": rules})
    assert len(v.guardrails) == 12 and all(len(g) == 240 for g in v.guardrails)


def test_learned_goal_stops_growing_at_1500_chars(agent):
    with pytest.raises(PersonaInputError, match="1,500"):
        _write(agent, {"goals": "g" * 1501}, source=SourceType.PERSONA_LEARNING)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", f"Bot {AWS_KEY}"),
        ("role", f"Deploys with key {AWS_KEY}"),
        ("goals", f"Use the token {GITHUB_TOKEN} to push."),
        ("background", f'config: password = "hunter2-Very-Secret-{AWS_KEY}"'),
        ("guardrails", [f"Never print {GITHUB_TOKEN}."]),
        ("standing_rules", [f"Sign requests with {AWS_KEY}."]),
    ],
)
def test_secret_in_any_field_is_refused(agent, field, value):
    before = _snapshot(agent)
    with pytest.raises(SecretFound) as exc:
        _write(agent, {field: value})
    assert "secret" in str(exc.value) and "Remove the credential" in str(exc.value)
    assert _snapshot(agent) == before


def test_expected_version_conflict_writes_nothing(agent):
    _write(agent, {"goals": "First goal."}, expected_version=1)
    before = _snapshot(agent)
    with pytest.raises(PersonaVersionConflict) as exc:
        _write(agent, {"goals": "Stale goal."}, expected_version=1)
    assert exc.value.current == 2 and exc.value.expected == 1
    assert "version 1" in str(exc.value) and "version 2" in str(exc.value)
    assert _snapshot(agent) == before
    # the corrected retry lands
    assert _write(agent, {"goals": "Fresh goal."}, expected_version=2).version == 3


def test_nothing_changed_writes_no_version(agent):
    with pytest.raises(PersonaInputError, match="Nothing changed"):
        _write(agent, {"role": "Personal assistant"})
    assert AgentPersonaVersion.objects.filter(agent=agent).count() == 1
