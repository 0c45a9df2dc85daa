""" "Don't mention this again": a muted belief is kept, reaches no host through any
surface, is never learned back, and unmuting undoes it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from api.selectors import context_pack
from memory.consolidation import consolidate
from memory.models import Belief
from memory.services_beliefs import BeliefRefusal, belief_mute, belief_retire, belief_unmute
from persona.models import OwnerNomination
from tests.api.conftest import bearer
from tests.builders import add_belief, person_said
from tests.factories import make_user

STATEMENT = "Has a twin brother called Tom."


@pytest.fixture
def reader(api_on, make_token):
    _, raw = make_token(name="memory-app", scopes="memory.read,memory.write")
    return bearer(raw)


def _surfaces(client, agent, reader) -> str:
    """Everything a host can read about ana, as one text."""
    pack = context_pack(
        agent=agent,
        tenant_id=agent.tenant_id,
        principal="ana",
        query="Tell me about my brother Tom",
        now=None,
        limit=20,
    )
    answers = [json.dumps(pack)]
    for status in ("active", "all"):
        r = client.get(f"/v1/memories?principal=ana&agent=helper&status={status}", **reader)
        assert r.status_code == 200, r.content
        answers.append(r.content.decode())
    return "\n".join(answers)


def test_a_muted_belief_reaches_no_host_and_unmuting_brings_it_back(client, agent, reader):
    belief = add_belief(agent, STATEMENT, category="interpersonal")
    assert "twin brother" in _surfaces(client, agent, reader)

    muted = belief_mute(belief=belief, by="olivia", reason="Ana asked us not to bring it up")
    assert (muted.status, muted.muted_by, muted.mute_reason) == (
        "muted",
        "olivia",
        "Ana asked us not to bring it up",
    )
    assert muted.muted_at is not None and muted.statement == STATEMENT  # nothing deleted
    assert "twin brother" not in _surfaces(client, agent, reader)
    r = client.get(f"/v1/memories/{belief.pk}?principal=ana", **reader)
    assert r.status_code == 404

    belief_unmute(belief=belief, by="olivia")
    assert "twin brother" in _surfaces(client, agent, reader)


def test_a_host_restating_a_muted_belief_stores_nothing_and_sees_nothing(client, agent, reader):
    belief = add_belief(agent, STATEMENT, category="interpersonal")
    belief_mute(belief=belief, by="olivia")
    body = {
        "principal": "ana",
        "agent": "helper",
        "category": "interpersonal",
        "statement": "Has a twin brother, Tom.",
        "confidence": 0.9,
        "source": "direct",
    }
    r = client.post("/v1/memories", json.dumps(body), content_type="application/json", **reader)
    assert r.status_code == 200, r.content
    answer = r.json()
    assert answer["outcome"] == "muted" and answer["memory"] is None
    assert Belief.objects.count() == 1
    belief.refresh_from_db()
    assert belief.status == Belief.Status.MUTED and belief.corroboration_count == 1


def test_consolidation_never_learns_a_muted_belief_back_or_nominates_it(agent):
    person_said(agent, "I prefer short summaries.", conversation="c1")
    consolidate(agent=agent)
    belief = Belief.objects.get()
    belief_mute(belief=belief, by="olivia")
    person_said(agent, "I prefer short summaries.", conversation="c2")
    report = consolidate(agent=agent)
    assert report.skipped["muted (don't mention this again)"] == 1, report
    assert list(Belief.objects.values_list("status", flat=True)) == ["muted"]
    assert not OwnerNomination.objects.filter(state=OwnerNomination.State.NOMINATED).exists()


def test_muting_refuses_what_is_not_active_and_unmuting_what_is_not_muted(agent):
    belief = add_belief(agent, STATEMENT, category="interpersonal")
    with pytest.raises(BeliefRefusal, match="not muted"):
        belief_unmute(belief=belief, by="olivia")
    belief_mute(belief=belief, by="olivia")
    with pytest.raises(BeliefRefusal, match="muted already"):
        belief_mute(belief=belief, by="olivia")
    other = add_belief(agent, "Collects stamps.")
    belief_retire(belief=other)
    with pytest.raises(BeliefRefusal, match="retired, not active"):
        belief_mute(belief=other, by="olivia")


def test_an_operator_mutes_and_unmutes_from_the_person_page(operator_client, agent):
    belief = add_belief(agent, STATEMENT, category="interpersonal")
    url = reverse("memory:belief_mute", args=[belief.pk])
    operator_client.post(url, {"reason": "asked by Ana"})
    belief.refresh_from_db()
    assert belief.status == Belief.Status.MUTED and belief.muted_by == "olivia"
    page = operator_client.get(
        reverse("memory:person", args=[belief.principal_id]) + "?show=all"
    ).content.decode()
    assert "Muted by olivia" in page and "asked by Ana" in page and "Unmute" in page
    operator_client.post(url, {"undo": "1"})
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_a_reviewer_may_not_mute_and_another_tenant_cannot_find_the_belief(
    client, agent, other_tenant
):
    belief = add_belief(agent, STATEMENT, category="interpersonal")
    client.force_login(make_user("rita", role="reviewer", tenants=[agent.tenant]))
    assert client.post(reverse("memory:belief_mute", args=[belief.pk])).status_code == 403
    client.force_login(make_user("otto", role="operator", tenants=[other_tenant]))
    assert client.post(reverse("memory:belief_mute", args=[belief.pk])).status_code == 404
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE
