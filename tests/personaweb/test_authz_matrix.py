"""Every dashboard URL x every kind of user -> the expected status, and nothing of
another tenant leaks. Rows are (url name, method); columns are the users below.

anonymous          not logged in: the login page, whatever the URL
rita   (reviewer)  of the agent's tenant, not a rule owner
olivia (operator)  of the agent's tenant, not a rule owner (rule owners are named: rex)
rex    (reviewer)  of the agent's tenant, the agent's rule owner
otto   (operator)  of another tenant: every URL about the agent is a 404
root   superuser   may do everything but decide standing rules: only named rule owners do
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import TestCase
from django.test.utils import override_settings
from django.urls import reverse

from learning.models import Proposal
from learning.services import proposal_apply
from tests.builders import (
    add_conversations,
    add_proposal,
    add_review,
    evidence_for,
    learning_on,
)
from tests.factories import TenantFactory, make_agent, make_user

USERS = ("anonymous", "rita", "olivia", "rex", "otto", "root")
SECRET_NAME = "Harbour Helper"
SECRET_TEXT = "Plan weekend bakery orders for market stalls."


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker) -> Iterator[dict[str, Any]]:
    """The world, built once for the module's 270 cases inside a transaction that is
    rolled back after its last case (what ``TestCase.setUpTestData`` does, with Django's
    own atomics). Every case runs in a savepoint inside it (``world`` needs ``db``) that
    is rolled back after the case: each starts from this world, none sees another's
    writes (checked with the cases shuffled, on SQLite and PostgreSQL). The rows keep
    their ids in every case, on PostgreSQL too, as they already did on SQLite."""
    with django_db_blocker.unblock():
        atomics = TestCase._enter_atomics()
        try:
            with override_settings(  # what ``fast_passwords`` does per test
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
            ):
                built = _build_world()
        except BaseException:
            TestCase._rollback_atomics(atomics)
            raise
    yield built
    with django_db_blocker.unblock():
        TestCase._rollback_atomics(atomics)


@pytest.fixture
def world(db, built_world) -> dict[str, Any]:
    """This case's copy of the world's objects (as ``setUpTestData`` copies its
    attributes per test): a case that changes an object in memory leaves the next
    case's copy as built."""
    return copy.deepcopy(built_world)


def _build_world() -> dict[str, Any]:
    acme = TenantFactory(name="Acme", slug="acme")
    globex = TenantFactory(name="Globex", slug="globex")
    agent = make_agent(tenant=acme, slug="helper", name=SECRET_NAME)
    learning_on(agent, standing_rules=True, rule_owners=["rex"])
    messages = add_conversations(agent, n=3)
    evidence = evidence_for(messages)
    applied = proposal_apply(proposal=add_proposal(agent, evidence=evidence), by="olivia")
    sentence = add_proposal(
        agent, text="Draft supplier emails about flour deliveries.", evidence=evidence
    )
    rule = add_proposal(agent, kind="rule", evidence=evidence)
    review = add_review(agent, reason="Too few conversations.")
    make_agent(tenant=globex, slug="globex-desk", name="Globex desk")
    from memory.services_beliefs import belief_write, intention_write

    belief = belief_write(
        agent=agent,
        principal_external_id=messages[0].conversation.principal.external_id,
        category="likes",
        statement="Prefers rye bread for the market stall.",
        confidence=0.8,
        source="direct",
    ).belief
    intention = intention_write(
        agent=agent,
        principal_external_id=belief.principal.external_id,
        action="Order rye flour",
        due="2030-01-01T09:00:00+00:00",
        source="direct",
    )
    from persona.owner import doc_head, owner_doc_write

    owner_doc_write(
        principal=belief.principal,
        expected_version=0,
        entries=[{"text": "Keeps bees on the roof."}],
        written_by="ana",
    )
    entry = doc_head(belief.principal_id).entries[0]
    agent.refresh_from_db()
    from persona.mutes import line_mute
    from personaweb.actors import Actor

    # the applied sentence muted for the belief's person (what mute_undo takes back)
    mute = line_mute(
        actor=Actor.system("matrix"),
        agent=agent,
        principal=belief.principal,
        section="goals",
        text=applied.text,
    )
    users = {
        "rita": make_user("rita", role="reviewer", tenants=[acme]),
        "olivia": make_user("olivia", role="operator", tenants=[acme]),
        "rex": make_user("rex", role="reviewer", tenants=[acme]),
        "otto": make_user("otto", role="operator", tenants=[globex]),
        "root": make_user("root", superuser=True),
    }
    return {
        "agent": agent,
        "applied": applied,
        "sentence": sentence,
        "rule": rule,
        "review": review,
        "conversation": messages[0].conversation,
        "belief": belief,
        "intention": intention,
        "message": messages[0],
        "entry": entry,
        "mute": mute,
        "users": users,
    }


