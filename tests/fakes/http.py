"""A tiny threaded HTTP server on loopback for fakes of external services, with a request log."""

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    announce: int | None = None
    """Send the body in pieces with this Content-Length instead of its own (0: none at all, the end of the body
    being the connection closing), as a server that lies about, or does not say, how much is coming."""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of_json(cls, value: Any, status: int = 200) -> "Response":
        return cls(status=status, body=json.dumps(value).encode())


Route = Callable[[Recorded], Response]


@dataclass
class FakeServer:
    """Routes (method, path prefix) to handlers; records every request it sees."""

    routes: dict[tuple[str, str], Route] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    streamed: list[int] = field(default_factory=list)
    """For each body sent with a false or missing length: how many bytes the client took before hanging up."""
    port: int = 0
    keep_requests: bool = True

    def __post_init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                recorded = Recorded(self.command, self.path, dict(self.headers.items()), self.rfile.read(length))
                if fake.keep_requests:
                    fake.requests.append(recorded)
                route = fake.match(self.command, self.path)
                response = route(recorded) if route else Response(404, b'{"error": "no route"}')
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                for name, value in response.headers.items():
                    self.send_header(name, value)
                if response.announce is None:
                    self.send_header("Content-Length", str(len(response.body)))
                    self.end_headers()
                    self.wfile.write(response.body)
                    return
                self._stream(response)

            def _stream(self, response: Response) -> None:
                if response.announce:
                    self.send_header("Content-Length", str(response.announce))
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                sent = 0
                try:
                    for start in range(0, len(response.body), 64 * 1024):
                        piece = response.body[start:start + 64 * 1024]
                        self.wfile.write(piece)
                        self.wfile.flush()
                        sent += len(piece)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                fake.streamed.append(sent)

            do_GET = do_POST = _serve

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def match(self, method: str, path: str) -> Route | None:
        candidates = [(p, r) for (m, p), r in self.routes.items() if m == method and path.startswith(p)]
        return max(candidates, key=lambda c: len(c[0]))[1] if candidates else None

    def route(self, method: str, prefix: str, handler: Route) -> None:
        self.routes[(method, prefix)] = handler

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
