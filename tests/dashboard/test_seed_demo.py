from __future__ import annotations

from collections import Counter
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone

from dashboard.demo_data import (
    DESKS,
    PIP,
    PLANTED_DESK_CORRECTION,
    PLANTED_DESK_SECOND_CORRECTION,
    PLANTED_DESK_THEME,
    PLANTED_PIP_CORRECTION,
    PLANTED_PIP_DIRECTIVE,
    PLANTED_PIP_SECOND_THEME,
    PLANTED_PIP_THEME,
    PLANTED_STATEMENTS,
)
from learning.models import LearningSettings
from memory.consolidation import consolidate
from memory.context import build_context
from memory.models import (
    Belief,
    ConsolidationState,
    Conversation,
    EntityFact,
    Intention,
    Message,
    Principal,
    Routine,
)
from persona.models import AgentPersonaVersion, SourceType
from safety.directives import is_directive
from safety.injection import scan, scan_many
from safety.secrets import find_secrets
from tenancy.models import Agent, Membership, Tenant

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def words_only(settings):
    """Beliefs compared on words only: no embedding model per seed (the test of the
    consolidated beliefs puts it back, as ``make run`` has it)."""
    settings.MEMORY_BELIEF_EMBEDDINGS = False


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
        "beliefs": Belief.objects.count(),
        "corroborations": Belief.objects.aggregate(n=Sum("corroboration_count"))["n"],
        "intentions": Intention.objects.count(),
        "routines": Routine.objects.count(),
        "routine_observations": Routine.objects.aggregate(n=Sum("observations"))["n"],
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
    beliefs = len(PLANTED_STATEMENTS) + sum(len(d.beliefs) for d in DESKS)
    assert f"{beliefs} beliefs, 2 intentions, 1 routine and 4 dashboard users" in first
    after_first = _table_counts()
    assert after_first["beliefs"] == beliefs
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
    # the belief quoting it keeps its words; its message is gone
    assert Belief.objects.get(statement="Is a sole trader.").evidence_message is None

    _seed()

    # the conversation is back and consolidation read it again: it corroborated the
    # belief (and gave it its evidence back) instead of adding a second one
    assert _table_counts() == {**before, "corroborations": before["corroborations"] + 1}
    conv = Conversation.objects.get(agent__slug="pip", external_id="pip-tax-mileage")
    assert conv.message_count == lost
    belief = Belief.objects.get(statement="Is a sole trader.")
    assert belief.evidence_message.conversation == conv
    assert belief.corroboration_count == 2


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


# --- memory: what the assistants remember about the people -------------------------------


def test_consolidation_forms_the_planted_beliefs_with_verified_quotes(settings) -> None:
    settings.MEMORY_BELIEF_EMBEDDINGS = True  # as `make run` has it
    _seed()
    formed = list(
        Belief.objects.filter(evidence_message__isnull=False).select_related(
            "principal", "agent", "evidence_message__conversation"
        )
    )
    assert {(b.principal.external_id, b.evidence_quote, b.statement) for b in formed} == set(
        PLANTED_STATEMENTS
    )
    for belief in formed:
        message = belief.evidence_message
        assert message.role == Message.Role.USER
        assert not message.conversation.sealed
        assert message.conversation.principal_id == belief.principal_id
        assert message.conversation.agent_id == belief.agent_id
        assert message.text[belief.evidence_start : belief.evidence_end] == belief.evidence_quote
        assert belief.status == Belief.Status.ACTIVE and belief.source == "direct"
        assert belief.embedding_id is not None
    slugs = {d.agent_slug: {p for p, _ in d.people} for d in DESKS}
    assert all(b.principal.external_id in slugs[b.agent.slug] for b in formed)

    # a second run reads nothing again and changes nothing
    before = sorted(Belief.objects.values_list("id", "corroboration_count", "confidence"))
    assert "nothing added" in _seed()
    assert sorted(Belief.objects.values_list("id", "corroboration_count", "confidence")) == before
    assert consolidate(agent=Agent.objects.get(slug="pip")).messages_read == 0