def _url(name: str, w: dict[str, Any]) -> str:
    slug = w["agent"].slug
    args = {
        "persona:evolution": [],
        "persona:agent": [slug],
        "persona:guardrails": [slug],
        "persona:rules": [slug],
        "persona:undo": [slug],
        "persona:edit": [slug],
        "persona:revert": [slug, 1],
        "persona:undo_edit": [slug, 1],
        "learning:settings": [slug],
        "learning:review_now": [slug],
        "learning:review_status": [slug, w["review"].pk],
        "learning:queue": [],
        "learning:log": [],
        "learning:proposal_apply": [w["sentence"].pk],
        "learning:proposal_dismiss": [w["sentence"].pk],
        "learning:proposal_restore": [w["sentence"].pk],
        "learning:proposal_undo": [w["applied"].pk],
        "memory:conversations": [],
        "memory:conversation": [w["conversation"].pk],
        "memory:people": [],
        "memory:person": [w["belief"].principal_id],
        "memory:belief_retire": [w["belief"].pk],
        "memory:belief_correct": [w["belief"].pk],
        "memory:belief_mute": [w["belief"].pk],
        "memory:belief_redact": [w["belief"].pk],
        "memory:message_redact": [w["message"].pk],
        "memory:owner_entry_redact": [w["entry"].pk],
        "persona:version_redact": [slug, 1],
        "memory:person_mute": [w["belief"].principal_id],
        "memory:person_muting": [w["belief"].principal_id],
        "memory:mute_undo": [w["mute"].pk],
        "memory:intention_state": [w["intention"].pk],
        "memory:health": [],
        "memory:health_run": [],
        "memory:health_fix": [],
    }
    if name.endswith("#rule"):
        return reverse(name[:-5], args=[w["rule"].pk])
    return reverse(name, args=args[name])


def _data(name: str, w: dict[str, Any]) -> dict[str, Any]:
    if name.startswith("persona:"):
        # the editors ask before a save drops waiting proposals: confirm them all
        waiting = Proposal.objects.filter(agent=w["agent"], status="waiting")
        drops = {"confirm_drops": ",".join(str(pk) for pk in waiting.values_list("pk", flat=True))}
        return {**drops, **_persona_data(name, w)}
    return _other_data(name, w)


def _persona_data(name: str, w: dict[str, Any]) -> dict[str, Any]:
    version = str(w["agent"].persona_version)
    if name == "persona:edit":
        return {
            "name": "Harbour Helper",
            "role": "Bakery assistant",
            "goals": "Plan weekend bakery orders.",
            "background": "",
            "reason": "matrix",
            "expected_version": version,
        }
    if name in ("persona:revert", "persona:undo_edit"):
        return {"reason": "matrix", "expected_version": version}
    if name == "persona:version_redact":
        return {"passage": SECRET_NAME, "reason": "matrix redaction"}
    if name in ("persona:guardrails", "persona:rules"):
        return {
            "item": ["Give dates in full."],
            "pos": ["1"],
            "reason": "matrix",
            "expected_version": version,
        }
    return {}


