"""Issue 26.1 on the pages: each line of the agent page's prompt opens its story, and a
conversation shows beside each reply the prompt version and the memories it was given."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from learning.services import proposal_apply
from memory.services import record_turn
from persona.services_edits import persona_edit
from tenancy.access import actor_for_user
from tests.builders import (
    HX,
    MAX_QUERIES,
    add_belief,
    add_conversations,
    add_pack,
    add_proposal,
    count_queries,
    evidence_for,
)

pytestmark = pytest.mark.django_db


def _story_of(html: str, text: str) -> str:
    """The <details> of the prompt line holding ``text``."""
    for block in re.findall(r'<details class="pl".*?</details>', html, flags=re.S):
        if text in block:
            return block
    raise AssertionError(f"no prompt line holds {text!r}")


def test_each_prompt_line_opens_its_story(operator_client, agent, operator):
    persona_edit(
        agent=agent,
        by=actor_for_user(operator),
        changes={"guardrails": ["Never share a customer's address."]},
        reason="Privacy first",
        base_version=1,
    )
    messages = add_conversations(agent, n=2)
    proposal = add_proposal(agent, evidence=evidence_for(messages))
    proposal_apply(proposal=proposal, by="rita")
    html = operator_client.get(reverse("persona:agent", args=[agent.slug])).content.decode()
    guardrail = _story_of(html, "1. Never share a customer&#x27;s address.")
    assert "Version 2: dashboard form by olivia." in guardrail
    assert "Privacy first" in guardrail and "?before=3#v2" in guardrail
    learned = _story_of(html, "(Learned: ")
    assert f"learned from proposal {proposal.pk}, approved by rita" in learned
    assert "plan the sourdough order" in learned  # the verified quotes
    assert reverse("memory:conversation", args=[messages[0].conversation_id]) in learned
    # the headings are personaweb's words: shown, with nothing to open
    assert '<div class="pl pl-frame"' in html
    assert "Guardrails (always follow these" not in "".join(
        re.findall(r'<details class="pl".*?</details>', html, flags=re.S)
    )


def test_a_partial_prompt_keeps_its_stories(operator_client, agent):
    html = operator_client.get(
        reverse("persona:agent", args=[agent.slug]), HTTP_HX_TARGET="prompt", **HX
    ).content.decode()
    assert "<html" not in html and 'data-testid="line-story"' in html


def test_a_reply_shows_the_prompt_version_and_the_memories_it_was_given(
    operator_client, agent, tenant
):
    likes = add_belief(agent, "Likes lentil soup", category="likes")
    vegan = add_belief(agent, "Eats no meat", category="constraints")
    pack = add_pack(agent, [likes, vegan], pinned=[vegan])
    turn = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="dinner",
        user_text="What should I cook?",
        assistant_text="A lentil soup.",
        context_pack=pack,
    )
    record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="dinner",
        user_text="And tomorrow?",
        assistant_text="Bean stew.",
    )
    url = reverse("memory:conversation", args=[turn.conversation.pk])
    html = operator_client.get(url).content.decode()
    shaped = re.findall(r'<details class="shaped".*?</details>', html, flags=re.S)
    assert len(shaped) == 1  # only the reply recorded with a pack
    assert "Shaped by persona v1" in shaped[0] and "?before=2#v1" in shaped[0]
    assert "2 memories given" in shaped[0]
    person = reverse("memory:person", args=[likes.principal_id])
    assert f"{person}#belief-{likes.pk}" in shaped[0] and "Likes lentil soup" in shaped[0]
    assert "Eats no meat" in shaped[0] and "pinned" in shaped[0]


def test_the_conversation_page_reads_packs_in_constant_queries(
    operator_client, agent, django_assert_max_num_queries
):
    beliefs = [add_belief(agent, f"Likes dish number {i}") for i in range(4)]
    first = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="long",
        user_text="Question 0?",
        assistant_text="Answer 0.",
        context_pack=add_pack(agent, beliefs[:1]),
    )
    url = reverse("memory:conversation", args=[first.conversation.pk])
    small = count_queries(operator_client, url)
    for i in range(1, 30):
        record_turn(
            agent=agent,
            principal_external_id="ana",
            conversation="long",
            user_text=f"Question {i}?",
            assistant_text=f"Answer {i}.",
            context_pack=add_pack(agent, beliefs),
        )
    assert count_queries(operator_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        html = operator_client.get(url).content.decode()
    assert html.count('data-testid="shaped"') == 30
