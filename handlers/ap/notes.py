"""Credit and debit notes: not bills to pay, but changes to what is owed on an invoice, recorded against it.

A note names the invoice it adjusts ("Against Inv. No. SKC/26-27/0231", "Ref. Invoice: ..."). It is recorded
on that invoice's ledger log (who, when, the note's number, date and amount); an invoice that is not in the
ledger or the payment history is "not found", with that vendor's nearest invoice numbers named.
"""

import re
from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel
from rapidfuzz.distance import Levenshtein

from handlers.ap.ledger import Ledger
from handlers.ap.ledger_store import DecisionBook
from handlers.ap.ledgerview import normalise_number
from handlers.ap.models import Vendor, normalise_name
from handlers.ap.money import format_inr
from handlers.ap.textamounts import parse_date
from handlers.ap.textlabels import identifier
from handlers.ap.textparse import AGAINST_INVOICE as _AGAINST
from handlers.ap.textparse import parse_invoice_text

NoteKind = Literal["credit_note", "debit_note"]

_TITLE = re.compile(r"(?:(?:gst|tax)\s+)?(?:credit|debit)\s+note(?:\s*\((?:original|duplicate)[^)]*\))?", re.IGNORECASE)


_NOTE_NUMBER = re.compile(r"\b(?:(?:credit|debit)\s+note|note|[cd]\.?\s?n\.?)\s*(?:no\b\.?|#|number)\s*[:\-]?\s*(.+)",
                          re.IGNORECASE)


class AdjustmentNote(BaseModel):
    kind: NoteKind
    number: str | None = None
    note_date: date | None = None
    vendor_name: str | None = None
    vendor_gstin: str | None = None
    against: str | None = None
    """The invoice number the note adjusts, as printed."""
    total: Decimal | None = None


def read_note(text: str, kind: NoteKind, buyer_gstin: str | None) -> AdjustmentNote:
    """The note's own fields (read like an invoice's) and the invoice it is against."""
    # The note's title is no party: read the fields without it (else "CREDIT NOTE" is taken for the seller).
    body = "\n".join(ln for ln in text.splitlines() if not _TITLE.fullmatch(" ".join(ln.split()).strip(" -:*=")))
    fields = parse_invoice_text(body, buyer_gstin).fields
    against = number = None
    for line in text.splitlines():
        if against is None and (match := _AGAINST.search(line)) and (found := identifier(match.group(1))):
            against = found
        elif number is None and (match := _NOTE_NUMBER.search(line)) and (found := identifier(match.group(1))):
            number = found
    if number is None and fields.get("invoice_number") != against:
        number = fields.get("invoice_number")
    # The note's own date: the first one printed outside the line naming the invoice (that one's date is the
    # invoice's).
    own = next((dated for line in text.splitlines() if not _AGAINST.search(line) and (dated := parse_date(line))),
               None)
    return AdjustmentNote(kind=kind, number=number, note_date=own or fields.get("invoice_date"),
                          vendor_name=fields.get("vendor_name"), vendor_gstin=fields.get("vendor_gstin"),
                          against=against, total=fields.get("total"))


class NoteRecorded(BaseModel):
    outcome: Literal["recorded", "preview", "no_invoice", "invoice_not_found", "unknown_vendor"]
    """preview: the invoice was found and the note would be recorded against it; nothing was written."""
    vendor_name: str = "-"
    invoice_number: str = "-"
    candidates: list[str] = []


def _vendor(ledger: Ledger, note: AdjustmentNote) -> Vendor | None:
    if note.vendor_gstin:
        found = next((v for v in ledger.vendors if v.gstin == note.vendor_gstin), None)
        if found is not None:
            return found
    wanted = normalise_name(note.vendor_name or "")
    return next((v for v in ledger.vendors if wanted in {normalise_name(n) for n in v.names()}), None)


def record_note(book: DecisionBook, ledger: Ledger, tenant: str, note: AdjustmentNote, by_user: str,
                write: bool = True) -> NoteRecorded:
    """Log the note on the invoice it adjusts, found in the tenant ledger or its payment history; without
    `write` (a preview) only say where it would go."""
    vendor = _vendor(ledger, note)
    if vendor is None:
        return NoteRecorded(outcome="unknown_vendor", vendor_name=note.vendor_name or "-")
    if not note.against:
        return NoteRecorded(outcome="no_invoice", vendor_name=vendor.name)
    key = normalise_number(note.against)
    recorded = [r.entry for r in book.recorded_entries(tenant) if r.entry.vendor_id == vendor.vendor_id]
    numbers = [e.invoice_number for e in recorded] + [p.invoice_number for p in ledger.past_invoices(vendor.vendor_id)]
    found = next((n for n in numbers if normalise_number(n) == key), None)
    if found is None:
        near = sorted(dict.fromkeys(numbers), key=lambda n: Levenshtein.distance(normalise_number(n), key))[:3]
        return NoteRecorded(outcome="invoice_not_found", vendor_name=vendor.name, invoice_number=note.against,
                            candidates=near)
    if not write:
        return NoteRecorded(outcome="preview", vendor_name=vendor.name, invoice_number=found)
    entry = next((r for r in book.recorded_entries(tenant)
                  if r.entry.vendor_id == vendor.vendor_id and r.entry.number_key == key), None)
    amount = format_inr(note.total) if note.total is not None else "-"
    dated = note.note_date.isoformat() if note.note_date else "-"
    book.log(tenant, entry.entry.decision_id or "-" if entry else "-", vendor.vendor_id, found, note.kind,
             entry.agent_status if entry else "-", by_user,
             f"{note.kind.replace('_', ' ')} {note.number or '-'} dated {dated} for {amount}", amount=note.total)
    return NoteRecorded(outcome="recorded", vendor_name=vendor.name, invoice_number=found)
