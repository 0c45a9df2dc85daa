from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from dashboard.demo_data import (
    PLANTED_DESK_CORRECTION,
    PLANTED_DESK_SECOND_CORRECTION,
    PLANTED_DESK_THEME,
    PLANTED_PIP_CORRECTION,
    PLANTED_PIP_DIRECTIVE,
    PLANTED_PIP_SECOND_THEME,
    PLANTED_PIP_THEME,
)
from learning.models import LearningSettings
from memory.models import Conversation, EntityFact, Message, Principal
from persona.models import AgentPersonaVersion, SourceType
from tenancy.models import Agent, Membership, Tenant

pytestmark = pytest.mark.django_db

#: PRODUCT.md's default max_threads: how many recent conversations a review reads.
MAX_THREADS = 8


def _seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def seeded() -> str:
    return _seed()


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _table_counts() -> dict[str, int]:
    user_model = get_user_model()
    return {
        "tenants": Tenant.objects.count(),
        "agents": Agent.objects.count(),
        "versions": AgentPersonaVersion.objects.count(),
        "settings": LearningSettings.objects.count(),
        "principals": Principal.objects.count(),
        "conversations": Conversation.objects.count(),
        "messages": Message.objects.count(),
        "facts": EntityFact.objects.count(),
        "users": user_model.objects.count(),
        "memberships": Membership.objects.count(),
        "user_groups": user_model.groups.through.objects.count(),
    }


def _readable(agent: Agent) -> list[Conversation]:
    return list(
        Conversation.objects.filter(agent=agent, sealed=False)
        .select_related("principal")
        .order_by("-last_message_at", "-id")
    )


def _user_messages_with(agent: Agent, phrase: str) -> list[Message]:
    wanted = _norm(phrase)
    return [
        m
        for m in Message.objects.filter(conversation__agent=agent, role=Message.Role.USER)
        .select_related("conversation__principal")
        .order_by("conversation_id", "seq")
        if wanted in _norm(m.text)
    ]


def _corrections(agent: Agent, phrase: str) -> list[Message]:
    """User messages holding ``phrase`` written right after an assistant message."""
    wanted = _norm(phrase)
    found = []
    previous: Message | None = None
    for message in (
        Message.objects.filter(conversation__agent=agent)
        .select_related("conversation__principal")
        .order_by("conversation_id", "seq")
    ):
        if (
            message.role == Message.Role.USER
            and previous is not None
            and previous.conversation_id == message.conversation_id
            and previous.role == Message.Role.ASSISTANT
            and wanted in _norm(message.text)
        ):
            found.append(message)
        previous = message
    return found


def _round_robin_window(agent: Agent, limit: int = MAX_THREADS) -> set[int]:
    """Team mode's reading order: each person's most recent readable conversation in turn."""
    by_person: dict[int, list[Conversation]] = {}
    for conv in _readable(agent):  # newest first
        by_person.setdefault(conv.principal_id, []).append(conv)
    queues = list(by_person.values())  # people ordered by their newest conversation
    picked: list[int] = []
    while len(picked) < limit and any(queues):
        for queue in queues:
            if queue and len(picked) < limit:
                picked.append(queue.pop(0).id)
    return set(picked)


def test_seed_demo_creates_everything_and_a_second_run_adds_nothing() -> None:
    first = _seed()
    assert "added 2 tenants, 2 agents (5 persona versions), 4 people" in first
    after_first = _table_counts()
    assert after_first["agents"] == 2
    assert after_first["conversations"] == Conversation.objects.filter(
        agent__slug="pip"
    ).count() + (Conversation.objects.filter(agent__slug="claims-desk").count())
    assert Conversation.objects.filter(agent__slug="pip").count() == 18
    assert Conversation.objects.filter(agent__slug="claims-desk").count() == 24

    second = _seed()
    assert "nothing added" in second
    assert _table_counts() == after_first


def test_seed_demo_fills_in_a_conversation_that_is_missing(seeded: str) -> None:
    before = _table_counts()
    conv = Conversation.objects.get(agent__slug="pip", external_id="pip-tax-mileage")
    lost = conv.message_count
    conv.delete()

    _seed()

    assert _table_counts() == before
    assert (
        Conversation.objects.get(agent__slug="pip", external_id="pip-tax-mileage").message_count
        == lost
    )


