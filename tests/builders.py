"""Builders shared by the dashboard, learning and authorization tests (plain functions,
not fixtures; the fixtures live in conftest.py)."""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from learning.models import LearningSettings, Proposal, Review
from memory.services import record_turn
from persona.services import ChangeTrigger as Trigger
from persona.services import persona_version_create

#: Most queries any dashboard page may run (asserted per page).
MAX_QUERIES = 15
HX = {"HTTP_HX_REQUEST": "true"}


QUOTE_TEXTS = [
    "Could you help me plan the sourdough order for the weekend market?",
    "I need to plan the sourdough order again for the Saturday market.",
    "Please plan the sourdough order for the farmers market this week.",
]


def add_conversations(agent, *, n: int, person: str = "p1", prefix: str = "conv") -> list[Any]:
    """``n`` conversations of one user turn and one reply each; returns the user messages."""
    out = []
    for i in range(n):
        turn = record_turn(
            agent=agent,
            principal_external_id=person,
            conversation=f"{prefix}-{agent.slug}-{i}",
            user_text=QUOTE_TEXTS[i % len(QUOTE_TEXTS)],
            assistant_text="Here is a plan for the order.",
        )
        out.append(turn.messages[0])
    return out


def evidence_for(
    messages: list[Any], *, quote: str = "plan the sourdough order"
) -> list[dict[str, Any]]:
    items = []
    for m in messages:
        start = m.text.find(quote)
        assert start >= 0, m.text
        items.append(
            {
                "quote": quote,
                "message_id": m.pk,
                "conversation_id": m.conversation_id,
                "conversation_label": m.conversation.external_id,
                "principal_external_id": m.conversation.principal.external_id,
                "start": start,
                "end": start + len(quote),
            }
        )
    return items


def person_said(
    agent, text: str, *, who: str = "ana", conversation: str = "talk-1", sealed=None
) -> Any:
    """The person's message ``text`` in ``conversation`` (with a short reply); returns it."""
    return record_turn(
        agent=agent,
        principal_external_id=who,
        conversation=conversation,
        user_text=text,
        assistant_text="Noted.",
        sealed=sealed,
    ).messages[0]


def add_belief(
    agent, statement: str, *, who: str = "ana", quote_from=None, quote: str = "", **kw
) -> Any:
    """A belief about ``who`` through ``belief_write``; ``quote_from`` (a message of the
    person) and ``quote`` give its evidence."""
    from memory.services_beliefs import belief_write

    kw.setdefault("category", "likes")
    kw.setdefault("confidence", 0.8)
    kw.setdefault("source", "direct")
    if quote_from is not None:
        kw["evidence"] = {"message_id": quote_from.pk, "quote": quote}
    return belief_write(agent=agent, principal_external_id=who, statement=statement, **kw).belief


def add_proposal(
    agent, *, kind: str = "sentence", text: str | None = None, evidence=None
) -> Proposal:
    field = "standing_rules" if kind == "rule" else "goals"
    text = text or (
        "Give dates in full." if kind == "rule" else "Plan weekend bakery orders for market stalls."
    )
    return Proposal.objects.create(
        agent=agent,
        kind=kind,
        field=field,
        text=text,
        content_key=hashlib.sha256(f"{agent.pk}:{text}".encode()).hexdigest(),
        evidence=evidence or [],
        base_version=agent.persona_version,
    )


def add_nomination(agent, statement: str, *, who: str = "ana", conversation: str = "talk-1"):
    """A nomination as consolidation leaves it: of a belief the person stated, with the
    quote it came from."""
    from django.utils import timezone

    from persona.learned_lines import statement_key
    from persona.models import OwnerNomination

    said = person_said(agent, statement, who=who, conversation=conversation)
    belief = add_belief(agent, statement, who=who, quote_from=said, quote=statement)
    return OwnerNomination.objects.create(
        tenant_id=belief.tenant_id,
        principal_id=belief.principal_id,
        belief=belief,
        statement=belief.statement,
        statement_key=statement_key(belief.statement),
        category=belief.category,
        confidence=0.9,
        corroboration_count=3,
        sensitivity=belief.sensitivity,
        evidence_quote=belief.evidence_quote,
        evidence_message_id=belief.evidence_message_id,
        nominated_at=timezone.now(),
    )


