from __future__ import annotations

import importlib
import threading

import pytest
from django.core.cache import cache
from django.urls import clear_url_caches

import personaweb.urls


def _reload_urls() -> None:
    clear_url_caches()
    importlib.reload(personaweb.urls)


def mount_api() -> None:
    """Build /v1 again as the settings now say (``AGENT_PERSONA_API_ENABLED`` decides,
    when ``api.http`` is imported, whether the persona routes are mounted)."""
    import api.http
    import api.urls

    importlib.reload(api.http)
    importlib.reload(api.urls)
    _reload_urls()


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_on(settings):
    """/v1/ mounted, as with PERSONAWEB_API_ENABLED=1."""
    settings.PERSONAWEB_API_ENABLED = True
    _reload_urls()
    yield
    settings.PERSONAWEB_API_ENABLED = False
    _reload_urls()


@pytest.fixture
def persona_on(api_on, settings):
    """/v1/ with the owner-document routes, as with AGENT_PERSONA_API_ENABLED=1."""
    settings.AGENT_PERSONA_API_ENABLED = True
    mount_api()
    yield
    settings.AGENT_PERSONA_API_ENABLED = False
    mount_api()


def bearer(raw: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}


@pytest.fixture
def make_token(tenant):
    from api.services import token_create

    def make(name="host-app", scopes="host", tenant_=None, **kwargs):
        token, raw = token_create(tenant=tenant_ or tenant, name=name, scopes=scopes, **kwargs)
        return token, raw

    return make


@pytest.fixture
def host(api_on, agent, make_token):
    """A host token of the tenant that owns ``agent`` (slug ``helper``)."""
    _, raw = make_token()
    return bearer(raw)


@pytest.fixture
def held_call():
    """A stand-in for a slow selector: it waits until the test has its answers (released at
    the end of the test), then fails loudly. A tool stopped by its timeout never sees the
    failure; a server that waited for it would answer with an internal error instead."""
    release = threading.Event()

    def held(*args, **kwargs):
        release.wait(30)
        raise AssertionError("should have been abandoned")

    yield held
    release.set()


@pytest.fixture
def one_rate_window(monkeypatch):
    """Every call of the test counted in one minute of the rate limit (mid-window): a test
    that crosses a minute boundary on a slow machine would otherwise start a new count."""
    monkeypatch.setattr("api.services.rate_clock", lambda: 1_800_000_030.0)
