"""A person's packed belief block (``memory.candidates``): it holds exactly what the
beliefs hold for the token it was built for, a block of an older token is never read,
a rebuild racing a write never labels old content with the new token, and packs built
from a block equal packs built from the beliefs."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from django.db import connection, connections

import safety.encoder
from memory import candidates, context
from memory.context import build_context
from memory.models import BeliefBlock, Principal
from memory.services_beliefs import belief_retire, belief_write
from tests.factories import TenantFactory, make_agent
from tests.memory.beliefs_helpers import FakeModel

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
STATEMENTS = [
    ("Prefers green tea in the afternoon", "likes"),
    ("Plays the cello in an amateur orchestra", "interests"),
    ("Works as a structural engineer", "identity"),
    ("Is learning German on weekday evenings", "goals"),
    ("Cannot eat peanuts", "constraints"),
    ("Lives in Porto near the river", "explicit_facts"),
]


@pytest.fixture
def fake_model(monkeypatch, settings):
    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel()
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    return model


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(candidates, "BLOCK_MIN_ROWS", 3)


def write(agent, statement, category="likes", **kwargs):
    return belief_write(
        agent=agent,
        principal_external_id="ana",
        category=category,
        statement=statement,
        source="direct",
        confidence=0.8,
        now=kwargs.pop("now", NOW - timedelta(days=2)),
        **kwargs,
    ).belief


def principal_of(agent) -> Principal:
    return Principal.objects.get(tenant=agent.tenant, external_id="ana")


def assert_same(a: candidates.Candidates, b: candidates.Candidates) -> None:
    assert a.rows == b.rows
    for name in candidates._ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), name
    assert a.postings.keys() == b.postings.keys()
    for term in a.postings:
        assert list(a.postings[term]) == list(b.postings[term]), term


def test_a_block_holds_exactly_what_the_beliefs_hold(agent, fake_model, small_blocks):
    for statement, category in STATEMENTS:
        write(agent, statement, category, due=NOW + timedelta(days=3))
    person = principal_of(agent)
    assert candidates.rebuild_block(person.pk) == len(STATEMENTS)
    block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None
    assert_same(block, candidates.load_from_beliefs(person.pk))
    assert block.has_vec.all()  # the vectors came along


def test_a_block_keeps_superseded_rows_and_the_belief_that_replaced_them(
    agent, fake_model, small_blocks
):
    from memory.services_beliefs import belief_correct

    written = [write(agent, s, c) for s, c in STATEMENTS]
    correction = belief_correct(belief=written[0], statement="Loves salted caramel", now=NOW).belief
    person = principal_of(agent)
    # the block holds the superseded row beside the active ones
    assert candidates.rebuild_block(person.pk) == len(STATEMENTS) + 1
    block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None
    assert_same(block, candidates.load_from_beliefs(person.pk))
    row = {int(i): k for k, i in enumerate(block.ids)}
    assert not block.active[row[written[0].pk]]
    assert block.heir[row[written[0].pk]] == row[correction.pk]
    assert block.active_count == len(STATEMENTS)


def test_a_person_with_few_beliefs_gets_no_block_and_loses_an_old_one(
    agent, fake_model, monkeypatch
):
    for statement, category in STATEMENTS[:3]:
        write(agent, statement, category)
    person = principal_of(agent)
    assert candidates.rebuild_block(person.pk) is None
    assert not BeliefBlock.objects.exists()
    monkeypatch.setattr(candidates, "BLOCK_MIN_ROWS", 2)
    assert candidates.rebuild_block(person.pk) == 3
    monkeypatch.setattr(candidates, "BLOCK_MIN_ROWS", 4)
    assert candidates.rebuild_block(person.pk) is None
    assert not BeliefBlock.objects.exists()


def test_after_a_change_the_old_block_is_never_read(agent, fake_model, small_blocks):
    written = [write(agent, s, c) for s, c in STATEMENTS]
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    old_token = person.beliefs_token
    belief_retire(belief=written[0])
    new = write(agent, "Drinks oolong now", "likes")
    person.refresh_from_db()
    assert person.beliefs_token != old_token
    assert candidates.read_block(person.pk, person.beliefs_token) is None
    context.clear_candidate_cache()
    pack = build_context(
        agent=agent, principal_external_id="ana", query="What tea does she drink?", now=NOW
    )
    shown = [i.id for i in pack.items] + [i.id for i in pack.pinned]
    assert new.pk in shown and written[0].pk not in shown
    # rebuilt, the block holds the change
    candidates.rebuild_block(person.pk)
    block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None and new.pk in block.ids and written[0].pk not in block.ids


def test_packs_from_the_block_equal_packs_from_the_beliefs(agent, fake_model, small_blocks):
    for statement, category in STATEMENTS:
        write(agent, statement, category, valid_until=NOW + timedelta(days=30))
    person = principal_of(agent)
    questions = ["What tea should I make her?", "When is she free on Friday?", "Her job?"]

    def packs():
        context.clear_candidate_cache()
        return [
            build_context(agent=agent, principal_external_id="ana", query=q, now=NOW).as_dict()
            for q in questions
        ]

    from_beliefs = packs()
    candidates.rebuild_block(person.pk)
    read = []
    original = candidates.read_block

    def spy(principal_id, token):
        out = original(principal_id, token)
        read.append(out is not None)
        return out

    candidates.read_block = spy
    try:
        from_block = packs()
    finally:
        candidates.read_block = original
    assert read and all(read)  # the packs really came from the block
    assert from_block == from_beliefs


def test_a_rebuild_racing_a_write_never_labels_old_content_with_the_new_token(
    agent, fake_model, small_blocks, monkeypatch
):
    for statement, category in STATEMENTS:
        write(agent, statement, category)
    person = principal_of(agent)
    original = candidates.load_from_beliefs

    def load_then_a_write_lands(principal_id):
        cand = original(principal_id)
        write(agent, "Took up bouldering", "interests")  # commits a new token meanwhile
        return cand

    monkeypatch.setattr(candidates, "load_from_beliefs", load_then_a_write_lands)
    candidates.rebuild_block(person.pk)
    person.refresh_from_db()
    # nothing stored under the current token: the content read lacks the new belief
    assert candidates.read_block(person.pk, person.beliefs_token) is None
    monkeypatch.setattr(candidates, "load_from_beliefs", original)
    candidates.rebuild_block(person.pk)
    block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None and block.n == len(STATEMENTS) + 1


def test_a_change_asks_a_worker_to_rebuild_only_a_person_with_a_block(
    agent, fake_model, small_blocks, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    asked: list[int] = []
    monkeypatch.setattr(candidates, "schedule_rebuild", asked.append)
    with django_capture_on_commit_callbacks(execute=True):
        write(agent, *STATEMENTS[0])
    assert asked == []  # no block yet
    for statement, category in STATEMENTS[1:]:
        write(agent, statement, category)
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    with django_capture_on_commit_callbacks(execute=True):
        write(agent, "Took up bouldering", "interests")
    assert asked == [person.pk]
    # a read that falls back to the beliefs of a big person asks too
    asked.clear()
    for _ in range(3):  # many reads before the worker is done ask once
        context.clear_candidate_cache()
        build_context(agent=agent, principal_external_id="ana", query="Hobbies?", now=NOW)
    assert asked == [person.pk]


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_rebuilds_and_writes_at_once_leave_no_block_that_disagrees_with_its_token(
    fake_model, small_blocks
):
    agent = make_agent(tenant=TenantFactory(slug="race-blocks"), slug="race-blocks")
    for statement, category in STATEMENTS:
        write(agent, statement, category)
    person = principal_of(agent)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    checked: list[bool] = []

    def writer() -> None:
        try:
            barrier.wait(timeout=30)
            for i in range(12):
                write(agent, f"Visited town number {i} last spring", "explicit_facts")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connections.close_all()

    def rebuilder() -> None:
        try:
            barrier.wait(timeout=30)
            for _ in range(12):
                candidates.rebuild_block(person.pk)
                token = Principal.objects.get(pk=person.pk).beliefs_token
                block = candidates.read_block(person.pk, token)
                if block is not None:  # current: it must be exact
                    fresh = candidates.load_from_beliefs(person.pk)
                    if Principal.objects.get(pk=person.pk).beliefs_token == token:
                        checked.append(list(block.ids) == list(fresh.ids))
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer), threading.Thread(target=rebuilder)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert all(checked)
    candidates.rebuild_block(person.pk)
    person.refresh_from_db()
    block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None
    assert_same(block, candidates.load_from_beliefs(person.pk))
    # the writes landed (some supersede one another: one fact about the same towns)
    assert "Visited town number 11 last spring" in [row[2] for row in block.rows]


def test_a_block_is_read_with_one_counted_query(agent, fake_model, small_blocks):
    for statement, category in STATEMENTS:
        write(agent, statement, category)
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        block = candidates.read_block(person.pk, person.beliefs_token)
    assert block is not None and block.n == len(STATEMENTS)
    assert len(queries.captured_queries) == 1
    assert "memory_beliefblock" in queries.captured_queries[0]["sql"]


def test_deleting_a_belief_or_sealing_its_conversation_removes_the_block_at_once(
    agent, fake_model, small_blocks
):
    written = [write(agent, s, c) for s, c in STATEMENTS]
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    belief_retire(belief=written[1], delete=True)
    # the wiped words are in no block, not even an unused one waiting for the worker
    assert not BeliefBlock.objects.filter(principal_id=person.pk).exists()
    candidates.rebuild_block(person.pk)
    block = BeliefBlock.objects.get(principal_id=person.pk)
    assert STATEMENTS[1][0].encode() not in bytes(block.data)


def test_sealing_a_conversation_removes_the_block_with_its_quote(agent, fake_model, small_blocks):
    from memory.sealing import conversation_seal
    from tests.builders import add_belief, person_said

    for statement, category in STATEMENTS:
        write(agent, statement, category)
    said = person_said(agent, "I always drink rooibos late at night.", conversation="c1")
    add_belief(agent, "Drinks rooibos at night", quote_from=said, quote="rooibos late at night")
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    assert b"rooibos late at night" in bytes(BeliefBlock.objects.get(principal_id=person.pk).data)
    conversation_seal(conversation=said.conversation, by="test")
    assert not BeliefBlock.objects.filter(principal_id=person.pk).exists()


def test_redacting_a_belief_removes_the_block_with_its_words(agent, fake_model, small_blocks):
    from memory.redaction import belief_redact
    from tenancy.access import actor_for_user
    from tests.factories import make_user

    written = [write(agent, s, c) for s, c in STATEMENTS]
    person = principal_of(agent)
    candidates.rebuild_block(person.pk)
    assert STATEMENTS[1][0].encode() in bytes(BeliefBlock.objects.get(principal_id=person.pk).data)
    root = actor_for_user(make_user("root", superuser=True))
    belief_redact(actor=root, belief=written[1], reason="asked by the person")
    assert not BeliefBlock.objects.filter(principal_id=person.pk).exists()
