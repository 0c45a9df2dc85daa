from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from learning.models import Proposal, Review
from learning.services import review_run
from tests.learning.helpers import learning_on, seed_work
from tests.learning.scripted import GOOD_RULE, GOOD_SENTENCE, ScriptedProposer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("people")]


def run(*args: str) -> str:
    out = StringIO()
    call_command("learning", *args, stdout=out)
    return out.getvalue()


def fails(*args: str) -> CommandError:
    with pytest.raises(CommandError) as exc:
        run(*args)
    return exc.value


def test_unknown_agent_and_bad_settings_exit_2(agent):
    assert fails("status", "nobody").returncode == 2
    error = fails("settings", "helper", "--set", "min_users=1")
    assert error.returncode == 2 and "lowest allowed value is 2" in str(error)
    assert fails("settings", "helper", "--set", "min_users").returncode == 2


def test_settings_set_and_show(agent):
    out = run(
        "settings",
        "helper",
        "--set",
        "mode=on-with-review",
        "--set",
        "rule_owners=dev,callum",
        "--json",
    )
    data = json.loads(out)
    assert data["mode"] == "on-with-review" and data["rule_owners"] == ["dev", "callum"]
    assert "mode=on-with-review" in run("settings", "helper")
    # several pairs after one --set
    data = json.loads(
        run("settings", "helper", "--set", "min_users=3", "standing_rules=true", "--json")
    )
    assert data["min_users"] == 3 and data["standing_rules"] is True


def test_review_status_apply_undo(agent, monkeypatch):
    learning_on(agent)
    seed_work(agent, n=4)
    monkeypatch.setattr(
        "learning.services.review.get_proposer", lambda s: ScriptedProposer(GOOD_SENTENCE)
    )
    data = json.loads(run("review", "helper", "--json"))
    assert data["outcome"] == Review.Outcome.PROPOSED and data["model_calls"] == 1
    status = run("status", "helper")
    assert "waiting (1)" in status and "Prices wholesale orders for the studio." in status
    assert "order-maya-1" in status
    assert "applied proposal" in run("apply", "helper", "--by", "rita")
    assert fails("apply", "helper", str(data["proposal_id"]), "--by", "rita").returncode == 2
    assert "persona version 3" in run("undo", "helper", "--by", "rita")
    assert fails("undo", "helper", "--by", "rita").returncode == 2


def test_rule_dismiss_by_outsider_is_refused(agent):
    learning_on(agent, standing_rules=True, rule_owners=["dev"])
    seed_work(agent, n=4, corrections=3)
    review_run(agent=agent, proposer=ScriptedProposer({"field": None}, GOOD_RULE))
    proposal = Proposal.objects.get(agent=agent, kind="rule")
    error = fails("dismiss", "helper", str(proposal.pk), "--by", "priya")
    assert error.returncode == 2 and "Only a rule owner (dev)" in str(error)
    assert "\n" not in str(error)
    assert "turned down" in run("dismiss", "helper", str(proposal.pk), "--by", "dev")


def test_version_conflict_exits_3(agent, monkeypatch):
    from persona.services import PersonaVersionConflict

    learning_on(agent)
    seed_work(agent, n=4)
    review_run(agent=agent, proposer=ScriptedProposer(GOOD_SENTENCE))

    def conflict(**kwargs):
        raise PersonaVersionConflict(expected=1, current=2)

    monkeypatch.setattr("learning.services.decisions.persona_version_create", conflict)
    assert fails("apply", "helper", "--by", "rita").returncode == 3


def test_verify_explains_each_quote(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    args = ["verify", "helper", "--sentence", "Prices wholesale orders for the studio."]
    good = [
        "--quote",
        "price this wholesale order for the cafe",
        "--quote",
        "Please price this wholesale order",
        "--quote",
        "to price this wholesale order of twelve",
    ]
    out = run(*args, *good, "--json")
    data = json.loads(out)
    assert data["ok"] is True and data["conversations"] == 3
    assert {q["conversation"] for q in data["quotes"]} == {
        "order-maya-0",
        "order-maya-1",
        "order-maya-2",
    }
    assert all(q["message_id"] and q["end"] > q["start"] for q in data["quotes"])
    error = fails(*args, "--quote", "Here is a first draft of the pricing", "--quote", "price this")
    assert error.returncode == 2
    out = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "learning",
            *args,
            "--quote",
            "Here is a first draft of the pricing",
            "--quote",
            "price this",
            stdout=out,
        )
    text = out.getvalue()
    assert text.startswith("refused:")
    assert "quote 1 rejected: not found word for word" in text  # an assistant message
    assert "quote 2 rejected: shorter than 4 words" in text


def test_rule_approval_by_a_name_with_no_account_is_refused(agent):
    learning_on(agent, standing_rules=True)  # empty owner list: any named person
    seed_work(agent, n=4, corrections=3)
    review_run(agent=agent, proposer=ScriptedProposer({"field": None}, GOOD_RULE))
    proposal = Proposal.objects.get(agent=agent, kind="rule")
    error = fails("apply", "helper", str(proposal.pk), "--by", "ghost")
    assert error.returncode == 2 and "No account is called 'ghost'" in str(error)
    proposal.refresh_from_db()
    assert proposal.status == "waiting"


def test_settings_refuse_rule_owners_with_no_account(agent):
    error = fails("settings", "helper", "--set", "rule_owners=ghost")
    assert error.returncode == 2 and "No account is called ghost" in str(error)


@pytest.mark.parametrize(
    "value",
    [
        "99999999999999999999999",
        "9223372036854775808",
        "-99999999999999999999",
        "1" * 5000,
        "x" * 5000,
    ],
)
def test_settings_with_a_huge_number_exit_2_with_a_sentence(agent, value):
    """Above 2^63 (issue 9, finding 5): a message and exit 2, never a traceback."""
    from learning.models import LearningSettings

    error = fails("settings", "helper", "--set", f"every_hours={value}")
    assert error.returncode == 2
    assert "every_hours" in str(error) and len(str(error)) < 300
    assert "a whole number from 0 to" in str(error) or value == "x" * 5000
    assert LearningSettings.objects.get(agent=agent).every_hours == 24