def _other_data(name: str, w: dict[str, Any]) -> dict[str, Any]:
    if name == "learning:settings":
        return {
            "mode": "on-with-review",
            "every_n_turns": "20",
            "every_hours": "24",
            "min_conversations": "3",
            "max_threads": "8",
            "max_messages_per_thread": "40",
            "min_users": "2",
            "min_corrections": "2",
            "rule_owners": "rex",
            "proposer": "local",
            "standing_rules": "on",
        }
    if name == "memory:belief_correct":
        return {"statement": "Prefers spelt bread for the market stall."}
    if name == "memory:intention_state":
        return {"state": "done"}
    if name == "memory:belief_mute":
        return {"reason": "matrix"}
    if name in ("memory:belief_redact", "memory:message_redact", "memory:owner_entry_redact"):
        return {"reason": "matrix redaction"}
    if name == "memory:person_mute":  # the world's entry belongs to the belief's person
        return {"entry": w["entry"].key, "reason": "matrix"}
    if name == "memory:health_fix":
        return {"action": "retire", "belief": str(w["belief"].pk)}
    return {}


# (name, method) -> expected status per user, in the order of USERS. 302 for an
# anonymous user means the login redirect (checked below); for others, a redirect
# after a done (or refused, see STATE) action.
MATRIX: dict[tuple[str, str], tuple[int, ...]] = {
    ("persona:evolution", "GET"): (302, 200, 200, 200, 200, 200),
    ("persona:agent", "GET"): (302, 200, 200, 200, 404, 200),
    ("persona:guardrails", "GET"): (302, 403, 200, 403, 404, 200),
    ("persona:guardrails", "POST"): (302, 403, 302, 403, 404, 302),
    ("persona:rules", "GET"): (302, 403, 403, 200, 404, 403),
    ("persona:rules", "POST"): (302, 403, 403, 302, 404, 403),
    ("persona:edit", "GET"): (302, 403, 200, 403, 404, 200),
    ("persona:edit", "POST"): (302, 403, 302, 403, 404, 302),
    ("persona:revert", "GET"): (302, 403, 200, 403, 404, 200),
    ("persona:revert", "POST"): (302, 403, 302, 403, 404, 302),
    # version 1 is where the persona began: the page says undo is refused (200)
    ("persona:undo_edit", "GET"): (302, 403, 200, 403, 404, 200),
    ("persona:undo_edit", "POST"): (302, 403, 200, 403, 404, 200),
    ("persona:version_redact", "GET"): (302, 403, 403, 403, 404, 200),
    ("persona:version_redact", "POST"): (302, 403, 403, 403, 404, 302),
    ("persona:undo", "GET"): (302, 200, 200, 200, 404, 200),
    ("persona:undo", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:settings", "GET"): (302, 200, 200, 200, 404, 200),
    ("learning:settings", "POST"): (302, 403, 302, 403, 404, 302),
    ("learning:review_now", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:review_status", "GET"): (302, 200, 200, 200, 404, 200),
    ("learning:queue", "GET"): (302, 200, 200, 200, 200, 200),
    ("learning:log", "GET"): (302, 200, 200, 200, 200, 200),
    ("learning:proposal_apply", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:proposal_dismiss", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:proposal_restore", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:proposal_undo", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:proposal_apply#rule", "POST"): (302, 302, 302, 302, 404, 302),
    ("learning:proposal_dismiss#rule", "POST"): (302, 302, 302, 302, 404, 302),
    ("memory:conversations", "GET"): (302, 200, 200, 200, 200, 200),
    ("memory:conversation", "GET"): (302, 200, 200, 200, 404, 200),
    ("memory:people", "GET"): (302, 200, 200, 200, 200, 200),
    ("memory:person", "GET"): (302, 200, 200, 200, 404, 200),
    ("memory:belief_retire", "POST"): (302, 403, 302, 403, 404, 302),
    ("memory:belief_correct", "POST"): (302, 403, 302, 403, 404, 302),
    ("memory:belief_mute", "POST"): (302, 403, 302, 403, 404, 302),
    # redaction: superusers only, another tenant's row a 404 first
    ("memory:belief_redact", "POST"): (302, 403, 403, 403, 404, 302),
    ("memory:message_redact", "POST"): (302, 403, 403, 403, 404, 302),
    ("memory:owner_entry_redact", "POST"): (302, 403, 403, 403, 404, 302),
    ("memory:person_mute", "POST"): (302, 403, 302, 403, 404, 302),
    ("memory:person_muting", "GET"): (302, 403, 200, 403, 404, 200),
    ("memory:mute_undo", "POST"): (302, 403, 302, 403, 404, 302),
    ("memory:intention_state", "POST"): (302, 403, 302, 403, 404, 302),
    ("memory:health", "GET"): (302, 200, 200, 200, 200, 200),
    # an operator runs the check for the tenants they belong to
    ("memory:health_run", "POST"): (302, 403, 302, 403, 302, 302),
    ("memory:health_fix", "POST"): (302, 403, 302, 403, 404, 302),
}
# What a POST must have done (True) or not (False) per user, for the actions whose
# redirect hides a refusal.
RULE_DECIDED = {
    "rita": False,
    "olivia": False,
    "rex": True,
    "root": False,
    "otto": False,
    "anonymous": False,
}

CASES = [
    (name, method, user, MATRIX[(name, method)][i])
    for (name, method) in MATRIX
    for i, user in enumerate(USERS)
]


@pytest.mark.parametrize(
    ("name", "method", "user", "expected"), CASES, ids=[f"{n}-{m}-{u}" for n, m, u, _ in CASES]
)
def test_authorization_matrix(
    client, world, name: str, method: str, user: str, expected: int
) -> None:
    if user != "anonymous":
        client.force_login(world["users"][user])
    url = _url(name, world)
    response = client.get(url) if method == "GET" else client.post(url, _data(name, world))
    assert response.status_code == expected, f"{user} {method} {url}: {response.status_code}"
    if user == "anonymous":
        assert response["Location"].startswith(reverse("login") + "?next=")
    if response.status_code == 200:
        html = response.content.decode()
        if user == "otto":
            assert SECRET_NAME not in html and SECRET_TEXT not in html and "helper" not in html
            assert "Globex desk" in html or name != "persona:evolution"
        else:
            assert "<html" in html
    if name.endswith("#rule"):
        rule = Proposal.objects.get(pk=world["rule"].pk)
        assert (rule.status != "waiting") is RULE_DECIDED[user], f"{user}: rule is {rule.status}"
    if name == "memory:belief_retire" and method == "POST":
        from memory.models import Belief

        retired = Belief.objects.get(pk=world["belief"].pk).status == "retired"
        assert retired is (user in ("olivia", "root")), f"{user}: retired {retired}"
    if name in ("memory:person_mute", "memory:mute_undo"):
        from persona.models import Mute

        muted = Mute.objects.active().count()
        done = user in ("olivia", "root")
        assert muted == {"memory:person_mute": 2 if done else 1}.get(name, 0 if done else 1), user
    if name == "persona:undo" and method == "POST" and user in ("rita", "olivia", "rex", "root"):
        assert Proposal.objects.get(pk=world["applied"].pk).status == "undone"


def test_every_dashboard_url_is_in_the_matrix() -> None:
    """A new page or action must be added to the matrix above."""
    from django.urls import get_resolver

    covered = {name.split("#")[0] for name, _ in MATRIX}
    for namespace in ("persona", "learning", "memory"):
        resolver = get_resolver().namespace_dict[namespace][1]
        names = {f"{namespace}:{p.name}" for p in resolver.url_patterns if getattr(p, "name", None)}
        assert names <= covered, names - covered
