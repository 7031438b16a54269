"""A real HTTP receiver on loopback for webhook tests: ``http.server`` in a thread, started and stopped at will."""

from __future__ import annotations

import json
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    """Listens on 127.0.0.1:``port`` once ``start``ed; answers each POST with the next of ``answers`` (then 204)."""

    port: int
    posts: list[Received] = field(default_factory=list)
    answers: list[int | tuple[int, dict[str, str]]] = field(default_factory=list)  # (status, headers)
    server: ThreadingHTTPServer | None = None
    tls: ssl.SSLContext | None = None  # a server context: HTTPS

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                answer = receiver.answers.pop(0) if receiver.answers else 204
                status, extra = answer if isinstance(answer, tuple) else (answer, {})
                if status < 300:
                    receiver.posts.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                   body))
                self.send_response(status)
                for name, value in extra.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        if self.tls is not None:
            self.server.socket = self.tls.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"
