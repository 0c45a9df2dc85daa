"""Issue 14: no page waits for a model load. Right after a guardrail edit, in a process
whose embedding model is not loaded (and loads slowly), the agent page answers at once,
shows the new text as "scanning" (never as safe) and polls until the scan is done."""

from __future__ import annotations

import pytest
from django.urls import reverse

from persona.models import AgentPersonaVersion
from tests.builders import HX

# transaction=True: the background scan thread writes vectors on its own connection;
# flushing after the test keeps them from leaking into later tests.
pytestmark = pytest.mark.django_db(transaction=True)

NEW_GUARDRAIL = "Quote wholesale prices only after the order quantity is confirmed."


def test_agent_page_does_not_wait_for_the_scan(operator_client, agent, slow_model, settings):
    settings.PERSONAWEB_PAGE_SCAN_WAIT = False  # what a server does (the suite waits)
    started, release, finished = slow_model
    # written by another process (a worker, the host API): its write check loaded the
    # model there, not in this web process, and this text's vectors are not stored yet
    AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).update(
        guardrails=[NEW_GUARDRAIL]
    )
    response = operator_client.get(reverse("persona:agent", args=[agent.slug]))
    assert response.status_code == 200
    assert not finished.is_set()  # the page answered while the model was still loading
    html = response.content.decode()
    assert 'data-testid="scanning"' in html and 'data-pending="1"' in html
    prompt = html[html.index('data-testid="prompt"') :]
    prompt = prompt[: prompt.index("</section>")]
    assert NEW_GUARDRAIL not in prompt  # never shown as safe before it is scanned
    assert "SCANNING" in prompt

    release.set()
    assert finished.wait(timeout=60)
    from safety import injection

    injection._warm_thread.join(timeout=60)
    partial = operator_client.get(
        reverse("persona:agent", args=[agent.slug]), HTTP_HX_TARGET="prompt", **HX
    ).content.decode()
    assert 'data-pending="1"' not in partial
    assert NEW_GUARDRAIL in partial
