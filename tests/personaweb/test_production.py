"""Production settings (issue 9, finding 7): the README's production environment passes
``check --deploy``; no key, no start; standard password validators; login throttling;
a Content Security Policy with no inline script on any page; no ``testserver`` default."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections import deque
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from tenancy.management.commands.ensure_operator import operator_ensure
from tests.factories import make_user

ROOT = Path(__file__).resolve().parents[2]
README_BLOCK_START = "# /etc/personaweb.env"
# What the test process's own environment must not lend to the child.
SCRUBBED = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "SQLITE_PATH",
    "PERSONAWEB_VAR_DIR",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    # set by tests/browser/conftest.py when collected; check --deploy rightly refuses it
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def readme_production_env() -> dict[str, str]:
    """The ``NAME=value`` lines of the README's production environment block."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    block = next((b for b in blocks if b.startswith(README_BLOCK_START)), None)
    assert block is not None, f"README.md has no code block starting {README_BLOCK_START!r}"
    env: dict[str, str] = {}
    for line in block.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Z_]+", name), f"not a NAME=value line: {line!r}"
        env[name] = value
    return env


def run_manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    child = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    child.update(PERSONAWEB_VAR_DIR=str(tmp_path / "var"), **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=child,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Many logins here; the default hasher would spend most of the time hashing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- settings, in a fresh process as a server starts them ------------------------------


@pytest.mark.slow
def test_check_deploy_with_the_readme_production_environment_prints_no_warnings(tmp_path):
    env = readme_production_env()
    assert env["DEBUG"] == "0"
    assert env["SECRET_KEY"] == "", "the README must not hand out a secret key"
    env["SECRET_KEY"] = secrets.token_urlsafe(50)  # what the reader fills in
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env, tmp_path=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output
    assert "WARNING" not in output


@pytest.mark.slow
def test_debug_off_without_a_secret_key_refuses_to_start_with_a_sentence(tmp_path):
    # the README's block exactly as written: SECRET_KEY left empty
    result = run_manage("check", env=readme_production_env(), tmp_path=tmp_path)
    assert result.returncode != 0
    # one sentence on stderr, no traceback
    assert result.stderr.startswith("SECRET_KEY is not set and DEBUG is off: set SECRET_KEY")
    assert result.stderr.strip().endswith("or set DEBUG=1 on a development machine.")
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    # nothing in the environment at all: the same
    bare = run_manage("check", env={}, tmp_path=tmp_path)
    assert bare.returncode != 0 and "SECRET_KEY is not set and DEBUG is off" in bare.stderr


@pytest.mark.slow
def test_a_development_machine_runs_without_a_key_only_with_debug_on(tmp_path):
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.SECRET_KEY)",
        env={"DEBUG": "1"},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("django-insecure-")


@pytest.mark.slow
def test_allowed_hosts_default_has_no_testserver(tmp_path):
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(','.join(settings.ALLOWED_HOSTS))",
        env={"SECRET_KEY": secrets.token_urlsafe(50)},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    hosts = result.stdout.strip().split(",")
    assert "testserver" not in hosts
    assert hosts == ["localhost", "127.0.0.1", "[::1]"]


# --- passwords ----------------------------------------------------------------------


def test_password_validators_refuse_common_and_numeric_passwords():
    for weak in ("password", "12345678901", "short"):
        with pytest.raises(ValidationError):
            validate_password(weak)


@pytest.mark.django_db
def test_ensure_operator_passwords_pass_the_validators():
    for _ in range(5):
        user, password = operator_ensure(username="operator")
        validate_password(password, user)  # raises if refused


# --- login throttling -----------------------------------------------------------------


@pytest.fixture
def ana(db):
    return make_user("ana")


def post_login(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
def test_ten_wrong_passwords_then_the_right_one_is_refused(client, ana):
    assert settings.AXES_FAILURE_LIMIT == 10
    for _ in range(10):
        post_login(client, "ana", "wrong-guess")
    response = post_login(client, "ana", "pw-ana")
    assert response.status_code == 429
    assert not logged_in(client)
    html = response.content.decode()
    assert "Too many wrong passwords" in html
    assert "blocked for 15 minutes, even with the right password" in html
    assert '<link rel="stylesheet"' in html  # the styled page, not axes' bare text


@pytest.mark.django_db
def test_nine_wrong_passwords_still_let_the_right_one_in(client, ana):
    for _ in range(9):
        assert post_login(client, "ana", "wrong-guess").status_code == 200
    assert post_login(client, "ana", "pw-ana").status_code == 302
    assert logged_in(client)


@pytest.mark.django_db
def test_the_lock_ends_after_the_lockout_period(client, ana):
    for _ in range(10):
        post_login(client, "ana", "wrong-guess")
    assert post_login(client, "ana", "pw-ana").status_code == 429
    # the lock-out period passes (each refused try started it again)
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16)
    )
    assert post_login(client, "ana", "pw-ana").status_code == 302
    assert logged_in(client)


