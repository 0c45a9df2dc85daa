"""``manage.py memory mute|unmute|redact``: a belief muted, unmuted and redacted from the
command line by a named login, through the services the person page calls; an unknown
id, a login who may not and a refused reason are one sentence, exit 2, nothing changed."""

from __future__ import annotations

import pytest

from memory.models import Belief, Redaction
from memory.redaction import REDACTED
from tests.builders import add_belief, command_out, command_refused, person_said
from tests.factories import make_user

pytestmark = pytest.mark.django_db

REASON = "The person asked for these words to be removed."


def memory(*args: str) -> str:
    return command_out("memory", *args)


def refused(*args: str) -> str:
    return command_refused("memory", *args)


@pytest.fixture
def belief(agent, settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    return add_belief(agent, "Likes oat milk in coffee.")


def test_an_operator_mutes_and_unmutes_a_belief(belief, operator):
    said = memory("mute", str(belief.pk), "--by", operator.username, "--reason", "asked")
    assert f"Belief {belief.pk} muted" in said
    belief.refresh_from_db()
    assert belief.status == Belief.Status.MUTED
    assert belief.muted_by == "olivia" and belief.mute_reason == "asked"
    assert "unmuted" in memory("unmute", str(belief.pk), "--by", operator.username)
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_a_reviewer_may_not_mute_and_nothing_changes(belief, reviewer):
    message = refused("mute", str(belief.pk), "--by", reviewer.username)
    assert message.startswith("Only an operator of the person's team mutes")
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_another_tenants_operator_does_not_find_the_belief(belief, other_tenant):
    make_user("otto", role="operator", tenants=[other_tenant])
    assert refused("mute", str(belief.pk), "--by", "otto") == f"No belief {belief.pk} here."
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_an_unknown_belief_or_login_is_one_sentence(belief, operator):
    assert refused("mute", "999999", "--by", operator.username).startswith("No belief 999999;")
    assert refused("unmute", str(belief.pk), "--by", "nobody").startswith(
        "No login is called 'nobody'"
    )
    assert "not muted" in refused("unmute", str(belief.pk), "--by", operator.username)


def test_a_superuser_redacts_a_belief_and_a_message(agent, belief):
    make_user("root", superuser=True)
    said = person_said(agent, "My card number is on the fridge.", who="ana")
    assert "redacted" in memory(
        "redact", "belief", str(belief.pk), "--by", "root", "--reason", REASON
    )
    assert "redacted" in memory(
        "redact", "message", str(said.pk), "--by", "root", "--reason", REASON
    )
    belief.refresh_from_db()
    said.refresh_from_db()
    assert belief.status == Belief.Status.REDACTED and belief.statement == REDACTED
    assert said.text == REDACTED
    assert set(Redaction.objects.values_list("kind", "redacted_by", "reason")) == {
        (Redaction.Kind.BELIEF, "root", REASON),
        (Redaction.Kind.MESSAGE, "root", REASON),
    }


def test_an_operator_may_not_redact_and_a_short_reason_is_refused(belief, operator):
    message = refused(
        "redact", "belief", str(belief.pk), "--by", operator.username, "--reason", REASON
    )
    assert message.startswith("Only a superuser may redact text")
    make_user("root", superuser=True)
    assert refused(
        "redact", "belief", str(belief.pk), "--by", "root", "--reason", "why"
    ).startswith("Say why this text is redacted")
    assert refused("redact", "message", "999999", "--by", "root", "--reason", REASON).startswith(
        "No message 999999;"
    )
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE and not Redaction.objects.exists()
