"""Conversation pages: the list (per agent) and one conversation with its evidence marked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from memory.services import record_turn
from tests.builders import (
    HX,
    MAX_QUERIES,
    add_conversations,
    add_proposal,
    count_queries,
    evidence_for,
)
from tests.factories import make_agent, make_user


@pytest.fixture
def desk(tenant):
    return make_agent(tenant=tenant, slug="helper", name="Helper")


@pytest.mark.django_db
def test_conversations_list_filters_by_agent(operator_client, tenant, other_tenant, desk):
    other = make_agent(tenant=tenant, slug="other", name="Other desk")
    add_conversations(desk, n=2)
    add_conversations(other, n=1)
    add_conversations(make_agent(tenant=other_tenant, slug="elsewhere"), n=1, prefix="hidden")
    url = reverse("memory:conversations")
    html = operator_client.get(url).content.decode()
    assert "conv-helper-0" in html and "conv-other-0" in html and "hidden-" not in html
    html = operator_client.get(url, {"agent": "helper"}).content.decode()
    assert "conv-helper-1" in html and "conv-other-0" not in html
    assert operator_client.get(url, {"agent": "elsewhere"}).status_code == 404
    part = operator_client.get(
        url, {"agent": "other"}, HTTP_HX_TARGET="conv-table", **HX
    ).content.decode()
    assert part.lstrip().startswith('<section id="conv-table">') and "conv-other-0" in part


@pytest.mark.django_db
def test_conversations_list_marks_sealed_and_pages(operator_client, desk, monkeypatch):
    monkeypatch.setattr("personaweb.paging.PAGE_SIZE", 2)
    add_conversations(desk, n=3)
    record_turn(
        agent=desk,
        principal_external_id="p9",
        conversation="secret-talk",
        user_text="Private words.",
        sealed=True,
    )
    url = reverse("memory:conversations")
    html = operator_client.get(url).content.decode()
    assert "secret-talk" in html and "sealed</span>" in html
    labels = re.findall(r'">((?:conv-helper-\d)|secret-talk)</a>', html)
    after = re.search(r'after=([\w-]+)"', html).group(1)
    labels += re.findall(
        r'">((?:conv-helper-\d)|secret-talk)</a>',
        operator_client.get(url, {"after": after}).content.decode(),
    )
    assert sorted(labels) == ["conv-helper-0", "conv-helper-1", "conv-helper-2", "secret-talk"]


@pytest.mark.django_db
def test_conversations_empty_state(operator_client):
    assert (
        "No conversations yet"
        in operator_client.get(reverse("memory:conversations")).content.decode()
    )


@pytest.mark.django_db
def test_conversation_shows_messages_in_order_with_evidence_marked(operator_client, desk):
    messages = add_conversations(desk, n=3)
    add_proposal(desk, evidence=evidence_for(messages))
    conv = messages[0].conversation
    record_turn(
        agent=desk,
        principal_external_id="p1",
        conversation=conv.external_id,
        user_text="And a second question.",
    )
    html = operator_client.get(reverse("memory:conversation", args=[conv.pk])).content.decode()
    assert "Could you help me <mark>plan the sourdough order</mark> for the weekend market?" in html
    assert (
        html.index("Could you help me")
        < html.index("Here is a plan")
        < html.index("And a second question.")
    )
    part = operator_client.get(
        reverse("memory:conversation", args=[conv.pk]), HTTP_HX_TARGET="messages-list", **HX
    )
    assert part.content.decode().lstrip().startswith('<section id="messages-list">')


@pytest.mark.django_db
def test_conversation_marks_the_quote_asked_for(operator_client, desk):
    m = add_conversations(desk, n=1)[0]
    html = operator_client.get(
        reverse("memory:conversation", args=[m.conversation_id]), {"mark": f"{m.pk}:0:5"}
    ).content.decode()
    assert "<mark>Could</mark> you help me" in html
    assert 'id="quote"' in html


@pytest.mark.django_db
def test_sealed_conversation_never_shows_its_text(operator_client, desk):
    turn = record_turn(
        agent=desk,
        principal_external_id="p1",
        conversation="sealed-one",
        user_text="My bank PIN is something private.",
        assistant_text="Noted.",
        sealed=True,
    )
    html = operator_client.get(
        reverse("memory:conversation", args=[turn.conversation.pk])
    ).content.decode()
    assert "This conversation is sealed" in html
    assert "bank PIN" not in html and "Noted." not in html


@pytest.mark.django_db
def test_conversation_of_another_tenant_is_404(client, other_tenant, desk):
    m = add_conversations(desk, n=1)[0]
    client.force_login(make_user("otto", role="operator", tenants=[other_tenant]))
    assert client.get(reverse("memory:conversation", args=[m.conversation_id])).status_code == 404


@pytest.mark.django_db
def test_conversation_pages_query_counts_do_not_grow(
    operator_client, tenant, desk, django_assert_max_num_queries
):
    m = add_conversations(desk, n=1)[0]
    add_proposal(desk, evidence=evidence_for([m]))
    detail = reverse("memory:conversation", args=[m.conversation_id])
    listing = reverse("memory:conversations")
    small_detail = count_queries(operator_client, detail)
    small_list = count_queries(operator_client, listing)
    for i in range(40):
        record_turn(
            agent=desk,
            principal_external_id="p1",
            conversation=m.conversation.external_id,
            user_text=f"Follow-up question {i}.",
            assistant_text=f"Answer {i}.",
        )
    for i in range(5):
        add_conversations(make_agent(tenant=tenant, slug=f"more-{i}"), n=4)
    assert count_queries(operator_client, detail) == small_detail
    assert count_queries(operator_client, listing) == small_list
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(detail, HTTP_HX_TARGET="messages-list", **HX)
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(listing, HTTP_HX_TARGET="conv-table", **HX)
