"""The question bank (``memory/data/asked_about_a_person.jsonl``): a question asked in
everyday words reaches the plain statement that answers it through the bank's example
questions and the statements of their topic."""

from __future__ import annotations

import io
import threading

import numpy as np
import pytest
from django.core.management import call_command

import memory.context
import safety.encoder
from memory.context import build_context, question_bank, read_bank
from tests.memory.beliefs_helpers import NOW, FakeModel, fake_vector, write_belief

#: a bank question, as the bank holds it, and its topic's statements
JOB_QUESTION = "What does she do for a living?"


def _job_topic() -> dict:
    return next(t for t in read_bank() if JOB_QUESTION in t["questions"])


@pytest.fixture
def bank_model(monkeypatch, settings):
    """The stand-in model, the bank encoded afresh with it; a tram driver's job statement
    reads like the bank's statements of jobs (it shares the vector of one of them)."""
    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel(
        same_as={"Drives trams for Edinburgh Trams": "Works as a long-haul lorry driver"}
    )
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    # also the loaded model: what imported get_model (memory.embeddings) returns too;
    # without it a ranking loaded the real encoder and left it loaded for later tests
    monkeypatch.setattr(safety.encoder, "_model", model)
    monkeypatch.setattr(memory.context, "_bank", None)
    return model


def ranked_by_meaning(agent, query, who="yus"):
    pack = build_context(
        agent=agent, principal_external_id=who, query=query, now=NOW, use_embeddings=True
    )
    return [item.id for item in pack.items]


@pytest.fixture
def job_and_others(agent, bank_model, monkeypatch):
    job = write_belief(agent, "Drives trams for Edinburgh Trams", category="identity", who="yus")
    flat = write_belief(
        agent, "Has been living in Leith for ten years", category="explicit_facts", who="yus"
    )
    write_belief(agent, "Her birthday is on 2 May", category="explicit_facts", who="yus")
    # the question reads (to the encoder) as the bank's job question does, and nothing
    # like any of the person's statements
    question = fake_vector(JOB_QUESTION)
    monkeypatch.setattr(memory.context, "_query_vector", lambda text: question)
    return job, flat


def test_an_everyday_question_about_a_job_finds_the_job_statement(agent, job_and_others):
    job, _ = job_and_others

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == job.pk


def test_without_the_bank_the_shared_word_wins(agent, job_and_others, monkeypatch):
    _, flat = job_and_others
    monkeypatch.setattr(memory.context, "BANK_ANSWER_SHARE", 0.0)
    monkeypatch.setattr(memory.context, "BANK_TOPIC_SHARE", 0.0)

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == flat.pk


def test_a_question_near_no_bank_question_is_left_as_asked(bank_model):
    bank = question_bank()
    far = fake_vector("How many moons has Jupiter?")
    assert float((bank.questions @ far).max()) < memory.context.BANK_NEAR_FLOOR

    assert memory.context.bank_expansion(far) is None


def test_the_answer_prototype_of_a_bank_question_is_nearest_its_topics_statements(bank_model):
    extra = memory.context.bank_expansion(fake_vector(JOB_QUESTION))
    topics = read_bank()
    statements = [s for t in topics for s in t["statements"]]
    nearest = statements[int(np.argmax(np.stack([fake_vector(s) for s in statements]) @ extra))]

    assert nearest in _job_topic()["statements"]


def test_the_bank_is_encoded_once_per_process(bank_model):
    question_bank()
    encoded = len(bank_model.seen)
    question_bank()

    assert encoded >= sum(len(t["questions"]) for t in read_bank())
    assert len(bank_model.seen) == encoded


def test_the_bank_vectors_are_kept_next_to_the_encoder_and_read_back(
    bank_model, monkeypatch, settings, tmp_path
):
    settings.ENCODER_DIR = tmp_path
    bank_model.backend = "onnx"
    monkeypatch.setattr(safety.encoder, "_model", bank_model)  # the served encoder, loaded
    first = question_bank().questions
    monkeypatch.setattr(memory.context, "_bank", None)  # a new process
    bank_model.seen.clear()

    again = question_bank().questions

    assert len(list(tmp_path.glob("*question-bank*.npy"))) == 1
    assert len(bank_model.seen) == 1  # the first text, to check the file is this model's
    assert np.array_equal(first, again)


def test_only_the_served_encoder_keeps_bank_vectors_on_disk(
    bank_model, monkeypatch, settings, tmp_path
):
    settings.ENCODER_DIR = tmp_path
    monkeypatch.setattr(safety.encoder, "_model", bank_model)  # loaded, but not ONNX
    question_bank()

    assert list(tmp_path.iterdir()) == []


