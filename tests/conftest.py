from __future__ import annotations

import os
import threading
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import pytest

from safety import encoder as embeddings
from safety import injection
from tests.factories import TenantFactory, make_agent, make_user


def _own_redis_database_per_worker() -> None:
    """Under pytest-xdist (``-n``) every worker process has its own test database
    (pytest-django suffixes its name); give it its own Redis database too, so one
    worker's ``cache.clear()``, cached plans and queued tasks never reach the other's
    tests: worker gwN uses database N + the one ``REDIS_URL`` names. Child processes
    (a real celery worker) inherit it through the environment."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("REDIS_URL", "")
    if not (worker.startswith("gw") and url):
        return
    from django.test.utils import override_settings

    from personaweb.celery import app

    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    own = urlunsplit(parts._replace(path=f"/{base + int(worker[2:])}"))
    os.environ["REDIS_URL"] = own
    # settings are loaded before any conftest; nothing has opened the cache or the
    # broker yet, so overriding them here is what every test sees
    override_settings(
        REDIS_URL=own,
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": own}
        },
        CELERY_BROKER_URL=own,
        CELERY_RESULT_BACKEND=own,
    ).enable()
    app.conf.broker_url = app.conf.result_backend = own


_own_redis_database_per_worker()


def _model_threads_per_worker() -> None:
    """Under pytest-xdist the cores are shared by the worker processes: the model's
    matrix products get ``cores // workers`` threads each. With a thread per core, two
    processes computing at once fight over the cores: the scan of the validation split
    spent 207 s of CPU with two threads, 130 s with one. Three thread pools take it:
    OMP_NUM_THREADS for what loads after this file (torch's OpenMP, scipy's BLAS, and
    child processes: live servers, a Celery worker, which also read
    PERSONAWEB_ENCODER_THREADS); the sentence encoder's own count (settings'
    ENCODER_THREADS, which ``_load_torch`` hands to torch and the ONNX session uses);
    and numpy's BLAS, loaded with the settings before this file, through threadpoolctl
    (two BLAS threads per worker made the family namer's fit four times slower). A
    value in the environment wins."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
    if not (os.environ.get("PYTEST_XDIST_WORKER") and workers > 0):
        return
    from threadpoolctl import threadpool_limits

    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // workers)))
    os.environ.setdefault("PERSONAWEB_ENCODER_THREADS", os.environ["OMP_NUM_THREADS"])
    embeddings.set_threads(int(os.environ["PERSONAWEB_ENCODER_THREADS"]))
    threadpool_limits(limits=int(os.environ["OMP_NUM_THREADS"]))


_model_threads_per_worker()

# What .ci/run's PostgreSQL leg selects: tests that use the database in this process.
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``database`` every test that uses the database (a ``django_db`` mark, or a
    fixture that needs one): the PostgreSQL + Redis leg of ``.ci/run`` runs those (but
    ``browser`` and ``sqlite_enough``); the rest run the same whatever the engine."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.database)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # spread over processes: hand out the long tests first, so none of them starts
        # last while the other process sits idle (every worker sorts the same way)
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def tenant(db):
    return TenantFactory(name="Acme", slug="acme")


@pytest.fixture
def other_tenant(db):
    return TenantFactory(name="Globex", slug="globex")


@pytest.fixture
def agent(tenant):
    return make_agent(tenant=tenant, slug="helper", name="Helper", role="Personal assistant")


@pytest.fixture
def operator(tenant):
    return make_user("olivia", role="operator", tenants=[tenant])


@pytest.fixture
def reviewer(tenant):
    return make_user("rita", role="reviewer", tenants=[tenant])


@pytest.fixture
def operator_client(client, operator):
    client.force_login(operator)
    return client


@pytest.fixture
def reviewer_client(client, reviewer):
    client.force_login(reviewer)
    return client


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Users are made per test; the default hasher would spend most of the time hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: Reviewers of the ``tenant`` fixture that the learning tests name as approvers.
PEOPLE = ("dev", "priya", "callum", "olivia", "rex", "sam", "mia")


@pytest.fixture
def people(tenant):
    """Accounts for the names the decision tests use: a standing rule is decided only
    by a person with an account in the agent's tenant."""
    from django.contrib.auth.models import User

    out = {}
    for name in PEOPLE:
        existing = User.objects.filter(username=name).first()
        out[name] = existing or make_user(name, role="reviewer", tenants=[tenant])
    return out


class _FakeModel:  # used by slow_model
    """Stands in for the sentence-transformers model once the slow load 'finishes'."""

    def encode(self, texts, **kwargs):
        rng = np.random.default_rng(len(texts))
        vectors = rng.standard_normal((len(texts), embeddings.DIM)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def slow_model(monkeypatch):
    """A model load that blocks until the test releases it (never loaded at the start)."""
    from memory import context

    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def slow_get_model():
        started.set()
        release.wait(timeout=60)
        model = _FakeModel()
        monkeypatch.setattr(embeddings, "_model", model)
        finished.set()
        return model

    monkeypatch.setattr(embeddings, "_model", None)
    monkeypatch.setattr(embeddings, "get_model", slow_get_model)
    monkeypatch.setattr(injection, "_warm_thread", None)
    monkeypatch.setattr(injection, "_warm_queue", [])
    # a call made once the model is in starts the question bank's encoding in a thread
    # (memory.context.bank_if_ready); it must end before the stand-ins are undone, or it
    # loads the real encoder and encodes the whole bank with it (seconds of both cores,
    # holding the bank's lock) during the tests after this one
    monkeypatch.setattr(context, "_bank", None)
    monkeypatch.setattr(context, "_bank_thread", None)
    with injection._cache_lock:
        injection._cache.clear()
    yield started, release, finished
    release.set()
    if injection._warm_thread is not None:
        injection._warm_thread.join(timeout=60)
    if context._bank_thread is not None:
        context._bank_thread.join(timeout=60)
    with injection._cache_lock:
        injection._cache.clear()
