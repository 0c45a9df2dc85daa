""" "Don't mention this again" on the pages: the owner mutes and unmutes an entry and a
learned line on My persona (the unsaved edit survives), an operator does the same on
the person's page (htmx and without JavaScript), nobody else may, and both pages keep a
constant number of queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from memory.models import Principal
from persona.models import Mute
from persona.mutes import line_mute
from persona.owner import doc_head, owner_doc_write
from persona.plans import plan_get_or_rotate
from personaweb.actors import Actor
from tests.builders import (
    HX,
    LEARNED_RULE,
    LEARNED_SENTENCE,
    MAX_QUERIES,
    add_learned_lines,
    count_queries,
)
from tests.factories import make_agent, make_owner, make_user

pytestmark = pytest.mark.django_db

PAGE = reverse("owner:persona")
PRIVATE = "Has a twin brother called Tom."


@pytest.fixture
def ana(tenant, agent):
    add_learned_lines(agent)
    person = Principal.objects.create(tenant=tenant, external_id="ana", display_name="Ana")
    owner_doc_write(
        principal=person,
        expected_version=0,
        entries=[{"text": "Prefers short answers."}, {"text": PRIVATE}],
    )
    return person


@pytest.fixture
def ana_client(client, ana):
    client.force_login(make_owner(ana, "ana"))
    return client


def _form(person, **more) -> dict:
    """The workspace form as the page posts it (the saved entries, unchanged)."""
    head = doc_head(person.pk)
    return {
        "expected_version": str(head.version),
        "key": [e.key for e in head.entries],
        "text": [e.text for e in head.entries],
        "sensitivity": ["internal" for _ in head.entries],
        "tier": [e.tier for e in head.entries],
        "pos": [str(i) for i, _ in enumerate(head.entries, start=1)],
        **more,
    }


def _prefix(agent, person) -> str:
    agent.refresh_from_db()
    return plan_get_or_rotate(agent=agent, principal=person, session_key="page").prefix_text


def test_the_owner_mutes_an_entry_with_a_reason_and_sees_it_muted_then_unmutes(
    ana_client, ana, agent
):
    key = doc_head(ana.pk).entries[1].key
    data = _form(ana, entry=key, **{f"mute_reason_{key}": "Only family should know"})
    html = ana_client.post(reverse("owner:mute"), data, follow=True).content.decode()
    assert "Muted “Has a twin brother" in html and 'data-testid="muted"' in html
    assert "Only family should know" in html and 'data-action="unmute"' in html
    assert "1 entry you asked not to be mentioned" in html  # the preview leaves it out
    mute = Mute.objects.get()
    assert (mute.muted_by, mute.kind, mute.text) == ("ana", "entry", PRIVATE)
    assert [e.text for e in doc_head(ana.pk).entries][1] == PRIVATE  # still in the document
    assert "twin brother" not in _prefix(agent, ana)

    r = ana_client.post(reverse("owner:unmute"), _form(ana, mute=str(mute.pk)), **HX)
    assert r.status_code == 200 and 'id="workspace"' in r.content.decode()
    assert "Unmuted" in r.content.decode()
    assert "twin brother" in _prefix(agent, ana)


def test_an_unsaved_edit_survives_a_mute(ana_client, ana):
    key = doc_head(ana.pk).entries[1].key
    data = _form(ana, entry=key)
    data["text"] = ["Prefers very short answers.", PRIVATE]
    html = ana_client.post(reverse("owner:mute"), data).content.decode()
    assert "Prefers very short answers." in html and "still in the form" in html
    assert doc_head(ana.pk).version == 1


def test_the_owner_mutes_a_learned_line_for_themself_only(ana_client, ana, agent, tenant):
    ben = Principal.objects.create(tenant=tenant, external_id="ben")
    page = ana_client.get(PAGE).content.decode()
    assert LEARNED_SENTENCE in page and LEARNED_RULE in page and "Mute for me" in page
    from persona.mutes import muting_rows

    rows, _ = muting_rows(ana, [agent])
    token = next(r.token for r in rows if r.line.section == "standing_rules")
    data = _form(ana, line=token, **{f"line_reason_{token}": "I like short dates"})
    html = ana_client.post(reverse("owner:mute"), data, **HX).content.decode()
    assert "for you: Helper leaves it out" in html and "I like short dates" in html
    assert LEARNED_RULE not in _prefix(agent, ana)
    assert LEARNED_RULE in _prefix(agent, ben)


def test_a_refused_mute_says_why_and_mutes_nothing(ana_client, ana):
    data = _form(ana, line="999:goals:abc")
    html = ana_client.post(reverse("owner:mute"), data, **HX).content.decode()
    assert "Not muted: That line is no longer a learned line" in html
    assert not Mute.objects.exists()


def test_an_owner_cannot_unmute_someone_elses_mute(client, ana, agent, tenant):
    ben = Principal.objects.create(tenant=tenant, external_id="ben")
    mute = line_mute(
        actor=Actor.system("t"), agent=agent, principal=ana, section="goals", text=LEARNED_SENTENCE
    )
    client.force_login(make_owner(ben, "ben"))
    r = client.post(reverse("owner:unmute"), _form(ben, mute=str(mute.pk)))
    assert r.status_code == 404
    mute.refresh_from_db()
    assert mute.unmuted_at is None


def test_an_operator_mutes_and_unmutes_on_the_persons_muting_page(operator_client, ana, agent):
    person = operator_client.get(reverse("memory:person", args=[ana.pk])).content.decode()
    url = reverse("memory:person_muting", args=[ana.pk])
    assert f'href="{url}"' in person
    page = operator_client.get(url).content.decode()
    assert 'id="muting"' in page and PRIVATE in page and LEARNED_SENTENCE in page
    key = doc_head(ana.pk).entries[1].key
    r = operator_client.post(
        reverse("memory:person_mute", args=[ana.pk]), {"entry": key, "reason": "asked by Ana"}, **HX
    )
    html = r.content.decode()
    assert r.status_code == 200 and html.lstrip().startswith('<section class="card muting"')
    assert "Muted by olivia" in html and "asked by Ana" in html
    mute = Mute.objects.get()
    r = operator_client.post(reverse("memory:mute_undo", args=[mute.pk]))  # without JavaScript
    assert r.status_code == 302 and r["Location"] == url
    mute.refresh_from_db()
    assert mute.unmuted_by == "olivia"


def test_a_reviewer_is_refused_and_another_tenant_does_not_find_the_person(
    client, ana, agent, reviewer, other_tenant
):
    key = doc_head(ana.pk).entries[1].key
    client.force_login(reviewer)
    assert client.get(reverse("memory:person_muting", args=[ana.pk])).status_code == 403
    r = client.post(reverse("memory:person_mute", args=[ana.pk]), {"entry": key})
    assert r.status_code == 403
    mute = line_mute(
        actor=Actor.system("t"), agent=agent, principal=ana, section="goals", text=LEARNED_SENTENCE
    )
    assert client.post(reverse("memory:mute_undo", args=[mute.pk])).status_code == 403
    client.force_login(make_user("otto", role="operator", tenants=[other_tenant]))
    assert (
        client.post(reverse("memory:person_mute", args=[ana.pk]), {"entry": key}).status_code == 404
    )
    assert client.post(reverse("memory:mute_undo", args=[mute.pk])).status_code == 404
    assert Mute.objects.active().count() == 1


def test_both_pages_read_a_constant_number_of_queries(ana_client, ana, agent, tenant):
    small = count_queries(ana_client, PAGE)
    assert small <= MAX_QUERIES
    for n in range(3):
        add_learned_lines(make_agent(tenant=tenant, slug=f"more-{n}"))
    key = doc_head(ana.pk).entries[1].key
    ana_client.post(reverse("owner:mute"), _form(ana, entry=key))
    assert count_queries(ana_client, PAGE) == small


def test_the_muting_page_reads_a_constant_number_of_queries(operator_client, ana, tenant):
    url = reverse("memory:person_muting", args=[ana.pk])
    small = count_queries(operator_client, url)
    assert small <= MAX_QUERIES
    for n in range(3):
        add_learned_lines(make_agent(tenant=tenant, slug=f"more-{n}"))
    operator_client.post(
        reverse("memory:person_mute", args=[ana.pk]), {"entry": doc_head(ana.pk).entries[0].key}
    )
    assert count_queries(operator_client, url) == small


def test_reviewers_see_that_a_proposal_says_what_someone_muted(reviewer_client, ana, agent):
    from tests.builders import add_proposal

    line_mute(
        actor=Actor.system("t"), agent=agent, principal=ana, section="goals", text=LEARNED_SENTENCE
    )
    add_proposal(agent, text=LEARNED_SENTENCE.upper())  # the same words, matched as a line is
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert 'data-testid="muted-for"' in html and "1 person has muted these words" in html


def test_a_refused_mute_on_the_muting_page_says_why_in_the_card(operator_client, ana):
    r = operator_client.post(
        reverse("memory:person_mute", args=[ana.pk]), {"line": "1:goals:not-a-key"}, **HX
    )
    html = r.content.decode()
    assert r.status_code == 200 and 'role="alert"' in html
    assert "Not muted: That line is no longer a learned line" in html
    r = operator_client.post(reverse("memory:person_mute", args=[ana.pk]), {"entry": "gone"})
    assert r.status_code == 302
    page = operator_client.get(r["Location"]).content.decode()
    assert "Not muted: That entry is not in the document" in page
    assert not Mute.objects.exists()


def test_a_muted_line_an_edit_took_out_is_still_listed_and_can_be_undone(ana_client, ana, agent):
    from persona.services import ChangeTrigger, persona_version_create

    mute = line_mute(
        actor=Actor.system("t"), agent=agent, principal=ana, section="goals", text=LEARNED_SENTENCE
    )
    persona_version_create(
        agent=agent,
        changes={"goals": "Help the owner run the bakery."},
        trigger=ChangeTrigger(source_type="ui_form", reason="tidy", approved_by="olivia"),
    )
    html = ana_client.get(PAGE).content.decode()
    assert LEARNED_SENTENCE in html and "no longer in Helper's persona" in html
    ana_client.post(reverse("owner:unmute"), _form(ana, mute=str(mute.pk)))
    mute.refresh_from_db()
    assert mute.unmuted_by == "ana"


def test_the_owner_mutes_and_unmutes_a_belief_about_them(ana_client, ana, agent, tenant):
    from api.selectors import context_pack
    from memory.models import Belief
    from tests.builders import add_belief

    belief = add_belief(agent, "Has a twin brother called Tom.", category="interpersonal")

    def pack() -> str:
        return str(
            context_pack(
                agent=agent,
                tenant_id=tenant.pk,
                principal="ana",
                query="my brother",
                now=None,
                limit=20,
            )
        )

    assert "twin" in pack()
    html = ana_client.get(PAGE).content.decode()
    assert 'data-testid="belief"' in html and "Has a twin brother called Tom." in html
    data = _form(ana, belief=str(belief.pk), **{f"belief_reason_{belief.pk}": "private"})
    html = ana_client.post(reverse("owner:belief_mute"), data, **HX).content.decode()
    assert "nothing learns it back" in html and 'data-action="unmute-belief"' in html
    belief.refresh_from_db()
    assert (belief.status, belief.muted_by, belief.mute_reason) == ("muted", "ana", "private")
    assert "twin" not in pack()
    ana_client.post(reverse("owner:belief_mute"), _form(ana, belief_unmute=str(belief.pk)))
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_an_owner_cannot_mute_someone_elses_belief(client, ana, agent, tenant):
    from memory.models import Belief
    from tests.builders import add_belief

    belief = add_belief(agent, "Keeps bees.")  # about ana
    ben = Principal.objects.create(tenant=tenant, external_id="ben")
    client.force_login(make_owner(ben, "ben"))
    r = client.post(reverse("owner:belief_mute"), _form(ben, belief=str(belief.pk)))
    assert r.status_code == 404
    assert Belief.objects.get(pk=belief.pk).status == Belief.Status.ACTIVE
