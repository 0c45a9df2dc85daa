import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from tests.persona.test_views import *  # noqa

@pytest.mark.django_db
def test_dbg(operator_client, tenant):
    desk = make_agent(tenant=tenant, slug="helper", name="Helper")
    learning_on(desk)
    url = reverse("persona:agent", args=["helper"])
    messages = add_conversations(desk, n=3)
    add_proposal(desk, evidence=evidence_for(messages))
    add_review(desk)
    with CaptureQueriesContext(connection) as a:
        operator_client.get(url)
    add_versions(desk, 25)
    add_proposal(desk, kind="rule", evidence=evidence_for(messages))
    with CaptureQueriesContext(connection) as b:
        operator_client.get(url)
    for q in a.captured_queries: print("A", q["sql"][:150])
    for q in b.captured_queries: print("B", q["sql"][:150])
