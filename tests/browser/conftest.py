"""Playwright harness for the browser tests: one headless Chromium per test module.

Every test in tests/browser is marked ``browser``. Use the ``page`` fixture (a fresh
browser context per test, 1280x800) with pytest-django's ``live_server`` and the
``login`` fixture: ``login(page, live_server, "olivia", "pw-olivia")``. Screenshots go
to ``var/screenshots`` (``screenshot_dir`` fixture).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

# pytest-django's live_server runs in a thread while Playwright's sync API keeps an
# event loop in the test thread; Django's async-safety check would refuse the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 800, "height": 900}
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


# Per module, not per session: Playwright's sync API keeps an event loop running in the
# test thread while it is open, and the MCP tests' anyio.run() refuses to start inside
# one. Under pytest-xdist a process may run browser tests and then MCP tests.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            "the browser tests need Debian's Chromium at /usr/bin/chromium (make test installs it as root)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=WIDE)
    context.set_default_timeout(20_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def screenshot_dir() -> Path:
    path = Path(settings.VAR_DIR) / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _login(page: Any, live_server: Any, username: str, password: str) -> None:
    """Log in through the real form and wait for the page it lands on."""
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()
    if "/login/" in page.url:
        raise AssertionError(
            f"Logging in as {username!r} failed; the page says: {page.inner_text('main')[:300]}"
        )


@pytest.fixture
def login() -> Callable[[Any, Any, str, str], None]:
    """``login(page, live_server, username, password)``"""
    return _login
