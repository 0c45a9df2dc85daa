"""Playwright harness for the browser tests: one headless Chromium per test module.

Every test in tests/browser is marked ``browser``. Use the ``page`` fixture (a fresh
browser context per test, 1280x800) with pytest-django's ``live_server`` and the
``login`` fixture: ``login(page, live_server, "olivia", "pw-olivia")``. Screenshots go
to ``var/screenshots`` (``screenshot_dir`` fixture).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

# pytest-django's live_server runs in a thread while Playwright's sync API keeps an
# event loop in the test thread; Django's async-safety check would refuse the ORM.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class _OneRequestAtATime(ThreadedWSGIServer):
    """The live server with its app behind a lock. On SQLite the live server's threads
    share the test's in-memory database connection (Django's LiveServerThread hands them
    the test thread's connection, so both see the same data), and one connection must not
    run two transactions at once: two requests in flight (a save while an htmx preview of
    the same page loads) broke its savepoint stack ("pop from empty list") and left the
    database locked for every later test of the process. Connections (keep-alive) still
    get a thread each; only the app runs one request at a time, as a process of a real
    server with its own connection would not need to."""

    def set_app(self, application: Any) -> None:
        lock = threading.Lock()

        def one_at_a_time(environ: Any, start_response: Any) -> Any:
            with lock:
                response = application(environ, start_response)
                # read and close the body inside the lock: a streamed one may still use
                # the database, and closing sends request_finished
                try:
                    body = b"".join(response)
                finally:
                    close = getattr(response, "close", None)
                    if close is not None:
                        close()
                return [body]

        super().set_app(one_at_a_time)


LiveServerThread.server_class = _OneRequestAtATime

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

    from safety import encoder

    # A server warms the sentence encoder when it starts; the live server does not, so
    # the first page that scans text (PERSONAWEB_PAGE_SCAN_WAIT) would load it inside a
    # request, which on a busy machine outlasts the page waits. Loaded here instead.
    encoder.get_model()
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


#: axe-core impacts that fail a page: a person using a screen reader or a keyboard
#: could not use it. "moderate" and "minor" findings are printed, not failed.
BLOCKING_IMPACTS = ("serious", "critical")


def _axe_violations(page: Any) -> list[dict[str, Any]]:
    # axe-core ships inside axe-playwright-python (pinned); page.evaluate runs it through
    # the DevTools protocol, so the page's CSP (no inline scripts) does not block it.
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return list(results.response.get("violations", []))


def _check_page(page: Any, screenshot_dir: Path, name: str) -> None:
    """Screenshot the page at 1280 and at 800 px wide and fail on a serious axe finding.

    Leaves the viewport as it found it. The screenshots are ``<name>-1280.png`` and
    ``<name>-800.png`` in ``var/screenshots``: look at them.
    """
    before = page.viewport_size or WIDE
    try:
        for label, size in (("1280", WIDE), ("800", NARROW)):
            page.set_viewport_size(size)
            page.screenshot(path=str(screenshot_dir / f"{name}-{label}.png"), full_page=True)
        page.set_viewport_size(WIDE)
        violations = _axe_violations(page)
    finally:
        page.set_viewport_size(before)
    blocking = [v for v in violations if v.get("impact") in BLOCKING_IMPACTS]
    for violation in violations:
        if violation not in blocking:
            print(f"axe ({violation.get('impact')}): {violation['id']}: {violation['help']}")
    if blocking:
        lines = [
            f"{v['impact']}: {v['id']}: {v['help']} at "
            + ", ".join(str(node.get("target")) for node in v.get("nodes", [])[:3])
            for v in blocking
        ]
        raise AssertionError(f"axe-core found on {page.url}:\n" + "\n".join(lines))


@pytest.fixture
def check_page(screenshot_dir: Path) -> Callable[[Any, str], None]:
    """``check_page(page, "name")``: screenshots at 1280 and 800 px and an axe-core check
    that fails on a serious or critical violation."""

    def check(page: Any, name: str) -> None:
        _check_page(page, screenshot_dir, name)

    return check
