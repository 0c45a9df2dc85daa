"""Where every prompt line came from (``persona.provenance``, issue 26.1): each source
kind tells its own story, the lines are the prefix bytes, and the cost is a constant
number of queries."""

from __future__ import annotations

import pytest

from learning.services import proposal_apply
from persona import owner
from persona.models import SourceType
from persona.plans import plan_get_or_rotate
from persona.provenance import explain_prefix, explain_session
from persona.render import GUARDRAILS_HEADING, NO_AUTHORITY_LINE, render_persona
from persona.selectors import persona_head
from persona.services import ChangeTrigger, persona_version_create
from persona.services_edits import persona_edit, persona_version_revert
from tenancy.access import actor_for_user
from tests.builders import add_belief, add_proposal, person_said

pytestmark = pytest.mark.django_db


def _host(agent, reason="House rules", **changes):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=SourceType.HOST, reason=reason),
    )


def _head(agent):
    agent.refresh_from_db(fields=["persona_version"])
    return persona_head(agent=agent)


def _line(explained, text):
    found = [line for line in explained.lines if line.text == text]
    assert len(found) == 1, f"{text!r} is not one line of {[ln.text for ln in explained.lines]}"
    return found[0]


def test_the_lines_are_the_prefix_bytes_and_headings_are_personawebs(agent):
    version = _host(agent, guardrails=["Never share a customer's address."], goals="Plan orders.")
    explained = explain_prefix(version)
    assert explained.text == render_persona(version)
    assert [line.n for line in explained.lines] == list(range(1, len(explained.lines) + 1))
    heading = _line(explained, GUARDRAILS_HEADING)
    assert heading.kind == "frame" and heading.runs == []
    assert "personaweb" in heading.summary
    assert _line(explained, NO_AUTHORITY_LINE).kind == "frame"


def test_a_host_line_tells_the_version_and_reason_that_wrote_it(agent):
    _host(agent, reason="Bakery rules", guardrails=["Never share a customer's address."])
    explained = explain_prefix(_head(agent))
    line = _line(explained, "1. Never share a customer's address.")
    assert line.kind == "guardrail" and line.label == "guardrail 1"
    since = line.runs[0]
    assert (since.version, since.source_type, since.reason) == (2, "host", "Bakery rules")
    assert len(line.runs) == 1
    # the name has stood since the agent was made
    assert _line(explained, "Your name is Helper.").runs[0].version == 1


def test_an_operator_edit_names_who_and_why_and_leaves_older_lines_alone(agent, operator):
    _host(agent, guardrails=["Never share a customer's address."])
    persona_edit(
        agent=agent,
        by=actor_for_user(operator),
        changes={"guardrails": ["Never share a customer's address.", "Quote prices in euros."]},
        reason="Customers asked for euros",
        base_version=2,
    )
    explained = explain_prefix(_head(agent))
    new = _line(explained, "2. Quote prices in euros.").runs[0]
    assert (new.version, new.source_type, new.by) == (3, "ui_form", "olivia")
    assert new.reason == "Customers asked for euros"
    assert "dashboard form by olivia" in new.summary
    assert _line(explained, "1. Never share a customer's address.").runs[0].version == 2


def test_a_learned_sentence_tells_its_proposal_approver_and_verified_quotes(agent):
    said = person_said(agent, "Could you plan weekend bakery orders for our stalls?")
    hidden = person_said(agent, "Plan the weekend orders please.", conversation="t2")
    evidence = [
        {
            "quote": "plan weekend bakery orders",
            "ok": True,
            "conversation_id": said.conversation_id,
            "conversation": "talk-1",
            "message_id": said.pk,
            "start": 10,
            "end": 36,
        },
        {
            "quote": "Plan the weekend orders",
            "ok": True,
            "conversation_id": hidden.conversation_id,
            "conversation": "t2",
            "message_id": hidden.pk,
            "start": 0,
            "end": 23,
        },
    ]
    proposal = add_proposal(agent, evidence=evidence)
    proposal_apply(proposal=proposal, by="rita")
    person_said(agent, "Forget this chat.", conversation="t2", sealed=True)  # sealed later
    explained = explain_prefix(_head(agent))
    note = next(line for line in explained.lines if line.kind == "learned_note")
    story = note.runs[0]
    assert (story.version, story.source_type, story.proposal_id, story.by) == (
        2,
        "persona_learning",
        proposal.pk,
        "rita",
    )
    assert story.summary == f"Version 2: learned from proposal {proposal.pk}, approved by rita."
    quotes = {q["conversation"]: q for q in story.quotes}
    assert quotes["talk-1"]["quote"] == "plan weekend bakery orders"
    assert quotes["talk-1"]["verified"] is True
    # a sealed conversation is never quoted
    assert quotes["t2"]["sealed"] is True and quotes["t2"]["quote"] == ""
    # the goals line took its present form with the sentence appended
    goals = next(line for line in explained.lines if line.kind == "goals_line")
    assert goals.runs[0].proposal_id == proposal.pk
    # a caller bound to one person reads the story, not other people's words
    bare = explain_prefix(_head(agent), quotes=False)
    bare_note = next(line for line in bare.lines if line.kind == "learned_note")
    assert [q["quote"] for q in bare_note.runs[0].quotes] == ["", ""]


