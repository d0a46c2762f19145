"""The retain outbox: memories not yet confirmed stored by Hindsight wait here, durably.

Synchronous mode (no language model on the server: retain takes a fraction of a second): a memory that could not
be stored while Hindsight was down is queued and flushed later.

Asynchronous mode (LLM mode: extraction takes seconds to minutes): every save is written here first, then handed
to Hindsight as a background operation with a stable id. The row stays, marked with that operation, until
Hindsight reports it completed; a failed or lost operation is sent again. So Save answers at once and nothing
unconfirmed is forgotten.

Items keep their original event time and document id, so a late flush stores exactly what would have been
stored on time, once (the document id replaces any earlier copy).
"""

import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel

from memory.client import MemoryClient
from memory.errors import MemoryRejected, MemoryUnavailable
from memory.models import MemoryItem

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    bank_id TEXT NOT NULL, document_id TEXT NOT NULL, item TEXT NOT NULL,
    queued_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT,
    PRIMARY KEY (bank_id, document_id)
);
"""
_COLUMNS = "bank_id, item, attempts, last_error, operation_id, origin"


class QueuedItem(BaseModel):
    bank_id: str
    item: MemoryItem
    attempts: int
    last_error: str | None
    operation_id: str | None = None
    """Set while Hindsight has the item as a background operation not yet confirmed completed."""
    origin: str | None = None
    """What asked for this save (e.g. `card:<id>`), so its confirmation can be shown where it was asked."""

    @property
    def saving(self) -> bool:
        return self.operation_id is not None


class RetainOutcome(BaseModel):
    stored: int
    queued: int
    saving: int = 0
    """Accepted by Hindsight as a background operation; kept here until it is confirmed."""

    @property
    def fully_stored(self) -> bool:
        """Nothing waits for Hindsight to come back (items `saving` are accepted and only being confirmed)."""
        return self.queued == 0


class FlushReport(BaseModel):
    stored: int
    still_queued: int
    saving: int = 0
    confirmed: list[str] = []
    """Document ids Hindsight confirmed stored during this flush."""
    confirmed_origins: list[str] = []
    """The origins of those saves whose every item is now confirmed."""


class Outbox:
    """A SQLite queue of memories waiting for Hindsight (to be sent, or to be confirmed)."""

    def __init__(self, path: Path, asynchronous: bool = False) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.asynchronous = asynchronous
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(outbox)")}
        for column in ("operation_id", "origin"):
            if column not in columns:
                self._db.execute(f"ALTER TABLE outbox ADD COLUMN {column} TEXT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def put(self, bank_id: str, items: list[MemoryItem], error: str | None = None, origin: str | None = None) -> None:
        """Keep items to send; a newer version of a document replaces the older one, sent or not."""
        now = datetime.now(timezone.utc).isoformat()
        with self._lock:
            for item in items:
                self._db.execute(
                    "INSERT INTO outbox (bank_id, document_id, item, queued_at, last_error, origin) "
                    "VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (bank_id, document_id) DO UPDATE SET item = excluded.item, "
                    "last_error = excluded.last_error, operation_id = NULL, origin = excluded.origin",
                    (bank_id, item.document_id, item.model_dump_json(), now, error, origin),
                )

    def pending(self, bank_id: str | None = None) -> list[QueuedItem]:
        """Everything not confirmed stored: queued to send, and (async mode) sent but not yet confirmed."""
        query = f"SELECT {_COLUMNS} FROM outbox"
        args: tuple[str, ...] = ()
        if bank_id is not None:
            query += " WHERE bank_id = ?"
            args = (bank_id,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY queued_at", args).fetchall()
        return [
            QueuedItem(bank_id=r[0], item=MemoryItem.model_validate_json(r[1]), attempts=r[2], last_error=r[3],
                       operation_id=r[4], origin=r[5])
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
                    "UPDATE outbox SET attempts = attempts + 1, last_error = ?, operation_id = NULL "
                    "WHERE bank_id = ? AND document_id = ?",
                    (error, bank_id, item.document_id),
                )

    def _mark_sent(self, bank_id: str, items: list[MemoryItem], operation_id: str) -> None:
        with self._lock:
            for item in items:
                self._db.execute(
                    "UPDATE outbox SET operation_id = ?, last_error = NULL WHERE bank_id = ? AND document_id = ? "
                    "AND item = ?",
                    (operation_id, bank_id, item.document_id, item.model_dump_json()),
                )

    async def retain_or_queue(self, memory: MemoryClient, bank_id: str, items: list[MemoryItem],
                              origin: str | None = None) -> RetainOutcome:
        """Retain now (async mode: hand over and keep until confirmed); if Hindsight is down, queue the items."""
        if not self.asynchronous:
            try:
                await memory.retain(bank_id, items)
            except MemoryUnavailable as exc:
                self.put(bank_id, items, error=str(exc))
                return RetainOutcome(stored=0, queued=len(items))
            return RetainOutcome(stored=len(items), queued=0)
        self.put(bank_id, items, origin=origin)
        try:
            operation = await memory.retain_async(bank_id, items)
        except MemoryUnavailable as exc:
            self._mark_failed(bank_id, items, str(exc))
            return RetainOutcome(stored=0, queued=len(items))
        except MemoryRejected:
            for item in items:
                self.drop(bank_id, item.document_id)
            raise
        self._mark_sent(bank_id, items, operation.operation_id)
        return RetainOutcome(stored=0, queued=0, saving=len(items))

    async def flush(self, memory: MemoryClient) -> FlushReport:
        """Confirm what Hindsight finished, then send everything queued, bank by bank; failures stay queued."""
        origins = {q.origin for q in self.pending() if q.origin}
        confirmed = await self._confirm(memory)
        by_bank: dict[str, list[QueuedItem]] = {}
        for queued in self.pending():
            if not queued.saving:
                by_bank.setdefault(queued.bank_id, []).append(queued)
        stored = 0
        for bank_id, rows in by_bank.items():
            items = [r.item for r in rows]
            try:
                if self.asynchronous:
                    # A resubmission after a failed operation needs a new id, or Hindsight returns the failure.
                    operation = await memory.retain_async(bank_id, items, attempt=max(r.attempts for r in rows))
                else:
                    await memory.retain(bank_id, items)
            except MemoryUnavailable as exc:
                self._mark_failed(bank_id, items, str(exc))
                continue
            if self.asynchronous:
                self._mark_sent(bank_id, items, operation.operation_id)
                continue
            for item in items:
                self.drop(bank_id, item.document_id)
            stored += len(items)
        left = self.pending()
        done = sorted(origins - {q.origin for q in left if q.origin})
        return FlushReport(stored=stored + len(confirmed), still_queued=sum(not q.saving for q in left),
                           saving=sum(q.saving for q in left), confirmed=confirmed, confirmed_origins=done)

    async def _confirm(self, memory: MemoryClient) -> list[str]:
        """Drop rows whose operation completed; put rows whose operation failed or vanished back in the queue."""
        by_operation: dict[tuple[str, str], list[MemoryItem]] = {}
        for queued in self.pending():
            if queued.operation_id is not None:
                by_operation.setdefault((queued.bank_id, queued.operation_id), []).append(queued.item)
        confirmed: list[str] = []
        for (bank_id, operation_id), items in by_operation.items():
            try:
                status = await memory.operation_status(bank_id, operation_id)
            except MemoryUnavailable:
                continue
            if status.status == "completed":
                for item in items:
                    self.drop(bank_id, item.document_id)
                confirmed += [item.document_id for item in items]
            elif status.status in ("failed", "cancelled", "unknown"):
                self._mark_failed(bank_id, items, f"operation {status.status}: {status.error or ''}".strip())
        return confirmed

    def forget(self, bank_id: str, tag: str) -> list[str]:
        """Drop every waiting item carrying `tag` (a subject being erased); returns their document ids."""
        gone = [q.item.document_id for q in self.pending(bank_id) if tag in q.item.tags]
        for document_id in gone:
            self.drop(bank_id, document_id)
        return gone
