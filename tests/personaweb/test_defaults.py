"""Robust defaults (issue 22, point 8): SQLite chosen by DATABASE_URL is set up like
SQLITE_PATH, login throttling counts the real client behind the TLS proxy (and only
then reads X-Forwarded-For), and a signed-in person's pages are never cached."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import RequestFactory
from django.urls import reverse

from personaweb.middleware import client_ip
from tests.factories import make_user

ROOT = Path(__file__).resolve().parents[2]


# --- SQLite, however it is chosen ------------------------------------------------------


def _database_in_subprocess(tmp_path: Path, **env: str) -> dict:
    """DATABASES["default"] as settings.py builds it from this environment."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "personaweb.settings",
            "DEBUG": "1",
            "PERSONAWEB_VAR_DIR": str(tmp_path / "var"),
            **env,
        },
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_sqlite_through_database_url_gets_the_settings_of_sqlite_path(tmp_path):
    by_url = _database_in_subprocess(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path}/x.sqlite3")
    by_path = _database_in_subprocess(tmp_path, SQLITE_PATH=str(tmp_path / "x.sqlite3"))
    assert by_url["ENGINE"] == by_path["ENGINE"] == "django.db.backends.sqlite3"
    assert by_url["NAME"] == by_path["NAME"] == str(tmp_path / "x.sqlite3")
    # write-ahead log, busy timeout and immediate transactions, both ways
    assert by_url["OPTIONS"] == by_path["OPTIONS"]
    assert by_url["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in by_url["OPTIONS"]["init_command"]
    assert by_url["OPTIONS"]["timeout"] >= 5


def test_database_settings_give_sqlite_urls_the_one_set_of_options():
    from personaweb.settings import database_settings, sqlite_options

    assert database_settings("sqlite:///tmp/any.sqlite3")["OPTIONS"] == sqlite_options()
    assert database_settings("")["OPTIONS"] == sqlite_options()
    postgres = database_settings("postgres://u:p@db.internal:5432/pw")
    assert "transaction_mode" not in postgres.get("OPTIONS", {})


def test_postgres_connections_turn_jit_off_and_keep_pgoptions(monkeypatch):
    from personaweb.settings import database_settings

    monkeypatch.delenv("PGOPTIONS", raising=False)
    plain = database_settings("postgres://u:p@db.internal:5432/pw")
    assert plain["OPTIONS"]["options"] == "-c jit=off"
    # libpq reads PGOPTIONS only without an options parameter: it is carried over
    monkeypatch.setenv("PGOPTIONS", "-c synchronous_commit=off")
    ci = database_settings("postgres://u:p@db.internal:5432/pw")
    assert ci["OPTIONS"]["options"] == "-c synchronous_commit=off -c jit=off"


# --- the client address django-axes counts ------------------------------------------------


def _request(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_without_a_trusted_proxy_the_forwarded_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(_request("192.0.2.1", "203.0.113.9")) == "192.0.2.1"


def test_behind_one_proxy_the_address_it_saw_is_the_client(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(_request("10.0.0.2", "203.0.113.9")) == "203.0.113.9"
    # a client that writes its own header: the proxy appends the real address last
    assert client_ip(_request("10.0.0.2", "6.6.6.6, 203.0.113.9")) == "203.0.113.9"
    # no header (did not come through the proxy) or garbage: the connection's address
    assert client_ip(_request("10.0.0.2")) == "10.0.0.2"
    assert client_ip(_request("10.0.0.2", "not-an-address")) == "10.0.0.2"


def test_behind_two_proxies_the_outer_ones_view_counts(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    assert client_ip(_request("10.0.0.3", "6.6.6.6, 203.0.113.9, 10.0.0.2")) == "203.0.113.9"
    assert client_ip(_request("10.0.0.3", "10.0.0.2")) == "10.0.0.3"


def test_axes_uses_the_projects_client_address():
    assert django_settings.AXES_CLIENT_IP_CALLABLE == "personaweb.middleware.client_ip"
    assert django_settings.TRUSTED_PROXY_COUNT == 0  # the default: the header is ignored


def _fail_logins(client, forwarded: str, times: int) -> None:
    for _ in range(times):
        client.post(
            reverse("login"),
            {"username": "ana", "password": "wrong-guess"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=forwarded,
        )


def _login(client, forwarded: str) -> int:
    return client.post(
        reverse("login"),
        {"username": "ana", "password": "pw-ana"},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR=forwarded,
    ).status_code


@pytest.mark.django_db
def test_behind_the_proxy_two_clients_are_counted_apart(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    make_user("ana")
    _fail_logins(client, "203.0.113.9", django_settings.AXES_FAILURE_LIMIT)
    assert _login(client, "203.0.113.9") == 429
    # ana on another network, through the same proxy: not locked out by the guesser
    assert _login(client, "198.51.100.7") == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.9"}


@pytest.mark.django_db
def test_without_a_proxy_a_forged_header_does_not_escape_the_count(client, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    make_user("ana")
    # a guesser who changes the header on every try is still one address
    for i in range(django_settings.AXES_FAILURE_LIMIT):
        _fail_logins(client, f"203.0.113.{i}", 1)
    assert _login(client, "198.51.100.7") == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.0.0.2"}


# --- no cached copies of a signed-in person's pages -------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "api:tokens", "memory:people", "learning:log"])
def test_a_signed_in_persons_pages_are_private_and_not_stored(operator_client, name):
    response = operator_client.get(reverse(name))
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives
    assert "public" not in directives


@pytest.mark.django_db
def test_htmx_partials_and_refusals_are_not_stored_either(operator_client, reviewer_client):
    partial = operator_client.get(reverse("home"), HTTP_HX_REQUEST="true")
    assert "no-store" in partial["Cache-Control"]
    refused = reviewer_client.get(reverse("api:tokens"))  # a reviewer: 403
    assert refused.status_code == 403 and "no-store" in refused["Cache-Control"]


@pytest.mark.django_db
def test_static_files_keep_their_caching_for_a_signed_in_person(operator_client):
    css = operator_client.get("/static/css/app.css")
    assert css.status_code == 200
    assert "no-store" not in css.get("Cache-Control", "")
