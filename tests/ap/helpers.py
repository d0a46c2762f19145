"""Builders for recalled memories and vendor memory, so rule and filter tests state exactly what memory held."""

from datetime import date

from handlers.ap.vendor_memory import MemorySource, VendorMemory
from memory import Recalled, ids, tags


def recalled(text: str, vendor_id: str = "V001", kind: str = "vendor_history", document_id: str | None = None,
             day: date = date(2026, 3, 17), **metadata: str) -> Recalled:
    return Recalled(text=text, event_date=day, document_id=document_id or f"doc:{ids.content_digest(text)}",
                    tags=[tags.vendor(vendor_id)], metadata={"kind": kind, "vendor_id": vendor_id, **metadata})


def ravi_history(clean: int = 14, changes: int = 0, suffix: str = "4821", prose_payments: int | None = None,
                 low: str = "421700.00", high: str = "1182000.00") -> Recalled:
    """Ravi Steel's history memory; the prose count may disagree with the metadata on purpose."""
    said = clean if prose_payments is None else prose_payments
    return recalled(
        f"Ravi Steel & Components has completed {said} payments to the bank account ending {suffix}.",
        document_id=ids.seed("ap-vendor-history", "V001"), payment_count=str(clean), clean_payments=str(clean),
        bank_changes=str(changes), account_suffix=suffix, amount_min=low, amount_max=high,
    )


def memory_of(*kept: Recalled, source: MemorySource = "recalled") -> VendorMemory:
    return VendorMemory(source=source, kept=list(kept))
