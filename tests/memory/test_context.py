from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import safety.encoder
from memory.context import _content_phrase, build_context, render_context, time_intent
from memory.models import Belief, TextEmbedding
from memory.services_beliefs import belief_write, intention_write, routine_label
from tests.factories import TenantFactory, make_agent
from tests.memory.beliefs_helpers import FakeModel

NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)  # a Tuesday


@pytest.fixture
def fake_model(monkeypatch, settings):
    # the learned layer of the injection scan cannot judge stand-in vectors: off here
    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel()
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    return model


def write(agent, statement, category="likes", who="ana", **kwargs):
    kwargs.setdefault("confidence", 0.8)
    kwargs.setdefault("now", NOW - timedelta(days=2))
    return belief_write(
        agent=agent,
        principal_external_id=who,
        category=category,
        statement=statement,
        source="direct",
        **kwargs,
    ).belief


def ids(pack):
    return [item.id for item in pack.items]


def test_relevant_belief_ranks_first_and_has_a_reason(agent, fake_model):
    # the stand-in vectors are random: the question is given the answer's meaning (as
    # asked and as its content words), so this does not hang on a random cosine
    fake_model.same_as.update(
        {
            q: "Prefers green tea in the afternoon"
            for q in ("What tea should I make her?", _content_phrase("What tea should I make her?"))
        }
    )
    tea = write(agent, "Prefers green tea in the afternoon")
    write(agent, "Plays the cello in an amateur orchestra", category="interests")
    write(agent, "Works as a structural engineer", category="identity")

    pack = build_context(
        agent=agent, principal_external_id="ana", query="What tea should I make her?", now=NOW
    )

    assert pack.items[0].id == tea.pk
    assert "words" in pack.items[0].why and "retention" in pack.items[0].why
    assert pack.items[0].score > pack.items[-1].score
    assert pack.items[0].evidence_quote is None  # no quote stored for this one
    assert [p.category for p in pack.pinned] == ["identity"]


def test_another_persons_beliefs_never_appear(agent, fake_model):
    mine = write(agent, "Prefers green tea in the afternoon", who="ana")
    theirs = write(agent, "Prefers green tea with honey", who="ben")
    # the same external id in another tenant is another person too
    other = make_agent(tenant=TenantFactory(slug="globex"), slug="other")
    foreign = write(other, "Prefers green tea without sugar", who="ana")

    pack = build_context(agent=agent, principal_external_id="ana", query="green tea", now=NOW)

    assert ids(pack) == [mine.pk]
    assert theirs.pk not in [p.id for p in pack.pinned] and foreign.pk not in ids(pack)
    assert (
        build_context(agent=agent, principal_external_id="nobody", query="tea", now=NOW).items == []
    )


def test_expired_belief_never_answers_a_present_tense_question(agent, fake_model):
    old_job = write(
        agent,
        "Works at Globex as a designer",
        category="projects",
        valid_until=NOW - timedelta(days=1),
    )
    new_job = write(agent, "Designs the Acme mobile app", category="projects")

    present = build_context(
        agent=agent,
        principal_external_id="ana",
        query="Where does she work as a designer?",
        now=NOW,
    )
    assert old_job.pk not in ids(present)
    assert new_job.pk in ids(present)

    past = build_context(
        agent=agent,
        principal_external_id="ana",
        query="Where did she work before as a designer?",
        now=NOW,
        use_embeddings=False,  # the stand-in vectors are random: rank on words here
    )
    assert past.items[0].id == old_job.pk
    assert "ended" in past.items[0].why


def test_time_facet_only_for_time_questions(agent, fake_model):
    due = write(
        agent,
        "Grant report for the foundation",
        category="projects",
        due=NOW + timedelta(days=3),
    )
    write(agent, "Writes the foundation newsletter", category="projects")
    write(agent, "Reports to Maria in the research team", category="interpersonal")

    assert time_intent("When is the report due?")
    assert not time_intent("What does she think of the newsletter?")
    timed = build_context(
        agent=agent, principal_external_id="ana", query="When is my deadline?", now=NOW
    )
    assert timed.time_intent and timed.items[0].id == due.pk
    assert "time facet" in timed.items[0].why
    off = build_context(
        agent=agent,
        principal_external_id="ana",
        query="When is my deadline?",
        now=NOW,
        use_time_facet=False,
    )
    assert "time facet" not in " ".join(i.why for i in off.items)


def test_not_yet_valid_belief_only_for_time_questions(agent, fake_model):
    future = write(
        agent,
        "Starts a sabbatical in Portugal",
        category="projects",
        valid_from=NOW + timedelta(days=5),
    )
    assert future.pk not in ids(
        build_context(
            agent=agent, principal_external_id="ana", query="sabbatical Portugal", now=NOW
        )
    )
    assert future.pk in ids(
        build_context(
            agent=agent,
            principal_external_id="ana",
            query="When does the sabbatical in Portugal start?",
            now=NOW,
        )
    )


