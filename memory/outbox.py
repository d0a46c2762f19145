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

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from pydantic import BaseModel
from sqlalchemy import Column, DateTime, Engine, Integer, MetaData, String, Table, Text, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from memory.errors import MemoryRejected, MemoryUnavailable
from memory.models import MemoryItem

if TYPE_CHECKING:
    from memory.client import MemoryClient

# memory/ never imports the bot, so the outbox declares its table on its own MetaData and takes an engine.
# The bot's migrations create it (core_0004); the declaration here must match that revision.
metadata = MetaData()
outbox_table = Table(
    "outbox", metadata,
    Column("bank_id", String(128), primary_key=True),
    Column("document_id", String(200), primary_key=True),
    Column("item", Text, nullable=False),
    Column("queued_at", DateTime(timezone=True), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    # While one process retains an item, others leave it alone until this time.
    Column("claimed_until", DateTime(timezone=True)),
    # Set while Hindsight has the item as a background operation not yet confirmed completed.
    Column("operation_id", String(200)),
    # What asked for this save (e.g. `card:<id>`), so its confirmation can be shown where it was asked.
    Column("origin", String(200)),
)
CLAIM_FOR = timedelta(minutes=2)


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
    """A queue of memories waiting for Hindsight (to be sent, or to be confirmed), in the bot's one database."""

    def __init__(self, engine: Engine, asynchronous: bool = False) -> None:
        self._engine = engine
        self.asynchronous = asynchronous

    def close(self) -> None:
        """Nothing to close: the engine belongs to whoever made it."""

    def _insert(self) -> postgresql.Insert | sqlite.Insert:
        dialect = self._engine.dialect.name
        return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(outbox_table)

    def put(self, bank_id: str, items: list[MemoryItem], error: str | None = None, origin: str | None = None) -> None:
        """Keep items to send; a newer version of a document replaces the older one, sent or not."""
        now = datetime.now(timezone.utc)
        with self._engine.begin() as db:
            for item in items:
                statement = self._insert().values(bank_id=bank_id, document_id=item.document_id, attempts=0,
                                                  item=item.model_dump_json(), queued_at=now, last_error=error,
                                                  origin=origin)
                db.execute(statement.on_conflict_do_update(
                    index_elements=["bank_id", "document_id"],
                    set_={"item": statement.excluded.item, "last_error": statement.excluded.last_error,
                          "operation_id": None, "origin": statement.excluded.origin}))

    def pending(self, bank_id: str | None = None) -> list[QueuedItem]:
        """Everything not confirmed stored: queued to send, and (async mode) sent but not yet confirmed."""
        c = outbox_table.c
        query = select(c.bank_id, c.item, c.attempts, c.last_error, c.operation_id, c.origin).order_by(
            c.queued_at, c.document_id)
        if bank_id is not None:
            query = query.where(c.bank_id == bank_id)
        with self._engine.connect() as db:
            rows = db.execute(query).all()
        return [
            QueuedItem(bank_id=r[0], item=MemoryItem.model_validate_json(r[1]), attempts=r[2], last_error=r[3],
                       operation_id=r[4], origin=r[5])
            for r in rows
        ]

    def drop(self, bank_id: str, document_id: str) -> bool:
        with self._engine.begin() as db:
            result = db.execute(delete(outbox_table).where(outbox_table.c.bank_id == bank_id,
                                                           outbox_table.c.document_id == document_id))
            return result.rowcount == 1

    def _claim(self, queued: QueuedItem) -> bool:
        """Take an item for one flush; another process flushing at the same time skips it."""
        now = datetime.now(timezone.utc)
        with self._engine.begin() as db:
            result = db.execute(update(outbox_table).where(
                outbox_table.c.bank_id == queued.bank_id, outbox_table.c.document_id == queued.item.document_id,
                or_(outbox_table.c.claimed_until.is_(None), outbox_table.c.claimed_until < now),
            ).values(claimed_until=now + CLAIM_FOR))
            return result.rowcount == 1

    def _mark_failed(self, bank_id: str, items: list[MemoryItem], error: str) -> None:
        with self._engine.begin() as db:
            for item in items:
                db.execute(update(outbox_table).where(
                    outbox_table.c.bank_id == bank_id, outbox_table.c.document_id == item.document_id,
                ).values(attempts=outbox_table.c.attempts + 1, last_error=error, claimed_until=None,
                         operation_id=None))

    def _mark_sent(self, bank_id: str, items: list[MemoryItem], operation_id: str) -> None:
        with self._engine.begin() as db:
            for item in items:
                # Only the version that was sent: a newer edit put meanwhile must be sent again.
                db.execute(update(outbox_table).where(
                    outbox_table.c.bank_id == bank_id, outbox_table.c.document_id == item.document_id,
                    outbox_table.c.item == item.model_dump_json(),
                ).values(operation_id=operation_id, last_error=None, claimed_until=None))

    async def retain_or_queue(self, memory: "MemoryClient", bank_id: str, items: list[MemoryItem],
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

    async def flush(self, memory: "MemoryClient") -> FlushReport:
        """Confirm what Hindsight finished, then send everything queued, bank by bank; failures stay queued."""
        origins = {q.origin for q in self.pending() if q.origin}
        confirmed = await self._confirm(memory)
        by_bank: dict[str, list[QueuedItem]] = {}
        for queued in self.pending():
            if not queued.saving and self._claim(queued):
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

    async def _confirm(self, memory: "MemoryClient") -> list[str]:
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