def test_consolidation_of_the_demo_skips_nothing_but_the_directive(seeded: str) -> None:
    """Read again from the start: every first-person statement verifies and is stored
    (corroborated), and the only message left unread is the planted directive."""
    ConsolidationState.objects.update(last_message_id=0)
    pip = consolidate(agent=Agent.objects.get(slug="pip"))
    desk = consolidate(agent=Agent.objects.get(slug="claims-desk"))
    assert pip.skipped == Counter({"directive message": 1})
    assert desk.skipped == Counter()
    desk_of = {person: d.agent_slug for d in DESKS for person, _ in d.people}
    planted = Counter(desk_of[person] for person, _, _ in PLANTED_STATEMENTS)
    assert (pip.candidates, pip.corroborated, pip.created) == (planted["pip"], planted["pip"], 0)
    assert (desk.candidates, desk.corroborated, desk.created) == (
        planted["claims-desk"],
        planted["claims-desk"],
        0,
    )


def test_host_beliefs_have_validity_windows_and_one_has_ended(seeded: str) -> None:
    now = timezone.now()
    host = list(Belief.objects.exclude(source_host="").select_related("principal"))
    assert sorted(b.statement for b in host) == sorted(spec.statement for spec in PIP.beliefs)
    for belief in host:
        assert belief.principal.external_id == "maya" and belief.status == Belief.Status.ACTIVE
        assert belief.evidence_message_id is None
        assert belief.valid_from is not None and belief.valid_until is not None
    ended = [b for b in host if b.expired(now)]
    later = [b for b in host if b.not_yet_valid(now)]
    assert len(ended) == 1 and len(later) == 1 and len(host) == 3

    # an ended belief never answers a question about the present; it did while it held
    pip = Agent.objects.get(slug="pip")
    question = {"agent": pip, "principal_external_id": "maya", "query": "is the kiln working?"}
    pack = build_context(**question, now=now, use_embeddings=False)
    assert ended[0].id not in {i.id for i in pack.items}
    then = ended[0].valid_until - timedelta(hours=1)
    pack = build_context(**question, now=then, use_embeddings=False)
    assert pack.items[0].id == ended[0].id


def test_maya_has_an_agenda_with_one_intention_due_soon_and_a_routine(seeded: str) -> None:
    now = timezone.now()
    intentions = list(Intention.objects.filter(principal__external_id="maya"))
    assert len(intentions) == 2
    assert all(i.state == Intention.State.OPEN and i.due_at > now for i in intentions)
    soon = [i for i in intentions if i.due_at - now < timedelta(days=2)]
    assert len(soon) == 1 and soon[0].agenda_score(now) > 0
    pack = build_context(
        agent=Agent.objects.get(slug="pip"),
        principal_external_id="maya",
        query="anything on today?",
        now=now,
        use_embeddings=False,
    )
    assert [a.id for a in pack.agenda] == [soon[0].id]

    routine = Routine.objects.get(principal__external_id="maya")
    assert routine.status == Routine.Status.CONFIRMED
    assert routine.weekdays == [6] and routine.anchor_date < timezone.localdate(now)
    assert not Intention.objects.exclude(principal__external_id="maya").exists()


def test_the_demo_text_passes_the_scans_memory_applies(seeded: str) -> None:
    """What people wrote is read by consolidation and learning, which drop a directive, a
    secret or an injection-scan hit: only the planted directive is one. What memory
    stores and renders for a host (statements, actions) passes the full scan too."""
    assert is_directive(PLANTED_PIP_DIRECTIVE)
    messages = list(Message.objects.values_list("role", "text"))
    assert len(messages) > 150
    flagged = [
        text
        for role, text in messages
        if find_secrets(text)
        or scan(text, semantic=False).blocked
        or (role == Message.Role.USER and is_directive(text))
    ]
    assert flagged == [PLANTED_PIP_DIRECTIVE]

    stored = [
        *Belief.objects.values_list("statement", flat=True),
        *Intention.objects.values_list("action", flat=True),
        *Routine.objects.values_list("action", flat=True),
    ]
    assert len(stored) == len(PLANTED_STATEMENTS) + 3 + 2 + 1
    blocked = [
        t for t, r in zip(stored, scan_many(stored, semantic=True), strict=True) if r.blocked
    ]
    assert blocked == [] and [t for t in stored if find_secrets(t)] == []


def test_demo_people_logins_are_linked_to_themselves_for_my_persona(db):
    from django.core.management import call_command

    from persona.models import OwnerAccount

    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)  # twice: still one link each
    links = {a.user.username: a.principal.external_id for a in OwnerAccount.objects.all()}
    assert links.get("maya") == "maya"
    assert all(user == person for user, person in links.items())
