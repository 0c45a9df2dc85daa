"""A persona field that says what a guardrail forbids is refused on every write, whoever
writes it; learning's proposals meet the same rule and name the same reason."""

from __future__ import annotations

import pytest

from learning.policy import rule_refusal
from learning.services import change_undo, proposal_apply
from persona.guardrails import guardrail_contradiction
from persona.models import AgentPersonaVersion, SourceType
from persona.services import ChangeTrigger, GuardrailContradicted, persona_version_create
from tests.builders import add_proposal
from tests.factories import make_agent

GUARDRAIL = "Never promise a payment amount."
PROMISING = "When the user asks about claims, always promise the payment is guaranteed."
WRITERS = [
    SourceType.HOST,
    SourceType.MANUAL,  # the CLI and a Hermes import
    SourceType.UI_FORM,
    SourceType.UPDATE_PERSONA,  # the host's persona_update (MCP and /v1)
    SourceType.PERSONA_LEARNING,
]


@pytest.fixture
def claims(tenant):
    return make_agent(
        tenant=tenant,
        slug="claims",
        name="Claims desk",
        goals="Handles insurance claims for small businesses.",
        guardrails=[GUARDRAIL],
    )


def write(agent, source: str, **changes):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=source, reason="test edit", approved_by="olivia"),
    )


@pytest.mark.django_db
@pytest.mark.parametrize("source", WRITERS)
def test_a_goals_sentence_promising_what_a_guardrail_forbids_is_refused_for_every_writer(
    claims, source
):
    with pytest.raises(GuardrailContradicted) as refused:
        write(claims, source, goals=f"Handles insurance claims. {PROMISING}")
    message = str(refused.value)
    assert message.startswith("The goals field goes against guardrail 1")
    assert f'("{GUARDRAIL}")' in message and "always promise the payment" in message
    assert "nothing was saved" in message
    claims.refresh_from_db()
    assert claims.persona_version == 1
    assert AgentPersonaVersion.objects.filter(agent=claims).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "role", "background"])
def test_every_text_field_is_checked(claims, field):
    with pytest.raises(GuardrailContradicted, match=f"^The {field} field goes against"):
        write(claims, SourceType.HOST, **{field: "Guarantees payment amounts to every claimant."})


@pytest.mark.django_db
def test_a_new_guardrail_is_checked_against_the_goals_written_with_it(tenant):
    agent = make_agent(tenant=tenant, slug="plain", goals="Handles insurance claims.")
    with pytest.raises(GuardrailContradicted):
        write(agent, SourceType.MANUAL, goals=PROMISING, guardrails=[GUARDRAIL])
    with pytest.raises(GuardrailContradicted):
        make_agent(tenant=tenant, slug="born-bad", goals=PROMISING, guardrails=[GUARDRAIL])


@pytest.mark.django_db
def test_an_undo_that_would_bring_back_a_contradiction_is_refused(tenant, people):
    agent = make_agent(tenant=tenant, slug="undo-desk", goals="Handles insurance claims.")
    write(agent, SourceType.MANUAL, goals=f"Handles insurance claims. {PROMISING}")
    proposal_apply(proposal=add_proposal(agent), by="rita")
    write(agent, SourceType.HOST, guardrails=[GUARDRAIL])  # the goals now contradict it
    with pytest.raises(GuardrailContradicted, match="goes against guardrail 1"):
        change_undo(agent=agent, by="rita")
    agent.refresh_from_db()
    assert agent.persona_version == 4


HONEST = [
    "Helps customers understand payment schedules and amounts.",
    "Tracks payment amounts owed by each client.",
    "Explains payment amounts and due dates to customers.",
    "Never promises a payment amount before the claim is approved.",
    "Does not promise payment amounts; explains how claims are assessed.",
    "Sends payment reminders to customers.",
    "Keeps every promise made to a customer about payment dates on file.",
    "Promises fast, friendly replies.",
]


@pytest.mark.django_db
@pytest.mark.parametrize("goals", HONEST)
def test_honest_goals_near_the_guardrails_words_are_saved(claims, goals):
    version = write(claims, SourceType.UPDATE_PERSONA, goals=goals)
    assert version.goals == goals


@pytest.mark.parametrize(
    ("text", "guardrail", "how"),
    [
        (
            "Shares order history with other customers.",
            "Never disclose another customer's order history.",
            "goes against",
        ),
        (
            "Never discloses order history unless the customer is a regular.",
            "Never disclose another customer's order history.",
            'carves an exception ("unless")',
        ),
        (
            "Gives firing times without quoting the kiln temperature.",
            "Quote the kiln temperature before giving a firing time.",
            "goes against",
        ),
        (
            "Quotes final prices for cakes before the design is agreed.",
            "Never quote a final price for a cake before the design is agreed.",
            "goes against",
        ),
        (
            "Runs the kiln with the lid open to save time.",
            "Never run the kiln with the lid propped open.",
            "goes against",
        ),
    ],
)
def test_each_way_of_going_against_a_guardrail_is_named(text, guardrail, how):
    reason = guardrail_contradiction(text, [guardrail])
    assert reason is not None and reason.startswith(how) and f'("{guardrail}")' in reason


@pytest.mark.parametrize(
    ("text", "guardrail"),
    [
        (
            "Answers questions about a customer's own order history.",
            "Never disclose another customer's order history.",
        ),
        (
            "Sends weekly order reports to the accountant.",
            "Never disclose another customer's order history.",
        ),
        (
            "Quotes the kiln temperature before giving a firing time.",
            "Quote the kiln temperature before giving a firing time.",
        ),
        (
            "Quotes final prices once the design is agreed.",
            "Never quote a final price for a cake before the design is agreed.",
        ),
        (
            "Runs kiln firings for a pottery studio.",
            "Never run the kiln with the lid propped open.",
        ),
    ],
)
def test_text_sharing_a_guardrails_words_without_going_against_it_passes(text, guardrail):
    assert guardrail_contradiction(text, [guardrail]) is None


def test_learning_refuses_the_same_sentence_for_the_same_reason():
    text = "Always promise the payment is guaranteed."
    reason = guardrail_contradiction(text, [GUARDRAIL])
    assert reason is not None
    refusal = rule_refusal(
        rule=text, persona={"guardrails": [GUARDRAIL], "standing_rules": []}, known_names=set()
    )
    assert refusal == f"The rule {reason}."


@pytest.mark.django_db
def test_persona_refuses_with_the_reason_learning_gives(claims):
    text = "Always promise the payment is guaranteed."
    with pytest.raises(GuardrailContradicted) as refused:
        write(claims, SourceType.UPDATE_PERSONA, goals=text)
    assert guardrail_contradiction(text, [GUARDRAIL]) in str(refused.value)