def test_personal_assistant_persona_settings_and_history(seeded: str) -> None:
    pip = Agent.objects.select_related("tenant").get(slug="pip")
    assert (pip.tenant.slug, pip.tenant.name) == ("maya", "Maya Okafor (personal)")
    assert pip.name == "Pip"
    head = AgentPersonaVersion.objects.get(agent=pip, version=pip.persona_version)
    assert head.role == "Personal assistant to Maya Okafor"
    assert len(head.guardrails) == 3
    assert any("explicit go-ahead" in g for g in head.guardrails)
    assert head.goals and head.background
    # version 1 plus the operator's form edits, each with a reason
    history = list(AgentPersonaVersion.objects.filter(agent=pip).order_by("version"))
    assert [v.version for v in history] == [1, 2, 3, 4]
    assert all(v.source_type == SourceType.UI_FORM and v.reason for v in history)
    assert {f for v in history[1:] for f in v.fields_changed} == {"goals", "background"}

    learning = LearningSettings.objects.get(agent=pip)
    assert learning.mode == "on-with-review"
    assert (learning.across_users, learning.standing_rules, learning.min_conversations) == (
        False,
        False,
        3,
    )
    assert learning.turns_since_review > 0  # the seeded turns count towards the first review

    assert list(
        Principal.objects.filter(tenant=pip.tenant).values_list("external_id", "display_name")
    ) == [("maya", "Maya Okafor")]


def test_pip_recurring_kind_of_work_is_in_at_least_three_readable_conversations(
    seeded: str,
) -> None:
    pip = Agent.objects.get(slug="pip")
    hits = _user_messages_with(pip, PLANTED_PIP_THEME)
    readable = {m.conversation_id for m in hits if not m.conversation.sealed}
    assert len(readable) >= 5
    # the wording around the phrase varies: not one message copied five times
    assert len({_norm(m.text) for m in hits}) == len(hits)
    # the sealed conversation talks about wholesale pricing too (a trap for learning)
    assert any(m.conversation.sealed for m in hits)
    # a review reads the most recent conversations: the pattern must be there
    recent = {c.id for c in _readable(pip)[:MAX_THREADS]}
    assert len(readable & recent) >= 3

    kiln = {m.conversation_id for m in _user_messages_with(pip, PLANTED_PIP_SECOND_THEME)}
    assert len(kiln) >= 3


def test_pip_corrections_directive_and_sealed_conversation(seeded: str) -> None:
    pip = Agent.objects.get(slug="pip")
    corrections = _corrections(pip, PLANTED_PIP_CORRECTION)
    assert len({m.conversation_id for m in corrections}) == 2

    directives = Message.objects.filter(conversation__agent=pip, text=PLANTED_PIP_DIRECTIVE)
    assert directives.count() == 1
    directive = directives.select_related("conversation").get()
    assert directive.role == Message.Role.USER
    assert not directive.conversation.sealed
    # it sits in a conversation a review would otherwise read
    assert directive.conversation_id in {c.id for c in _readable(pip)[:MAX_THREADS]}

    assert Conversation.objects.filter(agent=pip, sealed=True).count() == 1


def test_desk_people_settings_and_sealed_conversation(seeded: str) -> None:
    desk = Agent.objects.select_related("tenant").get(slug="claims-desk")
    assert (desk.tenant.slug, desk.tenant.name) == ("harbour", "Harbour Insurance")
    head = AgentPersonaVersion.objects.get(agent=desk, version=desk.persona_version)
    assert head.name == "Claims desk assistant"
    assert head.role == "Drafts customer updates for the claims desk"
    assert "Never give a customer a coverage decision." in head.guardrails
    assert len(head.guardrails) == 3

    learning = LearningSettings.objects.get(agent=desk)
    assert learning.mode == "on-with-review"
    assert learning.across_users and learning.standing_rules
    assert learning.rule_owners == ["dev", "callum"]

    people = dict(
        Principal.objects.filter(tenant=desk.tenant).values_list("external_id", "display_name")
    )
    assert people == {"dev": "Dev Patel", "callum": "Callum Reid", "priya": "Priya Shah"}
    per_person = {
        p: Conversation.objects.filter(agent=desk, principal__external_id=p).count() for p in people
    }
    assert all(n >= 6 for n in per_person.values()), per_person
    assert Conversation.objects.filter(agent=desk, sealed=True).count() == 1