def add_review(
    agent, *, outcome: str = "nothing_to_do", reason: str = "Too few conversations.", **kw
) -> Review:
    return Review.objects.create(
        agent=agent, trigger="manual", status="done", outcome=outcome, reason=reason, **kw
    )


def learning_on(agent, **kw) -> LearningSettings:
    kw.setdefault("mode", "on-with-review")
    return LearningSettings.objects.update_or_create(agent=agent, defaults=kw)[0]


def add_versions(agent, n: int) -> None:
    for i in range(n):
        persona_version_create(
            agent=agent,
            changes={"background": f"Background paragraph number {i} about the bakery trade."},
            trigger=Trigger(source_type="ui_form", reason=f"edit {i}", approved_by="olivia"),
        )


def count_queries(client, url: str, **headers: str) -> int:
    client.get(url, **headers)  # warm up: the first request after a login reads more
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


# Settings the child processes must not inherit from the test process.
SCRUBBED = (
    "DATABASE_URL",
    "REDIS_URL",
    "SQLITE_PATH",
    "PERSONAWEB_VAR_DIR",
    "CELERY_TASK_ALWAYS_EAGER",
)


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env.update(
        PYTHONUNBUFFERED="1",
        PERSONAWEB_SWEEP_SECONDS="1",
        PERSONAWEB_HEARTBEAT_SECONDS="1",
        **extra,
    )
    return env


def add_pack(agent, beliefs, *, who: str = "ana", pinned=(), persona_version=None) -> int:
    """A context pack as ``GET /v1/context`` keeps it, giving ``beliefs``; returns its id."""
    from django.utils import timezone

    from memory.models import ContextPackRecord, Principal

    person, _ = Principal.objects.get_or_create(tenant_id=agent.tenant_id, external_id=who)
    return ContextPackRecord.objects.create(
        tenant_id=agent.tenant_id,
        principal=person,
        agent=agent,
        persona_version=persona_version or agent.persona_version,
        belief_ids=[b.pk for b in beliefs],
        pinned_ids=[b.pk for b in pinned],
        created_at=timezone.now(),
    ).pk


LEARNED_SENTENCE = "Prices wholesale orders for the studio."
LEARNED_RULE = "Give every date in full, with the weekday."
TYPED_GOAL = "Help the owner run the bakery."


def add_learned_lines(agent) -> None:
    """A typed goal, then a learned goals sentence and a learned standing rule, written
    as a learning approval writes them (``learning.services.decisions.proposal_apply``:
    the sentence appended to its field with its note, the rule appended to the rules)."""
    persona_version_create(
        agent=agent,
        changes={"goals": TYPED_GOAL},
        trigger=Trigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    persona_version_create(
        agent=agent,
        changes={"goals": f"{TYPED_GOAL} {LEARNED_SENTENCE}"},
        trigger=Trigger(
            source_type="persona_learning",
            reason="Persona learning: applied a learned goals sentence (proposal 7).",
            approved_by="rita",
            proposal_id=7,
            learned={
                "field": "goals",
                "sentence": LEARNED_SENTENCE,
                "note": "recurring in 3 conversations, approved by rita",
            },
        ),
    )
    persona_version_create(
        agent=agent,
        changes={"standing_rules": [LEARNED_RULE]},
        trigger=Trigger(
            source_type="standing_rule",
            reason="Persona learning: applied a learned standing rule (proposal 8).",
            approved_by="rita",
            proposal_id=8,
        ),
    )


def command_out(name: str, *args: str) -> str:
    """What ``manage.py NAME ARGS`` prints."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


def command_refused(name: str, *args: str) -> str:
    """The one sentence ``manage.py NAME ARGS`` exits 2 with (a refusal, never a trace)."""
    import pytest
    from django.core.management import CommandError

    with pytest.raises(CommandError) as caught:
        command_out(name, *args)
    assert caught.value.returncode == 2
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def agents_table(html: str) -> str:
    """The assistants table of the evolution page (the change feed above links agents too)."""
    m = re.search(r'<section id="agents-table".*?</section>', html, re.S)
    assert m, "no assistants table"
    return m.group(0)