def test_a_reverted_line_tells_the_revert_and_the_run_before_it(agent, operator):
    actor = actor_for_user(operator)
    _host(agent, guardrails=["Never share a customer's address."])  # v2
    persona_edit(
        agent=agent, by=actor, changes={"guardrails": []}, reason="Too strict", base_version=2
    )  # v3
    persona_version_revert(agent=agent, by=actor, version=2, reason="It was right", base_version=3)
    explained = explain_prefix(_head(agent))
    line = _line(explained, "1. Never share a customer's address.")
    assert [r.version for r in line.runs] == [4, 2]
    assert line.runs[0].source_type == "revert" and line.runs[0].restores_version == 2
    assert "reverted to version 2 by olivia" in line.runs[0].summary
    assert line.runs[1].source_type == "host"


def test_owner_entries_tell_typed_or_affirmed_from_their_belief(agent):
    from memory.models import Principal
    from tests.builders import add_nomination

    nomination = add_nomination(agent, "Keeps bees on the roof")
    ana = Principal.objects.get(external_id="ana")
    owner.owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": "Prefers short answers."}],
        written_by="ana",
        author="owner",
    )
    owner.nomination_affirm(principal=ana, nomination_id=nomination.pk, by="ana", author="owner")
    head = owner.doc_head(ana)
    explained = explain_prefix(_head(agent), head.entries, owner_doc_version=head.version)
    typed = next(ln for ln in explained.lines if ln.text.startswith("- Prefers short answers."))
    assert typed.kind == "owner_entry" and typed.entry.source == "user_edit"
    assert typed.entry.belief is None
    assert typed.summary == "Typed by the owner (document version 2)."
    affirmed = next(ln for ln in explained.lines if ln.text.startswith("- Keeps bees"))
    belief = affirmed.entry.belief
    assert affirmed.entry.source == "affirmation" and belief["id"] == nomination.belief_id
    assert belief["statement"] == "Keeps bees on the roof"
    assert belief["evidence"]["quote"] == "Keeps bees on the roof"
    assert f"Affirmed from belief {nomination.belief_id}" in affirmed.summary


def test_a_muted_belief_behind_an_entry_keeps_its_words_out(agent):
    from memory.models import Principal
    from memory.services_beliefs import belief_mute

    said = person_said(agent, "I keep bees.")
    belief = add_belief(agent, "Keeps bees", quote_from=said, quote="I keep bees")
    ana = Principal.objects.get(external_id="ana")
    belief_mute(belief=belief, by="olivia", reason="asked")
    entry = owner.doc_head(ana).entries  # no document: build one entry by hand
    assert entry == []
    from persona.models import OwnerEntry

    fake = OwnerEntry(
        key="k1",
        text="Keeps bees.",
        source="affirmation",
        source_belief_id=belief.pk,
        sensitivity=1,
        tier="long_term",
        author="owner",
        written_by="ana",
    )
    explained = explain_prefix(_head(agent), [fake], owner_doc_version=1)
    story = explained.lines[-1].entry.belief
    assert story["muted"] is True and story["statement"] == ""
    assert story["evidence"]["quote"] == ""


def test_a_session_explains_its_pinned_plan_and_without_one_what_a_plan_would_pin(agent):
    plan = plan_get_or_rotate(agent=agent, session_key="s1")
    _host(agent, goals="Plan orders.")  # the head moves on; the plan stays pinned
    pinned = explain_session(agent=agent, session_key="s1")
    assert pinned.plan.pk == plan.pk and pinned.matches_pinned
    assert pinned.text == plan.prefix_text and pinned.explained.persona_version == 1
    fresh = explain_session(agent=agent, session_key="other")
    assert fresh.plan is None and fresh.explained.persona_version == 2
    assert "Plan orders." in fresh.text


def test_explaining_costs_the_same_queries_however_long_the_history(
    agent, operator, django_assert_max_num_queries
):
    actor = actor_for_user(operator)
    for i in range(12):
        persona_edit(
            agent=agent,
            by=actor,
            changes={"guardrails": [f"Guardrail number {j}." for j in range(i + 1)]},
            reason=f"edit {i}",
            base_version=agent.persona_version,
        )
    head = _head(agent)
    with django_assert_max_num_queries(3):
        explained = explain_prefix(head)
    assert _line(explained, "12. Guardrail number 11.").runs[0].version == 13


def test_the_command_line_explains_what_the_route_explains(agent, operator):
    import json
    from io import StringIO

    from django.core.management import call_command

    _host(agent, reason="Bakery rules", guardrails=["Never share a customer's address."])
    out = StringIO()
    call_command("persona", "explain", "helper", stdout=out)
    text = out.getvalue()
    assert "1. Never share a customer's address." in text
    assert "<- Version 2: host code." in text and "(not pinned yet)" in text
    out = StringIO()
    call_command("persona", "explain", "helper", "--json", stdout=out)
    answer = json.loads(out.getvalue())
    guardrail = next(line for line in answer["lines"] if line["kind"] == "guardrail")
    assert guardrail["since"]["reason"] == "Bakery rules" and answer["pinned"] is False
    assert "\n".join(line["text"] for line in answer["lines"]) == answer["prefix"]


def test_a_line_older_than_the_history_read_says_so(agent, operator, monkeypatch):
    from persona import provenance

    actor = actor_for_user(operator)
    for i in range(4):
        persona_edit(
            agent=agent,
            by=actor,
            changes={"goals": f"Plan orders, take {i}."},
            reason=f"take {i}",
            base_version=agent.persona_version,
        )
    monkeypatch.setattr(provenance, "HISTORY_DEPTH", 3)
    explained = explain_prefix(_head(agent))
    name = _line(explained, "Your name is Helper.")
    assert name.runs == [] and name.older_than == 3
    assert name.summary == "Stands since before version 3 (older history not read here)."
    assert _line(explained, "Plan orders, take 3.").runs[0].version == 5
