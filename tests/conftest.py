from __future__ import annotations

import threading

import numpy as np
import pytest

from safety import encoder as embeddings
from safety import injection
from tests.factories import TenantFactory, make_agent, make_user


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
    with injection._cache_lock:
        injection._cache.clear()
    yield started, release, finished
    release.set()
    if injection._warm_thread is not None:
        injection._warm_thread.join(timeout=60)
    with injection._cache_lock:
        injection._cache.clear()