def test_bank_vectors_of_another_model_are_encoded_afresh(
    bank_model, monkeypatch, settings, tmp_path
):
    settings.ENCODER_DIR = tmp_path
    bank_model.backend = "onnx"
    monkeypatch.setattr(safety.encoder, "_model", bank_model)
    question_bank()
    (kept,) = tmp_path.glob("*question-bank*.npy")
    np.save(kept, np.ones_like(np.load(kept)))  # as if another export of the model wrote it
    monkeypatch.setattr(memory.context, "_bank", None)

    again = question_bank().questions

    assert not np.allclose(again, 1.0)
    assert np.allclose(np.load(kept), np.concatenate([again, np.load(kept)[len(again) :]]))


def test_a_call_that_may_not_wait_ranks_without_the_bank_while_it_is_encoded(
    bank_model, monkeypatch
):
    monkeypatch.setattr(memory.context, "_bank_thread", None)

    assert memory.context.bank_if_ready(wait=False) is None
    memory.context._bank_thread.join(timeout=30)
    assert memory.context.bank_if_ready(wait=False) is question_bank()


def test_a_call_that_may_not_wait_does_not_wait_for_the_bank_being_encoded(bank_model, monkeypatch):
    """The thread encoding the bank holds the bank's lock for the whole encoding
    (seconds with the served encoder): a second call meanwhile still ranks at once."""
    monkeypatch.setattr(memory.context, "_bank_thread", None)
    encoding, release = threading.Event(), threading.Event()
    encode = bank_model.encode

    def slow_encode(texts, **kwargs):
        if len(texts) > 1:  # the bank, not a query
            encoding.set()
            release.wait(30)
        return encode(texts, **kwargs)

    monkeypatch.setattr(bank_model, "encode", slow_encode)
    assert memory.context.bank_if_ready(wait=False) is None
    assert encoding.wait(10)
    answers: list[object] = []
    second = threading.Thread(target=lambda: answers.append(memory.context.bank_if_ready(False)))
    second.start()
    second.join(timeout=2)
    waited = second.is_alive()
    release.set()
    memory.context._bank_thread.join(timeout=30)
    second.join(timeout=30)

    assert not waited and answers == [None]  # before: it waited for the whole encoding


@pytest.mark.django_db
def test_encode_bank_writes_the_bank_file_once(bank_model, monkeypatch, settings, tmp_path):
    """``manage.py memory encode-bank`` (``make install``) keeps the served encoder's
    vectors of the bank next to it; run again, it loads and encodes nothing."""
    settings.ENCODER_DIR = tmp_path
    bank_model.backend = "onnx"  # the served encoder, as loaded by get_model
    out = io.StringIO()

    call_command("memory", "encode-bank", stdout=out)
    [kept] = tmp_path.glob("*.question-bank.*.npy")
    written = kept.stat().st_mtime_ns
    assert "Wrote" in out.getvalue() and len(bank_model.seen) > 1000
    bank_model.seen.clear()
    monkeypatch.setattr(safety.encoder, "get_model", lambda: pytest.fail("model loaded"))

    call_command("memory", "encode-bank", stdout=out)

    assert "there already" in out.getvalue()
    assert bank_model.seen == [] and kept.stat().st_mtime_ns == written
    assert list(tmp_path.glob("*.npy")) == [kept]


@pytest.mark.django_db
def test_encode_bank_keeps_nothing_for_an_encoder_other_than_onnx(bank_model, settings, tmp_path):
    settings.ENCODER_DIR = tmp_path  # bank_model: no ``backend``, as the torch fallback
    out = io.StringIO()

    call_command("memory", "encode-bank", stdout=out)

    assert "not the ONNX one" in out.getvalue() and list(tmp_path.iterdir()) == []


# --- the bank reads the person's statements too (memory.bank_topics) --------------------


def _stored_votes(statement: str) -> tuple[str, np.ndarray | None]:
    from memory import bank_topics
    from memory.models import TextEmbedding
    from memory.services import text_sha256

    row = TextEmbedding.objects.get(sha256=text_sha256(statement))
    return row.bank_digest, bank_topics.unpack_votes(row.bank_votes)


def _job_topic_index() -> int:
    return next(k for k, t in enumerate(read_bank()) if JOB_QUESTION in t["questions"])


@pytest.fixture
def topics_only(monkeypatch):
    """The statements' topic votes alone lift the answer (no answer prototype)."""
    monkeypatch.setattr(memory.context, "BANK_ANSWER_SHARE", 0.0)
    monkeypatch.setattr(memory.context, "BANK_TOPIC_SHARE", 0.3)