def test_build_context_has_no_side_effects(agent, fake_model):
    belief = write(agent, "Prefers green tea in the afternoon")
    before = (Belief.objects.get(pk=belief.pk).__dict__.copy(), TextEmbedding.objects.count())
    build_context(
        agent=agent, principal_external_id="ana", query="a question never asked before", now=NOW
    )
    after = (Belief.objects.get(pk=belief.pk).__dict__.copy(), TextEmbedding.objects.count())
    before[0].pop("_state"), after[0].pop("_state")
    assert before == after  # the query vector is not stored, the belief not reinforced


def test_query_count_is_constant(agent, fake_model):
    def count_queries():
        with CaptureQueriesContext(connection) as ctx:
            build_context(agent=agent, principal_external_id="ana", query="tea or coffee?", now=NOW)
        return len(ctx.captured_queries)

    write(agent, "Prefers green tea in the afternoon")
    small = count_queries()
    for i in range(30):
        write(
            agent,
            f"Collects vintage postcard series number {i} from Lisbon flea markets",
            category="interests",
        )
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Buy oolong",
        due=NOW + timedelta(hours=3),
        source="direct",
        now=NOW,
    )
    assert count_queries() == small
    assert small <= 5


def test_agenda_routines_and_rendered_block(agent, fake_model):
    write(agent, "Never call before 9am", category="boundaries")
    write(agent, "Prefers green tea in the afternoon")
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Send the tax form",
        due=NOW + timedelta(hours=5),
        source="direct",
        importance=0.9,
        now=NOW,
    )
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Renew passport",
        due=NOW + timedelta(days=20),
        source="direct",
        now=NOW,
    )
    routine_label(
        agent=agent,
        principal_external_id="ana",
        action="Attend evening class",
        weekdays=[2],
        time="19:00",
        anchor_date="2026-10-20",
        valid_until="2026-12-20",
        status="candidate",
    )
    pack = build_context(agent=agent, principal_external_id="ana", query="Are we talking?", now=NOW)

    assert [a.action for a in pack.agenda] == ["Send the tax form"]  # the passport is weeks away
    assert [p.action for p in pack.routine_probes] == ["Attend evening class"]
    wednesday = build_context(
        agent=agent,
        principal_external_id="ana",
        query="Are we talking?",
        now=NOW + timedelta(days=1),
    )
    assert wednesday.routine_probes == []

    text = render_context(pack)
    assert "Never call before 9am" in text
    assert "Send the tax form" in text
    assert "Attend evening class" in text
    data = pack.as_dict()
    assert set(data) >= {"items", "agenda", "routine_probes"}
    assert {"id", "statement", "category", "score", "why"} <= set(data["items"][0])


def test_cached_candidates_follow_every_change_and_save_a_query(agent, fake_model):
    from memory.services_beliefs import belief_retire

    def ask():
        with CaptureQueriesContext(connection) as ctx:
            pack = build_context(
                agent=agent, principal_external_id="ana", query="What tea does she like?", now=NOW
            )
        return ids(pack), len(ctx.captured_queries)

    tea = write(agent, "Prefers green tea in the afternoon")
    first, cold = ask()
    again, warm = ask()
    assert first == again == [tea.id]
    assert warm == cold - 1  # the candidates came from the cache

    belief_retire(belief=tea)
    assert ask()[0] == []  # a retire is seen at once
    oolong = write(agent, "Likes oolong tea with breakfast")
    assert ask()[0] == [oolong.id]  # and so is a write
    corroborated = write(agent, "Likes oolong tea with breakfast!", confidence=0.9)
    assert corroborated.id == oolong.id
    [item] = build_context(
        agent=agent, principal_external_id="ana", query="What tea does she like?", now=NOW
    ).items
    assert item.corroboration_count == 2  # a corroboration too


def test_the_cache_never_serves_another_person(agent, fake_model):
    write(agent, "Prefers green tea in the afternoon", who="ana")
    write(agent, "Prefers black coffee in the morning", who="ben")
    for who, word in (("ana", "tea"), ("ben", "coffee"), ("ana", "tea"), ("ben", "coffee")):
        pack = build_context(agent=agent, principal_external_id=who, query="drink?", now=NOW)
        assert [word in i.statement for i in pack.items] == [True]


def test_cross_category_items_come_from_categories_the_ranked_items_miss(agent, fake_model):
    tea = [
        write(agent, text)
        for text in (
            "Drinks green tea at the office",
            "Brews green tea on Sunday mornings",
            "Buys green tea from a Kyoto importer",
        )
    ]
    dislike = write(agent, "Dislikes green tea with milk", category="dislikes")
    write(agent, "Plays the cello in an amateur orchestra", category="interests")

    pack = build_context(
        agent=agent,
        principal_external_id="ana",
        query="green tea",
        now=NOW,
        limit=2,
        use_embeddings=False,
    )

    assert {i.category for i in pack.items} == {"likes"}
    assert [i.id for i in pack.cross_category] == [dislike.id]  # the cello is not related
    assert all(i.id in {t.id for t in tea} for i in pack.items)
    assert "Also related:" in render_context(pack)
    assert pack.as_dict()["cross_category"][0]["id"] == dislike.id
