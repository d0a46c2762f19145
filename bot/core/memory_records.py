"""Records and memory side by side: what a pack's database records say a tenant's bank holds, against what it
holds (by document id), and the bank re-derived from the records.

The records are the truth for exact questions and a memory's life; memory is written from them. A bank can
therefore be checked against them (`smriti memory check`) and rebuilt from them (`smriti memory rebuild`).
"""

from collections.abc import Iterable

from pydantic import BaseModel, Field

from bot.core.pack import Pack, Services
from memory import MemoryItem

REBUILD_BATCH = 50
"""Items per retain call. Each call must finish inside the client's request timeout even on a loaded host: a
250-item batch took over three minutes there, 50 stay well under it, and 10,000 records are still 200 calls."""


class RecordsCheck(BaseModel):
    """One pack's bank in one tenant against the pack's records, compared by document id."""

    pack: str
    bank_id: str
    keeps_records: bool
    records: int = 0
    documents: int = 0
    records_without_memory: list[str] = Field(default_factory=list)
    memory_without_records: list[str] = Field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.records_without_memory and not self.memory_without_records


class RebuildReport(BaseModel):
    pack: str
    bank_id: str
    keeps_records: bool
    retained: int = 0


def by_document(items: Iterable[MemoryItem]) -> dict[str, MemoryItem]:
    """The records' items keyed by document id; a later item for the same id replaces an earlier one, as a
    retain of the same id replaces the memory."""
    return {item.document_id: item for item in items}


async def check_pack(pack: Pack, services: Services, tenant: str) -> RecordsCheck:
    bank = services.bank_of(tenant, pack.name)
    items = pack.memory_records(services, tenant)
    if items is None:
        return RecordsCheck(pack=pack.name, bank_id=bank, keeps_records=False)
    expected = set(by_document(items))
    stored = {d.document_id for d in await services.memory.list_documents(bank)}
    return RecordsCheck(pack=pack.name, bank_id=bank, keeps_records=True, records=len(expected),
                        documents=len(stored), records_without_memory=sorted(expected - stored),
                        memory_without_records=sorted(stored - expected))


async def rebuild_pack(pack: Pack, services: Services, tenant: str, batch: int = REBUILD_BATCH) -> RebuildReport:
    """Retain every item the records give into the tenant's bank (made if gone), in batches. Idempotent: each
    item replaces the memory of its document id. Memories without records are left; `check` lists them."""
    bank = services.bank_of(tenant, pack.name)
    items = pack.memory_records(services, tenant)
    if items is None:
        return RebuildReport(pack=pack.name, bank_id=bank, keeps_records=False)
    unique = list(by_document(items).values())
    await services.memory.ensure_bank(pack.bank_profile(bank))
    for start in range(0, len(unique), batch):
        await services.memory.retain(bank, unique[start:start + batch])
    return RebuildReport(pack=pack.name, bank_id=bank, keeps_records=True, retained=len(unique))
