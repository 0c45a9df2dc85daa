from __future__ import annotations

import pytest
from django.urls import reverse

from learning.models import LearningSettings
from persona.models import AgentPersonaVersion
from tenancy.models import Agent
from tests.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(make_user("root", superuser=True))
    return client


def test_creating_an_agent_in_the_admin_makes_version_1_and_settings(admin_client, tenant):
    response = admin_client.post(
        reverse("admin:tenancy_agent_add"),
        {"tenant": tenant.pk, "name": "Desk", "slug": "desk", "multi_tenant": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    agent = Agent.objects.get(slug="desk")
    assert agent.persona_version == 1
    assert AgentPersonaVersion.objects.get(agent=agent).version == 1
    assert LearningSettings.objects.filter(agent=agent).exists()


def test_a_setting_below_its_floor_is_refused_in_the_admin_like_the_form(admin_client, agent):
    settings = LearningSettings.objects.get(agent=agent)
    url = reverse("admin:learning_learningsettings_change", args=[settings.pk])
    data = {
        "mode": "off",
        "proposer": "",
        "model_base_url": "",
        "model_name": "",
        "every_n_turns": 20,
        "every_hours": 24,
        "min_conversations": 1,
        "max_threads": 8,
        "max_messages_per_thread": 40,
        "min_users": 2,
        "min_corrections": 2,
        "rule_owners": "[]",
    }
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "min_conversations is 1; the lowest allowed value is 2." in response.content.decode()
    settings.refresh_from_db()
    assert settings.min_conversations == 3


def test_rule_owners_that_are_not_a_list_are_refused_in_the_admin(admin_client, agent):
    settings = LearningSettings.objects.get(agent=agent)
    url = reverse("admin:learning_learningsettings_change", args=[settings.pk])
    response = admin_client.post(
        url,
        {
            "mode": "off",
            "every_n_turns": 20,
            "every_hours": 24,
            "min_conversations": 3,
            "max_threads": 8,
            "max_messages_per_thread": 40,
            "min_users": 2,
            "min_corrections": 2,
            "rule_owners": "5",
        },
    )
    assert response.status_code == 200
    assert "rule_owners must be a list of user names" in response.content.decode()
    settings.refresh_from_db()
    assert settings.rule_owners == []


def test_pages_vary_on_hx_request(admin_client):
    response = admin_client.get(reverse("home"))
    assert "HX-Request" in response["Vary"]
