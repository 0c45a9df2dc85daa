"""Run web, worker and beat together for a local installation; Ctrl-C stops them all.

Without ``REDIS_URL`` one Celery worker with embedded beat (``-B``) runs on the
filesystem broker in ``var/broker``; with ``REDIS_URL`` the worker and beat are two
processes, as on a server. Each child's output is printed with its name in front.
If any child stops, the others are stopped too, so a half-running system is never
left behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

STOP_GRACE_SECONDS = 15.0


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    reader: threading.Thread | None = field(default=None, repr=False)


def child_commands(*, host: str, port: int, redis: bool) -> list[Child]:
    """The processes of a local run: web, then the worker (and beat when on Redis)."""
    python = sys.executable
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    celery = [python, "-m", "celery", "-A", "personaweb"]
    web = Child("web", [python, manage, "runserver", f"{host}:{port}", "--noreload"])
    if redis:
        return [
            web,
            Child("worker", [*celery, "worker", "--pool=threads", "--concurrency=2", "-l", "info"]),
            Child("beat", [*celery, "beat", "-l", "info"]),
        ]
    return [
        web,
        Child(
            "worker", [*celery, "worker", "-B", "--pool=threads", "--concurrency=2", "-l", "info"]
        ),
    ]


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:
    """In the child: receive SIGTERM if runlocal itself is killed (Linux only)."""
    try:
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and beat; Ctrl-C stops all of them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))

    def handle(self, *args: Any, **options: Any) -> None:
        host: str = options["host"]
        port: int = options["port"]
        if not port_is_free(host, port):
            raise CommandError(
                f"Port {port} on {host} is already in use. Stop the program using it, "
                f"or pick another port: PORT={port + 1} make run"
            )
        redis = bool(getattr(settings, "REDIS_URL", ""))
        children = child_commands(host=host, port=port, redis=redis)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._signal: int | None = None
        broker = "Redis" if redis else f"the filesystem broker in {settings.BROKER_DIR}"
        self._say(
            "runlocal",
            f"starting {', '.join(c.name for c in children)} on {broker}; Ctrl-C stops all",
        )

        previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
        for sig in previous:
            signal.signal(sig, self._on_signal)
        exit_code = 0
        try:
            # the local demo has the host API on (PERSONAWEB_API_ENABLED=0 keeps it off)
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            env.setdefault("PERSONAWEB_API_ENABLED", "1")
            api_on = env["PERSONAWEB_API_ENABLED"].strip().lower() in {"1", "true", "yes", "on"}
            for child in children:
                # Own session: the terminal's Ctrl-C reaches only us, and we stop the
                # children in order, each with its whole process group.
                child.process = subprocess.Popen(
                    child.argv,
                    cwd=settings.BASE_DIR,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
                )
            for child in children:
                child.reader = threading.Thread(target=self._pump, args=(child,), daemon=True)
                child.reader.start()
            self._say("runlocal", f"open http://{host}:{port}/")
            if api_on:
                self._say(
                    "runlocal",
                    f"host API on (PERSONAWEB_API_ENABLED): http://{host}:{port}/v1/docs; "
                    f"make a token on http://{host}:{port}/tokens/ or with "
                    "`manage.py api token create`",
                )
            else:
                self._say("runlocal", "host API off (PERSONAWEB_API_ENABLED=0): /v1/ answers 404")
            exit_code = self._watch(children)
        finally:
            self._stop_all(children)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if exit_code:
            raise CommandError(
                f"A process stopped with exit code {exit_code}; everything was stopped."
            )

    # -- helpers ---------------------------------------------------------------
    def _on_signal(self, signum: int, _frame: object) -> None:
        # No printing here: the handler may interrupt the main thread inside _say.
        self._signal = signum
        self._stopping.set()

    def _watch(self, children: list[Child]) -> int:
        """Wait until a signal arrives or a child exits; return the exit code to report."""
        while not self._stopping.is_set():
            for child in children:
                assert child.process is not None
                code = child.process.poll()
                if code is not None:
                    self._say(
                        "runlocal", f"{child.name} exited with code {code}; stopping everything"
                    )
                    self._stopping.set()
                    return code or 1
            self._stopping.wait(0.5)
        if self._signal is not None:
            self._say("runlocal", f"got {signal.Signals(self._signal).name}, stopping everything")
        return 0

    def _stop_all(self, children: list[Child]) -> None:
        running = [c for c in children if c.process is not None and c.process.poll() is None]
        for child in running:
            assert child.process is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in running:
            assert child.process is not None
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._say("runlocal", f"{child.name} did not stop in time; killing it")
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.process.pid, signal.SIGKILL)
                child.process.wait()
        for child in children:
            if child.reader is not None:
                child.reader.join(timeout=2)
        self._say("runlocal", "all stopped")

    def _pump(self, child: Child) -> None:
        assert child.process is not None and child.process.stdout is not None
        for raw in iter(child.process.stdout.readline, b""):
            self._say(child.name, raw.decode("utf-8", "replace").rstrip("\n"))

    def _say(self, name: str, line: str) -> None:
        with self._lock:
            self.stdout.write(f"{name:<8}| {line}")
            self.stdout.flush()
