"""The Redact actions on the pages (superusers only; nobody else sees them): a belief
and an owner entry on the person's page, a message on its conversation, words of a
persona version from the timeline; the page then says who redacted, when and why."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from memory.models import Belief, Message, Redaction
from memory.redaction import REDACTED
from persona.models import AgentPersonaVersion, OwnerEntry
from persona.owner import doc_head, owner_doc_write
from persona.services import ChangeTrigger, persona_version_create
from tests.builders import HX, MAX_QUERIES, add_belief, person_said
from tests.factories import make_user

SAID = "My sister Petra lives at the lighthouse in Brora."
REASON = "The person asked for these words to be removed."
PASSAGE = "Mention the Brora lighthouse keeper's schedule."


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    cache.clear()


@pytest.fixture
def root_client(client, db):
    client.force_login(make_user("root", superuser=True))
    return client


def test_a_superuser_redacts_a_belief_in_place_and_the_row_says_why(
    root_client, agent, django_assert_max_num_queries
):
    said = person_said(agent, SAID)
    belief = add_belief(agent, "Has a sister called Petra.", quote_from=said, quote="sister Petra")
    page = reverse("memory:person", args=[belief.principal_id])
    assert 'data-action="redact"' in root_client.get(page).content.decode()

    url = reverse("memory:belief_redact", args=[belief.pk])
    r = root_client.post(url, {"reason": REASON, "show": "all"}, **HX)
    body = r.content.decode()
    assert r.status_code == 200 and "Redacted by root on" in body and REASON in body
    assert "Petra" not in body
    assert Belief.objects.get(pk=belief.pk).status == "redacted"

    with django_assert_max_num_queries(MAX_QUERIES):
        whole = root_client.get(page + "?show=all").content.decode()
    assert "Redacted by root" in whole and "sister called Petra" not in whole


def test_a_redaction_without_a_reason_says_so_and_changes_nothing(root_client, agent):
    belief = add_belief(agent, "Has a sister called Petra.")
    url = reverse("memory:belief_redact", args=[belief.pk])
    r = root_client.post(url, {"reason": "no"}, **HX)
    assert "Not redacted: Say why" in r.content.decode()
    # without JavaScript: back to the page with the message
    r = root_client.post(url, {"reason": ""})
    assert r.status_code == 302 and r.url.endswith(f"#belief-{belief.pk}")
    assert Belief.objects.get(pk=belief.pk).statement == "Has a sister called Petra."


def test_an_operator_sees_no_redact_action_and_is_refused(operator_client, agent):
    said = person_said(agent, SAID)
    belief = add_belief(agent, "Has a sister called Petra.")
    page = operator_client.get(reverse("memory:person", args=[belief.principal_id]))
    assert 'data-action="redact"' not in page.content.decode()
    assert 'id="owner-document"' not in page.content.decode()
    conv = operator_client.get(reverse("memory:conversation", args=[said.conversation_id]))
    assert 'data-action="redact"' not in conv.content.decode()
    r = operator_client.post(reverse("memory:belief_redact", args=[belief.pk]), {"reason": REASON})
    assert r.status_code == 403
    r = operator_client.post(reverse("memory:message_redact", args=[said.pk]), {"reason": REASON})
    assert r.status_code == 403
    assert not Redaction.objects.exists()


def test_a_superuser_redacts_a_message_on_its_conversation(
    root_client, agent, django_assert_max_num_queries
):
    said = person_said(agent, SAID)
    conv = reverse("memory:conversation", args=[said.conversation_id])
    assert 'data-action="redact"' in root_client.get(conv).content.decode()
    r = root_client.post(reverse("memory:message_redact", args=[said.pk]), {"reason": REASON}, **HX)
    assert r.status_code == 200 and "Redacted by root" in r.content.decode()
    assert "Petra" not in r.content.decode()
    r = root_client.post(reverse("memory:message_redact", args=[said.pk]), {"reason": REASON})
    assert r.status_code == 302 and r.url.endswith(f"#m{said.seq}")
    assert Message.objects.get(pk=said.pk).text == REDACTED
    with django_assert_max_num_queries(MAX_QUERIES):
        page = root_client.get(conv).content.decode()
    assert "Redacted by root" in page and "Petra" not in page and REASON in page


def test_a_superuser_redacts_an_owner_entry_from_the_persons_page(
    root_client, agent, django_assert_max_num_queries
):
    said = person_said(agent, SAID)
    ana = said.conversation.principal
    owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": "Keeps bees on the roof."}, {"text": "Prefers short answers."}],
        written_by="ana",
    )
    entry = doc_head(ana.pk).entries[0]
    page = reverse("memory:person", args=[ana.pk])
    assert "Keeps bees" in root_client.get(page).content.decode()
    r = root_client.post(
        reverse("memory:owner_entry_redact", args=[entry.pk]), {"reason": REASON, "next": page}
    )
    assert r.status_code == 302 and r.url == page + "#owner-document"
    assert OwnerEntry.objects.get(pk=entry.pk).text == REDACTED
    with django_assert_max_num_queries(MAX_QUERIES):
        body = root_client.get(page).content.decode()
    assert "Keeps bees" not in body and "Redacted by root" in body


def test_a_superuser_redacts_words_of_a_persona_version(
    root_client, agent, django_assert_max_num_queries
):
    persona_version_create(
        agent=agent,
        changes={"goals": f"Help with bakery orders. {PASSAGE}"},
        trigger=ChangeTrigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    agent.refresh_from_db()
    timeline = reverse("persona:agent", args=[agent.slug])
    assert 'data-testid="redact-version"' in root_client.get(timeline).content.decode()
    url = reverse("persona:version_redact", args=[agent.slug, 2])
    assert "Brora lighthouse keeper" in root_client.get(url).content.decode()
    r = root_client.post(url, {"passage": "Not in it at all.", "reason": REASON})
    assert r.status_code == 200 and "does not hold these exact words" in r.content.decode()
    r = root_client.post(url, {"passage": PASSAGE, "reason": REASON})
    assert r.status_code == 302 and r.url.endswith("#v2")
    assert PASSAGE not in AgentPersonaVersion.objects.get(agent=agent, version=2).goals
    root_client.get(timeline)  # the safety scan stores the vector of the new words once
    with django_assert_max_num_queries(MAX_QUERIES):
        body = root_client.get(timeline).content.decode()
    assert "Brora lighthouse keeper" not in body and "Redacted by root" in body


def test_the_version_redact_page_is_for_superusers_only(operator_client, agent):
    url = reverse("persona:version_redact", args=[agent.slug, 1])
    assert operator_client.get(url).status_code == 403
    page = operator_client.get(reverse("persona:agent", args=[agent.slug])).content.decode()
    assert 'data-testid="redact-version"' not in page


def test_the_owner_sees_that_an_entry_was_redacted_and_its_words_nowhere(client, agent):
    from persona.owner_accounts import owner_account_link
    from persona.redaction import owner_entry_redact
    from tenancy.access import actor_for_user

    said = person_said(agent, SAID)
    ana = said.conversation.principal
    owner = make_user("ana", tenants=[agent.tenant])
    owner_account_link(user=owner, principal=ana)
    owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": "Keeps bees on the roof."}, {"text": "Prefers short answers."}],
        written_by="ana",
    )
    owner_entry_redact(
        actor=actor_for_user(make_user("root", superuser=True)),
        entry=doc_head(ana.pk).entries[0],
        reason=REASON,
    )
    client.force_login(owner)
    body = client.get(reverse("owner:persona")).content.decode()
    assert 'data-testid="entry-redacted"' in body
    assert "Keeps bees" not in body and "Prefers short answers." in body
