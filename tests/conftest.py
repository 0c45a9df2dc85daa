from __future__ import annotations

import pytest

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