@pytest.mark.django_db
def test_the_lock_is_per_username_so_others_can_still_log_in(client, ana):
    make_user("ben")
    for _ in range(10):
        post_login(client, "ana", "wrong-guess")
    assert post_login(client, "ben", "pw-ben").status_code == 302


@pytest.mark.django_db
def test_the_admin_login_is_throttled_too(client, ana):
    url = reverse("admin:login")
    for _ in range(10):
        client.post(url, {"username": "ana", "password": "wrong-guess"})
    assert post_login(client, "ana", "pw-ana").status_code == 429


# --- Content Security Policy and inline code ---------------------------------------------


class InlineCode(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' would block, and the links to follow."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.links: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script":
            self._in_script = True
            if not named.get("src"):
                self.problems.append("<script> without src")
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in attrs:
            if name.startswith("on") or name.startswith("hx-on"):
                self.problems.append(f"<{tag} {name}=...> event handler")
            if name == "style":
                self.problems.append(f"<{tag} style=...> attribute")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}='javascript:...'>")
            if value and value.strip().startswith("js:") and name.startswith("hx-"):
                self.problems.append(f"<{tag} {name}='js:...'> evaluated by htmx")
        if tag == "a" and named.get("href"):
            self.links.append(named["href"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append("script body inline")


def csp_directives(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy", "")
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_strict_csp(response, url: str) -> None:
    policy = csp_directives(response)
    assert policy.get("default-src") == ["'self'"], f"{url}: {policy}"
    for directive in ("script-src", "style-src"):
        assert policy.get(directive) == ["'self'"], f"{url}: {directive} {policy}"
    assert policy.get("object-src") == ["'none'"]
    assert policy.get("frame-ancestors") == ["'none'"]


@pytest.mark.slow
@pytest.mark.django_db
def test_every_dashboard_page_has_the_csp_header_and_no_inline_code(client):
    """Crawl the demo's dashboard from the home page as a superuser (full pages and their
    htmx fragments): each answer carries the strict CSP, and none holds anything it
    would block."""
    call_command("seed_demo", verbosity=0)
    client.force_login(make_user("root", superuser=True))
    seen: set[str] = set()
    queue = deque([reverse("home")])
    checked = 0
    while queue and checked < 90:
        url = queue.popleft()
        path = urlsplit(url).path
        if path in seen:
            continue
        seen.add(path)
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code == 200, f"{url} {headers}: {response.status_code}"
            assert_strict_csp(response, url)
            parser = InlineCode()
            parser.feed(response.content.decode())
            assert parser.problems == [], f"{url} {headers}: {parser.problems}"
        checked += 1
        for link in parser.links:
            target = urlsplit(link)
            if target.netloc or not target.path.startswith("/"):
                continue
            if target.path.startswith(("/admin/", "/static/")) or target.path in seen:
                continue
            queue.append(link)
    # the crawl reached every kind of page, not just the home page
    for name in ("/persona/", "/learning/queue/", "/learning/log/", "/memory/conversations/"):
        assert name in seen, sorted(seen)
    assert any(re.fullmatch(r"/persona/[\w-]+/rules/", p) for p in seen), sorted(seen)
    assert any(re.fullmatch(r"/memory/conversations/\d+/", p) for p in seen), sorted(seen)
    assert checked >= 15, sorted(seen)


@pytest.mark.django_db
def test_login_page_has_the_csp_and_htmx_adds_no_inline_style(client):
    response = client.get(reverse("login"))
    assert_strict_csp(response, "/login/")
    html = response.content.decode()
    # htmx 2 would otherwise insert its indicator <style>, which the policy blocks
    assert '"includeIndicatorStyles": false' in html
    css = (Path(settings.BASE_DIR) / "static" / "css" / "app.css").read_text()
    assert ".htmx-request .htmx-indicator" in css
