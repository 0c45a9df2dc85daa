import pytest
from django.urls import reverse
from tests.factories import make_agent, make_user
from learning.models import Proposal, Review, LearningSettings
from memory.services import record_turn

@pytest.mark.django_db
def test_smoke(client, tenant):
    agent = make_agent(tenant=tenant, slug="helper", name="Helper", guardrails=["Never share secrets."])
    LearningSettings.objects.create(agent=agent, mode="on-with-review", standing_rules=True)
    t = record_turn(agent=agent, principal_external_id="p1", conversation="c1", user_text="Please draft the weekly bakery order for the shop.", assistant_text="Done.")
    m = t.messages[0]
    ev = [{"quote": "draft the weekly bakery order", "message_id": m.pk, "conversation_id": t.conversation.pk, "conversation_label": "c1", "principal_external_id": "p1", "start": 7, "end": 36}]
    Proposal.objects.create(agent=agent, kind="sentence", field="goals", text="Plan bakery orders.", content_key="k1", evidence=ev, base_version=1)
    Proposal.objects.create(agent=agent, kind="rule", field="standing_rules", text="Give dates in full.", content_key="k2", evidence=ev, base_version=1)
    Review.objects.create(agent=agent, trigger="manual", status="done", outcome="nothing_to_do", reason="Too few conversations.")
    u = make_user("olivia", role="operator", tenants=[tenant])
    client.force_login(u)
    urls = [reverse("persona:evolution"), reverse("persona:agent", args=["helper"]), reverse("persona:guardrails", args=["helper"]),
            reverse("persona:rules", args=["helper"]), reverse("learning:settings", args=["helper"]), reverse("learning:queue"),
            reverse("learning:log"), reverse("memory:conversations"), reverse("memory:conversation", args=[t.conversation.pk]),
            reverse("learning:review_status", args=["helper", Review.objects.first().pk])]
    for u in urls:
        r = client.get(u)
        assert r.status_code == 200, (u, r.status_code)
        r = client.get(u, HTTP_HX_REQUEST="true")
        assert r.status_code == 200, (u, r.status_code)
    html = client.get(reverse("memory:conversation", args=[t.conversation.pk])).content.decode()
    assert "<mark>draft the weekly bakery order</mark>" in html
    print(client.get(reverse("learning:queue"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="queue-list").content.decode()[:3000])
