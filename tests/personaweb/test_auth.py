from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Iterator

import pytest
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse

from memory.services import record_turn
from tests.factories import make_agent

# Pages anyone may open. Everything else on the dashboard needs a login.
# the password reset flow is for people who cannot log in (yet)
PUBLIC_URL_NAMES = {
    "login",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}
# The host API authenticates with tokens, not the login page: an anonymous caller
# gets a refusal there instead of a redirect.
API_PREFIX = "/v1/"
# Values tried, in order, for each argument a URL pattern takes.
ARG_CANDIDATES = ("1", "helper", str(uuid.UUID(int=1)), "helper/1")
HOME_MAX_QUERIES = 14


def _arg_names(pattern: object) -> list[str]:
    converters = getattr(pattern, "converters", None)
    if converters:
        return list(converters)
    regex = getattr(pattern, "regex", None)
    return list(regex.groupindex) if regex is not None else []


def _walk(
    patterns: list[URLPattern | URLResolver], namespace: str, args: list[str]
) -> Iterator[tuple[str, list[str]]]:
    for entry in patterns:
        entry_args = args + _arg_names(entry.pattern)
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry.url_patterns, ns, entry_args)
        elif entry.name:
            yield f"{namespace}{entry.name}", entry_args


def _reverse_any(name: str, arg_names: list[str]) -> str:
    """Reverse a URL name, trying plausible values for each of its arguments."""
    names = list(dict.fromkeys(arg_names))
    for values in itertools.product(ARG_CANDIDATES, repeat=len(names)):
        try:
            return reverse(name, kwargs=dict(zip(names, values, strict=True)))
        except NoReverseMatch:
            continue
    raise AssertionError(
        f"Could not build a URL for {name!r} with arguments {names}; extend ARG_CANDIDATES."
    )


def dashboard_urls() -> list[tuple[str, str]]:
    """Every named URL of the project (admin and the public pages left out), built."""
    found = dict(_walk(get_resolver().url_patterns, "", []))
    return sorted(
        (name, _reverse_any(name, args))
        for name, args in found.items()
        if name not in PUBLIC_URL_NAMES
    )


URLS = dashboard_urls()


def test_url_discovery_sees_the_dashboard() -> None:
    names = {name for name, _ in URLS}
    assert "home" in names
    assert not names & PUBLIC_URL_NAMES
    assert not any(name.startswith("admin:") for name in names)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "url"), URLS, ids=[name for name, _ in URLS])
def test_anonymous_user_is_sent_to_login(client, name: str, url: str) -> None:
    response = client.get(url)
    if response.status_code == 405:  # a POST-only action: it must still ask for a login first
        response = client.post(url)
    if url.startswith(API_PREFIX):
        assert response.status_code in (401, 403), (
            f"{name} answered {response.status_code} to an anonymous caller"
        )
        return
    assert response.status_code == 302, (
        f"{name} ({url}) answered {response.status_code}, not a redirect to login"
    )
    assert response["Location"].startswith(f"{reverse('login')}?next="), response["Location"]


# --- home page ----------------------------------------------------------------


def _make_data(tenant, n: int) -> None:
    for i in range(n):
        agent = make_agent(tenant=tenant, slug=f"desk-{n}-{i}", name=f"Desk {i}")
        record_turn(
            agent=agent,
            principal_external_id=f"person-{i}",
            conversation=f"conv-{i}",
            user_text="Could you draft the weekly status note for the platform team?",
            assistant_text="Here is a draft of the weekly status note.",
        )


@pytest.mark.django_db
def test_home_shows_real_counts(operator_client, tenant) -> None:
    _make_data(tenant, 3)
    html = operator_client.get(reverse("home")).content.decode()
    pairs = re.findall(
        r'<span class="num">([\d,]+)</span><span class="label">(?:<a [^>]*>)?([\w ]+)<', html
    )
    by_label = {label: int(num.replace(",", "")) for num, label in pairs}
    assert by_label["agents"] == 3
    assert by_label["people"] == 3
    assert by_label["conversations"] == 3
    assert by_label["messages"] == 6
    assert by_label["persona versions"] == 3


@pytest.mark.django_db
def test_home_counts_only_the_users_tenants(client, tenant, other_tenant) -> None:
    from tests.factories import make_user

    _make_data(tenant, 2)
    make_agent(tenant=other_tenant, slug="elsewhere")
    client.force_login(make_user("otto", role="operator", tenants=[other_tenant]))
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<span class="num">1</span><span class="label">(<a [^>]*>)?agents<', html)


@pytest.mark.django_db
@pytest.mark.parametrize("n", [1, 30])
def test_home_query_count_is_bounded(
    operator_client, tenant, django_assert_max_num_queries, n: int
) -> None:
    _make_data(tenant, n)
    with django_assert_max_num_queries(HOME_MAX_QUERIES):
        response = operator_client.get(reverse("home"))
    assert response.status_code == 200


@pytest.mark.django_db
def test_home_query_count_does_not_grow_with_data(operator_client, tenant) -> None:
    from django.db import connection

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert operator_client.get(reverse("home")).status_code == 200
        return len(ctx.captured_queries)

    _make_data(tenant, 1)
    small = queries()
    _make_data(tenant, 30)
    assert queries() == small


# --- login and logout ---------------------------------------------------------


@pytest.mark.django_db
def test_login_and_logout(client, operator) -> None:
    login_url = reverse("login")
    page = client.get(login_url)
    assert page.status_code == 200
    assert b'name="password"' in page.content

    wrong = client.post(login_url, {"username": "olivia", "password": "not-it"})
    assert wrong.status_code == 200
    assert b"do not match an account" in wrong.content

    right = client.post(login_url, {"username": "olivia", "password": "pw-olivia"})
    assert right.status_code == 302
    assert right["Location"] == reverse("home")
    home = client.get(reverse("home"))
    assert home.status_code == 200
    assert b"olivia" in home.content

    # logging out is a POST (a GET must not end a session)
    assert client.get(reverse("logout")).status_code == 405
    out = client.post(reverse("logout"))
    assert out.status_code == 302
    assert out["Location"] == login_url
    assert client.get(reverse("home")).status_code == 302


@pytest.mark.django_db
def test_login_keeps_the_page_asked_for(client, operator) -> None:
    response = client.post(
        f"{reverse('login')}?next=/", {"username": "olivia", "password": "pw-olivia", "next": "/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
def test_home_counts_stop_at_the_cap_and_say_there_are_more(
    operator_client, operator, tenant, monkeypatch
) -> None:
    from dashboard import selectors

    _make_data(tenant, 3)
    monkeypatch.setattr(selectors, "COUNT_CAP", 2)
    counts = selectors.home_counts(user=operator)
    assert counts.agents == 2
    assert counts.messages == 2
    assert {"agents", "messages", "conversations", "principals"} <= counts.capped
    assert "proposals_waiting" not in counts.capped
    html = operator_client.get(reverse("home")).content.decode()
    assert re.search(r'<span class="num">2\+</span><span class="label">(<a [^>]*>)?agents<', html)
    assert re.search(r'<span class="num">2\+</span><span class="label">messages<', html)


@pytest.mark.django_db
def test_home_counts_below_the_cap_are_exact_and_not_marked(operator, tenant, other_tenant) -> None:
    from dashboard.selectors import home_counts

    _make_data(tenant, 3)
    make_agent(tenant=other_tenant, slug="elsewhere")
    counts = home_counts(user=operator)
    assert (counts.agents, counts.conversations, counts.messages) == (3, 3, 6)
    assert counts.capped == frozenset()
