"""The retain outbox: memories that could not be stored while Hindsight was down wait here, durably.

Items keep their original event time and document id, so a late flush stores exactly what would have
been stored on time, once (the document id replaces any earlier copy).
"""

import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel

from memory.client import MemoryClient
from memory.errors import MemoryUnavailable
from memory.models import MemoryItem

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    bank_id TEXT NOT NULL, document_id TEXT NOT NULL, item TEXT NOT NULL,
    queued_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
    PRIMARY KEY (bank_id, document_id)
);
"""


class QueuedItem(BaseModel):
    bank_id: str
    item: MemoryItem
    attempts: int
    last_error: str | None


class RetainOutcome(BaseModel):
    stored: int
    queued: int

    @property
    def fully_stored(self) -> bool:
        return self.queued == 0


class FlushReport(BaseModel):
    stored: int
    still_queued: int


class Outbox:
    """A SQLite queue of memories waiting for Hindsight."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, bank_id: str, items: list[MemoryItem], error: str | None = None) -> None:
        now = datetime.now(timezone.utc).isoformat()
        with self._lock:
            for item in items:
                self._db.execute(
                    "INSERT INTO outbox (bank_id, document_id, item, queued_at, last_error) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (bank_id, document_id) DO UPDATE SET item = excluded.item, last_error = excluded.last_error",
                    (bank_id, item.document_id, item.model_dump_json(), now, error),
                )

    def pending(self, bank_id: str | None = None) -> list[QueuedItem]:
        query = "SELECT bank_id, item, attempts, last_error FROM outbox"
        args: tuple[str, ...] = ()
        if bank_id is not None:
            query += " WHERE bank_id = ?"
            args = (bank_id,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY queued_at", args).fetchall()
        return [
            QueuedItem(bank_id=r[0], item=MemoryItem.model_validate_json(r[1]), attempts=r[2], last_error=r[3])
            for r in rows
        ]

    def drop(self, bank_id: str, document_id: str) -> bool:
        with self._lock:
            cursor = self._db.execute(
                "DELETE FROM outbox WHERE bank_id = ? AND document_id = ?", (bank_id, document_id)
            )
            return cursor.rowcount == 1

    def _mark_failed(self, bank_id: str, items: list[MemoryItem], error: str) -> None:
        with self._lock:
            for item in items:
                self._db.execute(
                    "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE bank_id = ? AND document_id = ?",
                    (error, bank_id, item.document_id),
                )

    async def retain_or_queue(self, memory: MemoryClient, bank_id: str, items: list[MemoryItem]) -> RetainOutcome:
        """Retain now; if Hindsight is unavailable, queue the items and report them queued."""
        try:
            await memory.retain(bank_id, items)
        except MemoryUnavailable as exc:
            self.put(bank_id, items, error=str(exc))
            return RetainOutcome(stored=0, queued=len(items))
        return RetainOutcome(stored=len(items), queued=0)

    async def flush(self, memory: MemoryClient) -> FlushReport:
        """Retain everything queued, bank by bank; whatever still fails stays queued."""
        by_bank: dict[str, list[MemoryItem]] = {}
        for queued in self.pending():
            by_bank.setdefault(queued.bank_id, []).append(queued.item)
        stored = 0
        for bank_id, items in by_bank.items():
            try:
                await memory.retain(bank_id, items)
            except MemoryUnavailable as exc:
                self._mark_failed(bank_id, items, str(exc))
                continue
            for item in items:
                self.drop(bank_id, item.document_id)
            stored += len(items)
        return FlushReport(stored=stored, still_queued=len(self.pending()))
