"""Vendor memory: recall only for vendors we have paid, and keep only what is about this vendor.

A vendor the master has never paid gets no recall at all: semantic search always returns nearest
neighbours, and a new vendor must not inherit the reputation of lookalikes. Whatever comes back is
filtered in code, not trusted to the query: it must carry the vendor's tag and name, must not be about
the invoice being decided (nor the agent's own decision on it), and at most a readable handful is kept.
"""

import logging
from typing import Literal

from pydantic import BaseModel, Field

from bot.services.prompts import render
from handlers.ap import facts
from handlers.ap.ledgerview import normalise_number
from handlers.ap.models import Invoice, Vendor
from memory import MemoryClient, MemoryLayerError, Recalled, RecallRequest, ids, tags

log = logging.getLogger(__name__)

MemorySource = Literal["recalled", "no_history", "memory_error", "disabled"]
DropReason = Literal["own_decision", "this_invoice", "other_vendor", "name_missing", "over_limit"]


class FilterResult(BaseModel):
    kept: list[Recalled]
    dropped: dict[str, int] = Field(default_factory=dict)


class VendorMemory(BaseModel):
    """What memory contributed to a decision, and why it is what it is."""

    source: MemorySource
    kept: list[Recalled] = Field(default_factory=list)
    dropped: dict[str, int] = Field(default_factory=dict)
    error: str | None = None

    def of_kind(self, *kinds: str) -> list[Recalled]:
        return [m for m in self.kept if facts.kind_of(m) in kinds]


def _same_number(a: str, b: str) -> bool:
    return "".join(a.upper().split()) == "".join(b.upper().split())


def _drop_reason(memory: Recalled, vendor: Vendor, invoice_number: str) -> DropReason | None:
    own_ids = {ids.ap_decision(vendor.vendor_id, invoice_number), ids.ap_resolution(vendor.vendor_id, invoice_number),
               ids.ap_decision(vendor.vendor_id, normalise_number(invoice_number))}
    if memory.document_id in own_ids:
        return "own_decision"
    remembered_number = memory.metadata.get(facts.INVOICE_NUMBER)
    if invoice_number.lower() in memory.text.lower() or (
        remembered_number is not None and _same_number(remembered_number, invoice_number)
    ):
        return "this_invoice"
    named = memory.metadata.get(facts.VENDOR_ID, vendor.vendor_id)
    if not memory.has_tag(tags.vendor(vendor.vendor_id)) or named != vendor.vendor_id:
        return "other_vendor"
    text = memory.text.lower()
    if not any(name.lower() in text for name in vendor.names()):
        return "name_missing"
    return None


def filter_memories(found: list[Recalled], vendor: Vendor, invoice_number: str, limit: int) -> FilterResult:
    """Keep memories about this vendor and not about this invoice; history first, at most `limit`."""
    dropped: dict[str, int] = {}
    survivors: list[Recalled] = []
    for memory in found:
        reason = _drop_reason(memory, vendor, invoice_number)
        if reason is None:
            survivors.append(memory)
        else:
            dropped[reason] = dropped.get(reason, 0) + 1
    # Stable: within a kind, the server's ranking stands; the numbers the rules need come first.
    survivors.sort(key=lambda m: facts.KIND_ORDER.get(facts.kind_of(m), 3))
    if len(survivors) > limit:
        dropped["over_limit"] = len(survivors) - limit
    return FilterResult(kept=survivors[:limit], dropped=dropped)


def recall_query(vendor: Vendor, invoice: Invoice) -> str:
    return render("ap", "recall_query", vendor_name=vendor.name, invoice_number=invoice.invoice_number).system


async def recall_vendor_memory(
    memory: MemoryClient, bank_id: str, vendor: Vendor | None, invoice: Invoice, use_memory: bool, limit: int
) -> VendorMemory:
    """Recall this vendor's history, gated on the master having ever paid them; never raise on an outage."""
    if not use_memory:
        return VendorMemory(source="disabled")
    if vendor is None or vendor.never_paid:
        return VendorMemory(source="no_history")
    request = RecallRequest(query=recall_query(vendor, invoice), tags=[tags.vendor(vendor.vendor_id)],
                            tags_match="all_strict")
    try:
        found = await memory.recall(bank_id, request)
    except MemoryLayerError as exc:
        log.warning("vendor recall failed for %s: %s", vendor.vendor_id, type(exc).__name__)
        return VendorMemory(source="memory_error", error=str(exc))
    result = filter_memories(found, vendor, invoice.invoice_number, limit)
    return VendorMemory(source="recalled", kept=result.kept, dropped=result.dropped)
