"""Where the legal pack reads a tenant's records: the database's entries, after an older bank is read in once.

Exact questions (a cause list, a case's last hearing and next date, a day's hearing) are answered from the
entries in the database, never from a recall's ranking. A bank that predates the table is read into it the
first time its tenant is asked about (its documents' metadata are the records); until that has been done once,
memory must answer, so an unreachable memory is said plainly then. Chat memories stay memory-only.
"""

import logging
from datetime import date

from pydantic import BaseModel

from bot.core.pack import Services
from handlers.legal.case_dates import last_hearing, lists
from handlers.legal.entries import EntryStore
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.records import memory_item, record_of
from handlers.legal.registers import CaseRegisters
from memory import MemoryLayerError, MemoryUnavailable
from memory.outbox import RetainOutcome

log = logging.getLogger(__name__)
PACK = "legal"


class Listed(BaseModel):
    source: HearingRecord
    """The hearing or cause list that set the day."""
    last: HearingRecord | None
    """The case's last hearing before the day."""


class CaseBook:
    """One tenant's case records."""

    def __init__(self, services: Services, tenant: str) -> None:
        self.services = services
        self.store = EntryStore(services.database)
        self.tenant = tenant
        self.bank = services.bank_of(tenant, PACK)

    @classmethod
    def of_bank(cls, services: Services, bank: str) -> "CaseBook":
        """The book whose memory is this bank (one bank per tenant and pack)."""
        head, tail = f"{services.settings.bank_prefix}-", f"-{PACK}"
        tenant = bank[len(head):-len(tail)] if bank.startswith(head) and bank.endswith(tail) else ""
        if not tenant or services.bank_of(tenant, PACK) != bank:
            raise ValueError(f"{bank!r} is not a legal bank of this deployment")
        return cls(services, tenant)

    async def file(self, filed: list[tuple[HearingRecord, CaseRecord | None]], by: str,
                   origin: str | None = None, action: str = "save") -> RetainOutcome:
        """Write confirmed entries: each record, then its memory through the outbox (queued while memory is
        down). A crash between the two is finished by the card's resumed save or by `smriti memory rebuild`."""
        # The memory says what the record now says (a re-sent page keeps the fields a person corrected, its case
        # among them).
        items = []
        for record, case in filed:
            saved = self.store.save(self.tenant, record, by, action=action).record
            if case is not None and saved.case_id != case.case_id:
                case = CaseRegisters(self.services.database).for_tenant(self.tenant).get(saved.case_id) or case
            items.append(memory_item(saved, case))
        return await self.services.outbox.retain_or_queue(self.services.memory, self.bank, items, origin=origin)

    async def ready(self) -> None:
        """Read an older bank's entries into the table once (raises MemoryUnavailable until that is done)."""
        if self.store.backfilled(self.tenant):
            return
        documents = await self.services.memory.list_documents(self.bank)
        found = [r for r in (record_of(d) for d in documents)
                 if r is not None and (r.case_id or r.kind == "chat_memory")]
        added = self.store.add_missing(self.tenant, found)
        self.store.mark_backfilled(self.tenant, added)
        if added:
            log.info("read %d entries of an older bank into the records", added)

    async def delete(self, document_id: str, by: str) -> HearingRecord | None:
        """Delete one entry: its memory (and any copy waiting in the outbox), then its record (audited). Memory
        first, so an unreachable memory leaves both as they were; None when the entry is not live."""
        if self.store.get(self.tenant, document_id) is None:
            return None
        self.services.outbox.drop(self.bank, document_id)
        try:
            await self.services.memory.delete_document(self.bank, document_id)
        except MemoryUnavailable:
            raise
        except MemoryLayerError:
            log.info("an entry's memory was already gone when it was deleted")
        return self.store.delete(self.tenant, document_id, by)

    async def records(self, case_id: str, as_of: date | None = None) -> list[HearingRecord]:
        """Every live record of the case (hearings, listings, steps, documents, chat memories), none dated after
        as_of."""
        await self.ready()
        return self.store.of_case(self.tenant, case_id, as_of)

    async def due_on(self, day: date) -> list[HearingRecord]:
        """The steps due on `day` (a reply, a written statement, a deposit), from the records."""
        await self.ready()
        return self.store.due_on(self.tenant, day)

    async def listed_on(self, day: date) -> dict[str, Listed]:
        """Every case listed on `day`, with the hearing or listing that set it and its last hearing before:
        complete, from the records (only cases some record gives that next date are read)."""
        await self.ready()
        by_case = self.store.of_cases(self.tenant, self.store.naming(self.tenant, day))
        listed: dict[str, Listed] = {}
        for case_id, records in by_case.items():
            source = lists(records, day)
            if source is not None:
                listed[case_id] = Listed(source=source, last=last_hearing(records, before=day))
        return listed