def test_a_statement_is_read_as_its_nearest_bank_statements_topic_when_written(agent, bank_model):
    bank = question_bank()  # the bank in this process: a write may use it

    write_belief(agent, "Drives trams for Edinburgh Trams", category="identity", who="yus")

    digest, votes = _stored_votes("Drives trams for Edinburgh Trams")
    assert digest == bank.digest
    assert votes is not None and int(votes[0]) == _job_topic_index()
    assert votes[3] == pytest.approx(1.0, abs=1e-5)  # the lorry driver's own vector


def test_a_write_does_not_encode_the_bank_to_store_votes(agent, bank_model):
    write_belief(agent, "Drives trams for Edinburgh Trams", category="identity", who="yus")

    assert _stored_votes("Drives trams for Edinburgh Trams") == ("", None)
    assert memory.context._bank is None


def test_the_job_statement_read_as_a_job_ranks_first_for_an_everyday_job_question(
    agent, job_and_others, topics_only
):
    job, _ = job_and_others

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == job.pk


def test_without_the_statements_topics_the_shared_word_wins(
    agent, job_and_others, topics_only, monkeypatch
):
    _, flat = job_and_others
    monkeypatch.setattr(memory.context, "BANK_TOPIC_SHARE", 0.0)

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == flat.pk


def test_a_belief_stored_without_votes_still_ranks_by_its_topic(agent, job_and_others, topics_only):
    job, _ = job_and_others
    assert _stored_votes("Drives trams for Edinburgh Trams") == ("", None)  # written before

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == job.pk


def _store_wrong_votes(statement: str, digest: str) -> None:
    """Votes for a topic that is not a job, under ``digest``."""
    from memory import bank_topics
    from memory.models import TextEmbedding
    from memory.services import text_sha256

    other = (_job_topic_index() + 1) % len(read_bank())
    votes = bank_topics.pack_votes(np.array([other] * 3 + [0.9] * 3))
    TextEmbedding.objects.filter(sha256=text_sha256(statement)).update(
        bank_votes=votes, bank_digest=digest
    )


def test_the_ranking_reads_the_votes_stored_under_the_current_bank(
    agent, job_and_others, topics_only
):
    job, _ = job_and_others
    _store_wrong_votes("Drives trams for Edinburgh Trams", question_bank().digest)
    memory.context.clear_candidate_cache()

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] != job.pk


def test_votes_stored_under_another_bank_are_computed_again(agent, job_and_others, topics_only):
    job, _ = job_and_others
    _store_wrong_votes("Drives trams for Edinburgh Trams", "0" * 16)
    memory.context.clear_candidate_cache()

    assert ranked_by_meaning(agent, "What does Yus do for a living these days?")[0] == job.pk


def test_a_changed_bank_has_a_new_digest_and_encode_bank_stores_its_votes(
    agent, bank_model, monkeypatch, settings, tmp_path
):
    settings.ENCODER_DIR = tmp_path
    first = question_bank()
    write_belief(agent, "Drives trams for Edinburgh Trams", category="identity", who="yus")
    assert _stored_votes("Drives trams for Edinburgh Trams")[0] == first.digest
    changed = tmp_path / "bank.jsonl"
    changed.write_bytes(memory.context.BANK_PATH.read_bytes() + b"\n")  # a new bank
    monkeypatch.setattr(memory.context, "BANK_PATH", changed)
    monkeypatch.setattr(memory.context, "_bank", None)
    second = question_bank()
    assert second.digest != first.digest

    call_command("memory", "encode-bank", stdout=io.StringIO())

    digest, votes = _stored_votes("Drives trams for Edinburgh Trams")
    assert digest == second.digest and votes is not None


@pytest.mark.slow
def test_encode_bank_on_a_database_not_yet_migrated_keeps_the_file_and_stores_no_votes(tmp_path):
    """``make install`` encodes the bank before anything migrated the database (a fresh
    clone): the command still succeeds, and says why it stored no belief's votes."""
    import subprocess
    import sys
    from pathlib import Path

    from tests.builders import child_env

    root = Path(__file__).resolve().parents[2]
    env = child_env(DEBUG="1", SQLITE_PATH=str(tmp_path / "fresh.sqlite3"))
    env.pop("DATABASE_URL", None)

    done = subprocess.run(
        [sys.executable, "manage.py", "memory", "encode-bank"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr[-2000:]
    assert "not migrated yet" in done.stdout
    assert "question bank" in done.stdout