def test_desk_theme_recurs_across_people(seeded: str) -> None:
    desk = Agent.objects.get(slug="claims-desk")
    hits = [m for m in _user_messages_with(desk, PLANTED_DESK_THEME) if not m.conversation.sealed]
    assert len({m.conversation_id for m in hits}) >= 3
    assert {m.conversation.principal.external_id for m in hits} == {"dev", "callum", "priya"}
    window = _round_robin_window(desk)
    assert len({m.conversation_id for m in hits} & window) >= 3


@pytest.mark.parametrize(
    ("phrase", "min_conversations"),
    [(PLANTED_DESK_CORRECTION, 5), (PLANTED_DESK_SECOND_CORRECTION, 3)],
)
def test_desk_corrections_recur_across_people_in_what_a_review_reads(
    seeded: str, phrase: str, min_conversations: int
) -> None:
    desk = Agent.objects.get(slug="claims-desk")
    corrections = [m for m in _corrections(desk, phrase) if not m.conversation.sealed]
    conversations = {m.conversation_id for m in corrections}
    people = {m.conversation.principal.external_id for m in corrections}
    assert len(conversations) >= min_conversations
    assert len(people) >= 2

    # inside team mode's round-robin window of MAX_THREADS conversations, still >= 3 / >= 2
    window = _round_robin_window(desk)
    in_window = [m for m in corrections if m.conversation_id in window]
    assert len({m.conversation_id for m in in_window}) >= 3
    assert len({m.conversation.principal.external_id for m in in_window}) >= 2


def test_desk_first_request_with_the_correction_wording_is_not_a_correction(seeded: str) -> None:
    desk = Agent.objects.get(slug="claims-desk")
    all_mentions = {m.id for m in _user_messages_with(desk, PLANTED_DESK_CORRECTION)}
    after_reply = {m.id for m in _corrections(desk, PLANTED_DESK_CORRECTION)}
    first_requests = all_mentions - after_reply
    assert first_requests
    assert all(Message.objects.get(id=i).seq == 1 for i in first_requests)


def test_entity_facts_name_the_people_and_companies_mentioned(seeded: str) -> None:
    facts = {f.entity: f for f in EntityFact.objects.select_related("tenant", "source_message")}
    expected = {
        "Tomasz": ("maya", "person"),
        "Harlow & Finch": ("maya", "company"),
        "Mrs Alder": ("harbour", "person"),
        "Kestrel Glazing": ("harbour", "company"),
    }
    for entity, (tenant_slug, kind) in expected.items():
        assert facts[entity].tenant.slug == tenant_slug
        assert facts[entity].kind == kind
    for fact in facts.values():
        assert fact.source_message is not None, fact.entity
        assert fact.source_message.role == Message.Role.USER
        assert fact.entity.casefold() in fact.source_message.text.casefold()


def test_dashboard_users_are_reviewers_of_their_tenant_without_passwords(seeded: str) -> None:
    user_model = get_user_model()
    expected = {"maya": "maya", "dev": "harbour", "callum": "harbour", "priya": "harbour"}
    for username, tenant_slug in expected.items():
        user = user_model.objects.get(username=username)
        assert not user.has_usable_password()
        assert not user.is_superuser and not user.is_staff
        assert list(user.groups.values_list("name", flat=True)) == ["reviewer"]
        assert list(user.memberships.values_list("tenant__slug", flat=True)) == [tenant_slug]


def test_messages_are_dated_over_weeks_ending_before_now_and_rendered(seeded: str) -> None:
    now = timezone.now()
    for slug, min_span in (("pip", timedelta(days=28)), ("claims-desk", timedelta(days=21))):
        times = list(
            Message.objects.filter(conversation__agent__slug=slug).values_list(
                "created_at", flat=True
            )
        )
        assert max(times) < now
        assert max(times) > now - timedelta(days=5)  # ends close to "now"
        assert max(times) - min(times) >= min_span
    for conv in Conversation.objects.all():
        seqs_and_times = list(conv.messages.order_by("seq").values_list("created_at", "role"))
        assert [t for t, _ in seqs_and_times] == sorted(t for t, _ in seqs_and_times)
        assert [r for _, r in seqs_and_times][:2] == ["user", "assistant"]
    # every date placeholder was filled in
    assert not Message.objects.filter(text__contains="{full").exists()
    assert not Message.objects.filter(text__contains="{short").exists()
    desk_weekend = [
        c.external_id
        for c in Conversation.objects.filter(agent__slug="claims-desk")
        if timezone.localtime(c.started_at).weekday() >= 5
    ]
    assert desk_weekend == []
