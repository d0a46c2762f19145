"""The retain outbox: memories that could not be stored while Hindsight was down wait here, durably.

Items keep their original event time and document id, so a late flush stores exactly what would have
been stored on time, once (the document id replaces any earlier copy).
"""

from datetime import datetime, timedelta, timezone

from pydantic import BaseModel
from sqlalchemy import Column, DateTime, Engine, Integer, MetaData, String, Table, Text, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from memory.client import MemoryClient
from memory.errors import MemoryUnavailable
from memory.models import MemoryItem

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
)
CLAIM_FOR = timedelta(minutes=2)


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
    """A queue of memories waiting for Hindsight, in the bot's one database (reached through its engine)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def close(self) -> None:
        """Nothing to close: the engine belongs to whoever made it."""

    def _insert(self) -> postgresql.Insert | sqlite.Insert:
        dialect = self._engine.dialect.name
        return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(outbox_table)

    def put(self, bank_id: str, items: list[MemoryItem], error: str | None = None) -> None:
        now = datetime.now(timezone.utc)
        with self._engine.begin() as db:
            for item in items:
                statement = self._insert().values(bank_id=bank_id, document_id=item.document_id, attempts=0,
                                                  item=item.model_dump_json(), queued_at=now, last_error=error)
                db.execute(statement.on_conflict_do_update(
                    index_elements=["bank_id", "document_id"],
                    set_={"item": statement.excluded.item, "last_error": statement.excluded.last_error}))

    def pending(self, bank_id: str | None = None) -> list[QueuedItem]:
        query = select(outbox_table.c.bank_id, outbox_table.c.item, outbox_table.c.attempts,
                       outbox_table.c.last_error).order_by(outbox_table.c.queued_at, outbox_table.c.document_id)
        if bank_id is not None:
            query = query.where(outbox_table.c.bank_id == bank_id)
        with self._engine.connect() as db:
            rows = db.execute(query).all()
        return [
            QueuedItem(bank_id=r[0], item=MemoryItem.model_validate_json(r[1]), attempts=r[2], last_error=r[3])
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
                ).values(attempts=outbox_table.c.attempts + 1, last_error=error, claimed_until=None))

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
            if not self._claim(queued):
                continue
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
