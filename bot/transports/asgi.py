"""Serving an ASGI app inside the bot's own event loop, stopped by the bot (not by uvicorn's signal handlers)."""

import contextlib
from collections.abc import Iterator

import uvicorn


class QuietServer(uvicorn.Server):
    """uvicorn without its own signal handling: `serve` stops it, as it stops PTB."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield
