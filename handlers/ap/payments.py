"""A vendor's payments by bank account, counted from the ledger (seeded history + invoices marked paid).

The first-bank-change rule needs "how many clean payments went to the account on file, with no change of
beneficiary before them". That number comes from the ledger entries, never from a memory's prose or metadata.
"""

from datetime import date
from itertools import pairwise

from pydantic import BaseModel, ConfigDict

from handlers.ap.ledgerview import LedgerEntry


class AccountRecord(BaseModel):
    """What the ledger says about one vendor's payments to its account on file."""

    model_config = ConfigDict(frozen=True)

    paid: int
    """Every payment to the vendor, to any account."""
    clean_to_current: int
    """Consecutive latest payments to the account on file (a payment elsewhere ends the run)."""
    bank_changes: int
    """How many times the beneficiary account changed between consecutive payments."""
    to_current: int = 0
    """Every payment to the account on file (imported history and invoices marked paid), clean or not."""
    later_elsewhere: int = 0
    """Payments after the last one to the account on file, to another account (what ended the clean run)."""


def _order(entry: LedgerEntry) -> tuple[date, date]:
    return entry.paid_on or entry.when, entry.invoice_date


def account_record(entries: list[LedgerEntry], vendor_id: str, current_account: str) -> AccountRecord:
    """Count the vendor's paid entries by the account they were paid to, oldest first."""
    paid = sorted((e for e in entries if e.vendor_id == vendor_id and e.status == "paid"), key=_order)
    # A payment the ledger has no account for is no evidence of a change, nor of a clean payment.
    accounts = [e.paid_to_account for e in paid if e.paid_to_account]
    changes = sum(1 for before, after in pairwise(accounts) if before != after)
    clean = 0
    for account in reversed(accounts):
        if account != current_account:
            break
        clean += 1
    last_to_current = max((i for i, account in enumerate(accounts) if account == current_account), default=-1)
    return AccountRecord(paid=len(paid), clean_to_current=clean, bank_changes=changes,
                         to_current=sum(1 for account in accounts if account == current_account),
                         later_elsewhere=len(accounts) - 1 - last_to_current if last_to_current >= 0 else 0)
