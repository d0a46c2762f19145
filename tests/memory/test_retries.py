"""Reads retry the way the Hindsight client does (at capacity: 429/503, honouring Retry-After); writes never
retry in the client, so a failed write surfaces at once and the outbox keeps it."""

from collections import deque
from datetime import datetime

from pathlib import Path

import pytest

from memory import MemoryClient, MemoryItem, MemoryUnavailable, RecallRequest
from memory.asof import IST
from tests.fakes.http import FakeServer, Recorded, Response

BUSY = Response.of_json({"detail": "at capacity"}, status=503)
BUSY.headers["Retry-After"] = "0"


def scripted(answers: list[Response]) -> tuple[FakeServer, list[Recorded]]:
    server, queue, seen = FakeServer(), deque(answers), []

    def answer(request: Recorded) -> Response:
        seen.append(request)
        return queue.popleft() if queue else BUSY

    server.route("POST", "/v1/default/banks/", answer)
    server.route("GET", "/v1/default/banks/", answer)
    return server, seen


async def test_recall_retries_a_busy_server_and_then_answers() -> None:
    server, seen = scripted([BUSY, Response.of_json({"results": []})])
    try:
        async with MemoryClient(server.url, read_attempts=3) as memory:
            assert await memory.recall("b", RecallRequest(query="q")) == []
    finally:
        server.close()
    assert len(seen) == 2


async def test_recall_gives_up_after_its_attempts() -> None:
    server, seen = scripted([])
    try:
        async with MemoryClient(server.url, read_attempts=2) as memory:
            with pytest.raises(MemoryUnavailable):
                await memory.recall("b", RecallRequest(query="q"))
    finally:
        server.close()
    assert len(seen) == 2


async def test_listing_documents_retries_too() -> None:
    server, seen = scripted([BUSY, Response.of_json({"items": [], "total": 0, "limit": 500, "offset": 0})])
    try:
        async with MemoryClient(server.url, read_attempts=3) as memory:
            assert await memory.list_documents("b") == []
    finally:
        server.close()
    assert len(seen) == 2


async def test_a_write_is_sent_once_and_its_failure_surfaces() -> None:
    server, seen = scripted([])
    item = MemoryItem(content="x", event_time=datetime(2026, 4, 8, 11, tzinfo=IST), context="c", document_id="d")
    try:
        async with MemoryClient(server.url, read_attempts=3) as memory:
            with pytest.raises(MemoryUnavailable):
                await memory.retain("b", [item])
            with pytest.raises(MemoryUnavailable):
                await memory.retain_async("b", [item])
    finally:
        server.close()
    assert len(seen) == 2


async def test_outbox_keeps_an_async_save_until_confirmed_and_resends_a_failed_one(tmp_path: object) -> None:
    from memory.outbox import Outbox
    from tests.databases import sqlite_database
    accepted = Response.of_json({"success": True, "bank_id": "b", "items_count": 1, "async": True})
    status = {"failed": Response.of_json({"operation_id": "x", "status": "failed", "error_message": "model down"}),
              "done": Response.of_json({"operation_id": "x", "status": "completed"})}
    server, seen = scripted([accepted, status["failed"], accepted, status["done"]])
    item = MemoryItem(content="x", event_time=datetime(2026, 4, 8, 11, tzinfo=IST), context="c", document_id="d")
    database = sqlite_database(Path(str(tmp_path)))
    outbox = Outbox(database.engine, asynchronous=True)
    try:
        async with MemoryClient(server.url) as memory:
            outcome = await outbox.retain_or_queue(memory, "b", [item])
            assert outcome.saving == 1 and outcome.fully_stored
            [first] = outbox.pending()
            report = await outbox.flush(memory)  # failed -> sent again, with a new operation id
            [second] = outbox.pending()
            assert second.saving and second.operation_id != first.operation_id and report.confirmed == []
            report = await outbox.flush(memory)
            assert report.confirmed == ["d"] and outbox.pending() == []
    finally:
        outbox.close()
        server.close()
    sent = [r.json() for r in seen if r.method == "POST"]
    assert [s["operation_id"] for s in sent] == [first.operation_id, second.operation_id]
