"""`make run` (manage.py runlocal) turns the host API on for the local demo and says so."""

from __future__ import annotations

import json
import signal
import urllib.request

import pytest

from tests.personaweb.test_commands import local_run  # noqa: F401 (fixture)


@pytest.mark.slow
def test_runlocal_turns_the_api_on_and_says_so(local_run) -> None:  # noqa: F811
    proc, port, log = local_run
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/openapi.json", timeout=10) as r:
        assert r.status == 200
        assert r.headers["Cache-Control"] == "private, no-store" and r.headers["X-Request-ID"]
        assert "/v1/agents/{slug}/prefix" in json.loads(r.read())["paths"]
    text = log.read_text()
    assert f"host API on (PERSONAWEB_API_ENABLED): http://127.0.0.1:{port}/v1/docs" in text
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
