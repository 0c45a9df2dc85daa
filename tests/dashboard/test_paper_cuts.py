"""Small things a newcomer meets: nothing inline that the Content-Security-Policy
blocks, a favicon on every page, a one-row nav, and "Review now" without JavaScript
landing on a page that says what happens and how to see it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from learning.models import Review
from tests.builders import add_review, learning_on

TEMPLATES = Path(settings.BASE_DIR) / "templates"
#: an event-handler attribute (onclick=, onfocus=...) or a style attribute in markup
INLINE = re.compile(r"<[^>]*\s(on[a-z]+|style)\s*=", re.I)


def test_no_template_has_an_inline_handler_or_style():
    found = []
    for path in TEMPLATES.rglob("*.html"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if INLINE.search(line):
                found.append(f"{path.relative_to(TEMPLATES)}:{n}")
    assert not found, f"the CSP blocks these: {found}"


@pytest.mark.django_db
def test_the_new_token_has_a_copy_button_and_no_inline_handler(operator_client, tenant):
    html = operator_client.post(
        reverse("api:tokens"), {"name": "chat", "tenant": tenant.pk, "scopes": ["host"]}
    ).content.decode()
    assert 'data-copy="#new-token"' in html and "data-select-on-focus" in html
    assert "onfocus" not in html
    app_js = Path(finders.find("js/app.js")).read_text(encoding="utf-8")
    assert "[data-copy]" in app_js and "navigator.clipboard" in app_js


@pytest.mark.django_db
def test_every_page_links_a_favicon_that_exists(operator_client):
    client = Client()
    for c, url in ((client, reverse("login")), (operator_client, reverse("home"))):
        html = c.get(url).content.decode()
        href = re.search(r'<link rel="icon" href="([^"]+)"', html).group(1)
        assert href == "/static/favicon.svg"
    assert finders.find("favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


@pytest.mark.django_db
def test_the_nav_keeps_the_account_pages_in_the_menu(operator_client):
    html = operator_client.get(reverse("home")).content.decode()
    nav = html[html.index('<nav class="nav"') : html.index("</nav>")]
    labels = re.findall(r">([^<>]+)</a>", nav)
    assert labels == ["Home", "Evolution", "Queue", "Log", "Conversations", "People"]
    menu = html[html.index('<details class="who menu"') : html.index("</details>")]
    for label in ("Team", "API tokens", "Change password", "Log out"):
        assert label in menu


@pytest.mark.django_db
def test_review_now_without_javascript_says_what_happens_and_how_to_see_it(
    reviewer_client, agent, monkeypatch, django_capture_on_commit_callbacks
):
    from learning import tasks

    learning_on(agent)
    monkeypatch.setattr(tasks.review_agent, "delay", lambda *args: None)
    with django_capture_on_commit_callbacks(execute=True):
        response = reviewer_client.post(
            reverse("learning:review_now", args=[agent.slug]), {"origin": "agent"}, follow=True
        )
    html = response.content.decode()
    review = Review.objects.get(agent=agent)
    assert review.status == "queued"
    assert 'data-testid="reload-hint"' in html
    assert "without, it reloads every five seconds" in html
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in html
    status = reverse("learning:review_status", args=[agent.slug, review.pk])
    assert f'href="{status}?origin=agent">Reload now</a>' in html
    assert f'href="{reverse("persona:agent", args=[agent.slug])}">Back to Helper</a>' in html

    # once it is done, the page neither reloads nor says it will
    Review.objects.filter(pk=review.pk).update(status="done", outcome="nothing_to_do")
    html = reviewer_client.get(status).content.decode()
    assert "reload-hint" not in html and "refresh" not in html


@pytest.mark.django_db
def test_a_finished_review_page_has_no_reload_hint(reviewer_client, agent):
    review = add_review(agent)
    html = reviewer_client.get(
        reverse("learning:review_status", args=[agent.slug, review.pk])
    ).content.decode()
    assert "reload-hint" not in html
