"""A fake OpenAI-compatible endpoint for the tests: a real HTTP server on 127.0.0.1.

``POST /v1/chat/completions`` answers from a script: each entry is a dict with
``content`` (the assistant message text), or ``status`` (an HTTP error), or ``sleep``
(seconds to wait before answering, to trip the client's timeout). When the script runs
out, the last entry repeats. Every request is counted and kept in ``requests``.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeOpenAI:
    def __init__(self) -> None:
        self.script: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def calls(self) -> int:
        with self._lock:
            return len(self.requests)

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, *entries: dict[str, Any]) -> None:
        with self._lock:
            self.script = list(entries)

    def reply_json(self, data: Any, *, fence: bool = False) -> None:
        text = json.dumps(data)
        self.answer({"content": f"```json\n{text}\n```" if fence else text})

    def _next(self) -> dict[str, Any]:
        with self._lock:
            if not self.script:
                return {"content": json.dumps({"field": None, "sentence": "", "evidence": []})}
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append({"path": self.path, "body": body})
                entry = fake._next()
                if entry.get("sleep"):
                    time.sleep(entry["sleep"])
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found"}})
                    return
                if entry.get("status"):
                    self._send(entry["status"], {"error": {"message": "scripted failure"}})
                    return
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "fake"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {
                                    "role": "assistant",
                                    "content": entry.get("content", ""),
                                },
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": 120,
                            "completion_tokens": 30,
                            "total_tokens": 150,
                        },
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out
                    pass

        return Handler
