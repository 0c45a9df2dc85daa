"""Fixtures the persona tests share: a person of the tenant, and an agent whose persona
holds learned lines (a learned goals sentence and a learned standing rule)."""

from __future__ import annotations

import pytest

from memory.models import Principal
from tests.builders import add_learned_lines


@pytest.fixture
def ana(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ana")


@pytest.fixture
def learned(agent):
    add_learned_lines(agent)
    agent.refresh_from_db()
    return agent
