"""personaweb for Hermes, over the /v1 API: what the memory provider does, with the
standard library only (urllib, json). Nothing here imports Hermes or Django, so the
project's tests run it as it is, and the provider in ``__init__.py`` is a thin adapter.

The rule of this module: personaweb is never in the way of a conversation. Every call
has a short timeout; a failure is logged at warning (the operation and the status or
the error's kind, never a message's words or the token) and answers "no memory"; after
a failed connection the client waits ``RETRY_AFTER_S`` before it tries again, so a
server that is down costs one timeout, not one per call. A call that connected but
was too slow costs only itself. Turns are recorded from a
background thread, in order.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger("personaweb.hermes")

#: the provider's settings, in the Hermes home (written by `manage.py hermes
#: install-provider` or `hermes memory setup`); it never holds the token itself
CONFIG_FILE = "personaweb.json"
DEFAULT_TIMEOUT_S = 3.0
#: build_context may rank with the sentence model; Hermes gives a prefetch 8 s
DEFAULT_CONTEXT_TIMEOUT_S = 6.0
RETRY_AFTER_S = 30.0
#: turns waiting to be recorded; more are dropped (logged), never waited for
QUEUE_MAX = 200
#: /v1 limits (the API refuses longer values with a 400)
MAX_QUERY_CHARS = 2000
MAX_LABEL_CHARS = 200

CATEGORIES = [
    "explicit_facts",
    "expertise",
    "projects",
    "goals",
    "likes",
    "dislikes",
    "constraints",
    "identity",
    "traits",
    "interests",
    "style_notes",
    "behavior_patterns",
    "decision_style",
    "interpersonal",
    "boundaries",
    "habit",
    "state",
]
SENSITIVITIES = ["public", "internal", "confidential", "restricted"]
WRITE_SOURCES = ["direct", "bridge"]


@dataclass(frozen=True)
class Settings:
    url: str
    token_file: str
    agent: str
    principal: str
    timeout: float = DEFAULT_TIMEOUT_S
    context_timeout: float = DEFAULT_CONTEXT_TIMEOUT_S

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Settings | None:
        """The settings of a config file, or None when one it needs is missing."""
        keys = ("url", "token_file", "agent", "principal")
        values = {key: str(raw.get(key) or "").strip() for key in keys}
        if not all(values.values()):
            return None
        timeout = _seconds(raw.get("timeout"), DEFAULT_TIMEOUT_S)
        return cls(
            url=values["url"].rstrip("/"),
            token_file=values["token_file"],
            agent=values["agent"],
            principal=values["principal"],
            timeout=timeout,
            context_timeout=_seconds(
                raw.get("context_timeout"), max(timeout, DEFAULT_CONTEXT_TIMEOUT_S)
            ),
        )


def _seconds(value: Any, default: float) -> float:
    try:
        return min(30.0, max(0.2, float(value)))
    except (TypeError, ValueError):
        return default


def load_settings(hermes_home: str | os.PathLike[str]) -> Settings | None:
    path = Path(hermes_home) / CONFIG_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Settings.from_dict(raw) if isinstance(raw, dict) else None


def save_settings(hermes_home: str | os.PathLike[str], values: dict[str, Any]) -> Path:
    """Merge ``values`` into the config file (owner-only, written whole or not at all)."""
    path = Path(hermes_home) / CONFIG_FILE
    current: dict[str, Any] = {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            current = loaded
    except (OSError, ValueError):
        pass
    current.update({k: v for k, v in values.items() if v is not None})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(current, out, indent=2, sort_keys=True)
        out.write("\n")
    os.replace(tmp, path)
    return path


class Unavailable(Exception):
    """personaweb did not answer usefully; ``detail`` is safe to log (no text, no token)."""

    def __init__(self, detail: str, *, status: int | None = None, message: str = "") -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status
        #: personaweb's sentence for the caller (for a tool's answer; not logged)
        self.message = message


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any
    etag: str


class Client:
    """One /v1 call at a time: bearer token from the token file, JSON in and out."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._down_until = 0.0
        self._lock = threading.Lock()

    def _token(self) -> str:
        try:
            token = Path(self.settings.token_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise Unavailable(f"the token file cannot be read ({type(exc).__name__})") from None
        if not token:
            raise Unavailable("the token file is empty")
        return token

    def call(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
        etag: str = "",
        timeout: float | None = None,
    ) -> Answer:
        with self._lock:
            if time.monotonic() < self._down_until:
                raise Unavailable("skipped: personaweb did not answer a moment ago")
        url = self.settings.url + path
        if query:
            pairs = {k: v for k, v in query.items() if v is not None and v != ""}
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {
            "Authorization": f"Bearer {self._token()}",
            "Accept": "application/json",
            "User-Agent": "personaweb-hermes-provider",
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if etag:
            headers["If-None-Match"] = f'"{etag}"'
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.settings.timeout) as resp:
                raw = resp.read()
                return Answer(
                    status=resp.status,
                    data=json.loads(raw) if raw else None,
                    etag=(resp.headers.get("ETag") or "").strip('"'),
                )
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return Answer(
                    status=304, data=None, etag=(exc.headers.get("ETag") or "").strip('"')
                )
            code, message = _error_of(exc)
            raise Unavailable(f"HTTP {exc.code} {code}", status=exc.code, message=message) from None
        except urllib.error.URLError as exc:  # no connection: refused, unreachable, no answer
            with self._lock:
                self._down_until = time.monotonic() + RETRY_AFTER_S
            raise Unavailable(f"no connection ({exc.reason})") from None
        except (OSError, ValueError) as exc:  # connected, but too slow, cut off or not JSON
            raise Unavailable(f"{type(exc).__name__}: {exc}") from None


def _error_of(exc: urllib.error.HTTPError) -> tuple[str, str]:
    try:
        error = json.loads(exc.read() or b"{}").get("error") or {}
        return str(error.get("code") or ""), str(error.get("message") or "")
    except (OSError, ValueError, AttributeError):
        return "", ""


# --- the tools: host operations a model may call, each one /v1 route ----------------------


@dataclass(frozen=True)
class Tool:
    name: str
    #: the host operation (``api.operations``) and its route
    operation: str
    method: str
    path: str
    description: str
    parameters: dict[str, Any]
    #: arguments that go into the path, not the query or body
    in_path: tuple[str, ...] = ()


def _params(required: list[str], **props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


TOOLS: tuple[Tool, ...] = (
    Tool(
        "personaweb_beliefs_search",
        "beliefs_search",
        "GET",
        "/v1/memories",
        "List what is remembered about the person (their reviewed beliefs), newest first; "
        "filter by words that must all appear and by category.",
        _params(
            [],
            q={"type": "string", "maxLength": 200, "description": "words in the statement"},
            category={"type": "string", "enum": CATEGORIES},
            limit={"type": "integer", "minimum": 1, "maximum": 100},
        ),
    ),
    Tool(
        "personaweb_build_context",
        "build_context",
        "GET",
        "/v1/context",
        "Recall what matters about the person for a question: ranked beliefs, what is due, "
        "routines to ask about. Use it when the recalled context of the turn is not enough.",
        _params(
            ["query"],
            query={"type": "string", "minLength": 1, "maxLength": MAX_QUERY_CHARS},
            limit={"type": "integer", "minimum": 1, "maximum": 100},
        ),
    ),
    Tool(
        "personaweb_memory_write",
        "memory_write",
        "POST",
        "/v1/memories",
        "Remember one fact the person told you about themself (one short statement). A "
        "restatement reinforces the existing belief; a contradiction supersedes it. Never "
        "store secrets or instructions.",
        _params(
            ["category", "statement", "confidence"],
            category={"type": "string", "enum": CATEGORIES},
            statement={"type": "string", "minLength": 1, "maxLength": 500},
            confidence={"type": "number", "minimum": 0, "maximum": 1},
            source={"type": "string", "enum": WRITE_SOURCES, "default": "direct"},
            valid_until={"type": "string", "description": "ISO 8601 with an offset"},
            due={"type": "string", "description": "ISO 8601 with an offset"},
            sensitivity={"type": "string", "enum": SENSITIVITIES, "default": "internal"},
        ),
    ),
    Tool(
        "personaweb_belief_retire",
        "belief_retire",
        "POST",
        "/v1/memories/{memory_id}/retire",
        "Stop recalling a belief (its history is kept); delete=true also wipes its words, "
        "for when the person asks you to forget it.",
        _params(
            ["memory_id"],
            memory_id={"type": "integer", "minimum": 1},
            delete={"type": "boolean", "default": False},
        ),
        in_path=("memory_id",),
    ),
    Tool(
        "personaweb_intentions_list",
        "intentions_list",
        "GET",
        "/v1/intentions",
        "The person's one-off commitments (open by default), soonest due first.",
        _params(
            [],
            state={"type": "string", "enum": ["open", "done", "dropped", "missed", "all"]},
            limit={"type": "integer", "minimum": 1, "maximum": 100},
        ),
    ),
    Tool(
        "personaweb_intention_done",
        "intention_done",
        "POST",
        "/v1/intentions/{intention_id}/done",
        "Mark one of the person's intentions done.",
        _params(["intention_id"], intention_id={"type": "integer", "minimum": 1}),
        in_path=("intention_id",),
    ),
)
TOOLS_BY_NAME = {tool.name: tool for tool in TOOLS}


def tool_schemas() -> list[dict[str, Any]]:
    """The tools in OpenAI function form (``{"name", "description", "parameters"}``)."""
    return [
        {"name": t.name, "description": t.description, "parameters": t.parameters} for t in TOOLS
    ]


# --- the memory of one Hermes session ------------------------------------------------------


class Memory:
    """What the provider does for one agent and one person, without Hermes."""

    def __init__(self, settings: Settings, *, session: str = "", writes: bool = True) -> None:
        self.settings = settings
        self.client = Client(settings)
        self.session = session[:MAX_LABEL_CHARS]
        #: subagents, cron and flush contexts never record turns (Hermes's advice)
        self.writes = writes
        self._prefix_sha = ""
        self._prefix_text = ""
        #: (the question, the id of the context pack answered for it): sent with the turn
        #: of that question, so personaweb shows which memories shaped the reply
        self._pack: tuple[str, int] | None = None
        self._queue: queue.Queue[tuple[str, str, str, int | None] | None] = queue.Queue(QUEUE_MAX)
        self._worker: threading.Thread | None = None
        self._worker_lock = threading.Lock()

    # the pinned prefix: byte-stable so the host's prompt cache holds
    def prefix(self) -> str:
        path = f"/v1/agents/{urllib.parse.quote(self.settings.agent, safe='')}/prefix"
        query = {"principal": self.settings.principal, "session": self.session}
        try:
            answer = self.client.call("GET", path, query=query, etag=self._prefix_sha)
        except Unavailable as exc:
            # the last prefix read stays: the prompt keeps its bytes while personaweb is away
            logger.warning("personaweb prompt_prefix failed: %s", exc.detail)
            return self._prefix_text
        if answer.status == 304:
            return self._prefix_text
        data = answer.data if isinstance(answer.data, dict) else {}
        text, sha = data.get("prefix"), data.get("sha256")
        if isinstance(text, str) and isinstance(sha, str):
            self._prefix_text, self._prefix_sha = text, sha
        return self._prefix_text

    # the context pack of the turn
    def context(self, query: str) -> str:
        query = (query or "").strip()[:MAX_QUERY_CHARS]
        if not query:
            return ""
        params = {"agent": self.settings.agent, "principal": self.settings.principal}
        try:
            answer = self.client.call(
                "GET",
                "/v1/context",
                query={**params, "query": query},
                timeout=self.settings.context_timeout,
            )
        except Unavailable as exc:
            if exc.status == 404:  # nobody remembered yet: nothing to recall
                logger.debug("personaweb build_context: no such person yet")
            else:
                logger.warning("personaweb build_context failed: %s", exc.detail)
            return ""
        data = answer.data if isinstance(answer.data, dict) else {}
        pack_id = data.get("pack_id")
        self._pack = (query, pack_id) if isinstance(pack_id, int) else None
        text = data.get("text")
        return text if isinstance(text, str) else ""

    # turns: queued, recorded in order by one background thread
    def record_turn(self, user_text: str, assistant_text: str, *, session: str = "") -> bool:
        """Queue the turn; False when it was not queued (nothing to record, writes off,
        or the queue is full). Never waits for personaweb."""
        if not self.writes or not (user_text or "").strip():
            return False
        label = (session or self.session or "hermes")[:MAX_LABEL_CHARS]
        pack, self._pack = self._pack, None
        # the pack recalled for this very question shaped this reply
        pack_id = (
            pack[1]
            if pack
            and (assistant_text or "").strip()
            and pack[0] == user_text.strip()[:MAX_QUERY_CHARS]
            else None
        )
        try:
            self._queue.put_nowait((label, user_text, assistant_text or "", pack_id))
        except queue.Full:
            logger.warning(
                "personaweb record_turn: %d turns waiting; this one is dropped", QUEUE_MAX
            )
            return False
        self._start_worker()
        return True

    def _start_worker(self) -> None:
        with self._worker_lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(
                    target=self._drain, name="personaweb-turns", daemon=True
                )
                self._worker.start()

    def _drain(self) -> None:
        path = f"/v1/agents/{urllib.parse.quote(self.settings.agent, safe='')}/turns"
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                label, user_text, assistant_text, pack_id = item
                body: dict[str, Any] = {
                    "principal": self.settings.principal,
                    "conversation": label,
                    "user_text": user_text,
                }
                if assistant_text.strip():
                    body["assistant_text"] = assistant_text
                    if pack_id is not None:
                        body["context_pack"] = pack_id
                self._post_turn(path, body)
            finally:
                self._queue.task_done()

    def _post_turn(self, path: str, body: dict[str, Any]) -> None:
        try:
            self.client.call("POST", path, body=body)
        except Unavailable as exc:
            if "context_pack" in body and exc.status in (400, 409):
                # a pack personaweb no longer takes (expired, or an older server) never
                # costs the turn: it is recorded without it
                logger.info("personaweb record_turn: context pack not taken; sent without")
                self._post_turn(path, {k: v for k, v in body.items() if k != "context_pack"})
                return
            logger.warning("personaweb record_turn failed: %s", exc.detail)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait up to ``timeout`` for the queued turns; True when none is left."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.02)
        return not self._queue.unfinished_tasks

    def close(self, timeout: float = 5.0) -> None:
        self.flush(timeout)
        worker = self._worker
        if worker is not None and worker.is_alive():
            try:
                self._queue.put_nowait(None)
            except queue.Full:
                return
            worker.join(timeout=0.5)

    # tools
    def tool(self, name: str, args: dict[str, Any]) -> str:
        """Run a tool; always a JSON text (``{"error": ...}`` when it did not work)."""
        tool = TOOLS_BY_NAME.get(name)
        if tool is None:
            return json.dumps({"error": f"personaweb has no tool {name}."})
        args = dict(args or {})
        path = tool.path
        for key in tool.in_path:
            try:
                path = path.replace("{" + key + "}", str(int(args.pop(key))))
            except (KeyError, TypeError, ValueError):
                return json.dumps({"error": f"Give {key} as a whole number."})
        known = tool.parameters["properties"]
        args = {k: v for k, v in args.items() if k in known and v is not None}
        person = {"principal": self.settings.principal}
        if tool.method == "GET":
            if tool.operation == "build_context":
                person["agent"] = self.settings.agent
            query, body = {**args, **person}, None
        else:
            body = {**args, **person}
            if tool.operation == "memory_write":
                body = {"agent": self.settings.agent, "source": "direct", **body}
            query = None
        timeout = self.settings.context_timeout if tool.operation == "build_context" else None
        try:
            answer = self.client.call(tool.method, path, query=query, body=body, timeout=timeout)
        except Unavailable as exc:
            logger.warning("personaweb %s failed: %s", tool.operation, exc.detail)
            if exc.message:
                return json.dumps({"error": exc.message})
            return json.dumps({"error": "personaweb is not answering now; memory is unavailable."})
        return json.dumps(answer.data)
