"""The ledger view: the earlier invoices a decision must not repeat, as plain entries the rules read.

The duplicate and receipt rules are pure functions of (invoice, ledger view, policy). Where the view comes
from is a seam: today the seeded payment history (seeds/ap/history.json, or a corpus's own ledger); once the
tenant ledger table lands, the decisions and payments recorded there. `entry_for` is what a recorded decision
should store so that the next decision sees it.
"""

import json
import re
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from handlers.ap.models import Invoice, PastInvoice

EntryStatus = Literal["decided", "held", "review", "approved", "paid", "rejected", "superseded"]
"""decided: a decision was given and nobody acted since; held, review, approved: a clerk's move; paid; rejected
(handlers/ap/lifecycle.py says which follows which)."""

_SEPARATORS = re.compile(r"[\s/\\\-_.:#]+")
_RUNS = re.compile(r"[A-Z]+|\d+")


def normalise_number(number: str) -> str:
    """Fold an invoice number the way AP duplicate checks do: case, spaces, `/`, `-`, leading zeros.

    Letter and digit runs are kept apart, so `INV/26/007`, `inv-26-7` and `INV 26 0007` are one number, while
    `INV/2/67` is another.
    """
    runs: list[str] = []
    for run in _RUNS.findall(_SEPARATORS.sub(" ", number.upper())):
        if runs and run.isalpha() and runs[-1].isalpha():
            runs[-1] += run  # "I N V" and "INV" are one series; digit groups stay apart ("26/7" is not "2/67")
        else:
            runs.append(run.lstrip("0") or "0" if run.isdigit() else run)
    return "-".join(runs)


class BilledLine(BaseModel):
    """A quantity an invoice billed against one line of one goods receipt."""

    model_config = ConfigDict(frozen=True)

    grn_number: str
    po_line: int = Field(ge=1)
    quantity: Decimal = Field(gt=0)


class LedgerEntry(BaseModel):
    """One earlier invoice as the ledger knows it, in its current state."""

    model_config = ConfigDict(frozen=True)

    vendor_id: str
    invoice_number: str
    """As printed on the invoice."""
    number_key: str = ""
    """The normalised number (filled from invoice_number when not given)."""
    invoice_date: date
    total: Decimal = Field(gt=0)
    po_number: str | None = None
    billed: list[BilledLine] = Field(default_factory=list)
    status: EntryStatus
    decided_at: datetime | None = None
    decision_id: str | None = None
    paid_on: date | None = None
    paid_to_account: str | None = None
    """The account a paid invoice was paid to (the first-bank-change rule counts clean payments per account)."""

    @model_validator(mode="after")
    def _key(self) -> "LedgerEntry":
        if not self.number_key:
            object.__setattr__(self, "number_key", normalise_number(self.invoice_number))
        return self

    @property
    def when(self) -> date:
        """The date to cite: when it was paid, else when it was decided, else the invoice date."""
        if self.paid_on is not None:
            return self.paid_on
        return self.decided_at.date() if self.decided_at is not None else self.invoice_date


class LedgerView(Protocol):
    """Where the decider reads earlier invoices from (the seeded history now, the tenant ledger later)."""

    def entries(self, tenant: str) -> list[LedgerEntry]: ...


def entries_from_history(invoices: list[PastInvoice]) -> list[LedgerEntry]:
    """The seeded payment history as ledger entries (which receipts they billed is not recorded there)."""
    return [LedgerEntry(vendor_id=p.vendor_id, invoice_number=p.invoice_number, invoice_date=p.invoice_date,
                        total=p.total, po_number=p.po_number, status=p.outcome, paid_on=p.paid_on,
                        paid_to_account=p.paid_to_account)
            for p in invoices]


_ENTRIES = TypeAdapter(list[LedgerEntry])


def load_entries(path: Path) -> list[LedgerEntry]:
    """Read a ledger view file: a JSON object with an "entries" list."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return _ENTRIES.validate_python(data["entries"])


class FixedView:
    """A view over a fixed list of entries: the seeded history, or a scripted ledger in tests and corpora."""

    def __init__(self, entries: list[LedgerEntry]) -> None:
        self._entries = list(entries)

    def entries(self, tenant: str) -> list[LedgerEntry]:
        return list(self._entries)


def entry_for(invoice: Invoice, vendor_id: str, billed: list[BilledLine], status: EntryStatus,
              decision_id: str | None, decided_at: datetime | None) -> LedgerEntry:
    """The entry a recorded decision adds to the ledger, so the next decision sees this invoice."""
    return LedgerEntry(vendor_id=vendor_id, invoice_number=invoice.invoice_number, invoice_date=invoice.invoice_date,
                       total=invoice.total, po_number=invoice.po_number, billed=billed, status=status,
                       decided_at=decided_at, decision_id=decision_id)
