"""The ERP side: vendor master, purchase orders, goods receipts and the payment ledger of one tenant
(built by handlers/ap/registers.py from the tenant's registers)."""

import statistics
from decimal import Decimal

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, model_validator
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from handlers.ap.ledgerview import normalise_number
from handlers.ap.models import (
    Policy,
    Buyer,
    GoodsReceipt,
    Invoice,
    PastInvoice,
    PurchaseOrder,
    Vendor,
    normalise_name,
)

DEFAULT_POLICY = Path(__file__).resolve().parent / "data" / "default_policy.json"
_LOOKALIKES = str.maketrans("OILSB", "01158")
"""Letters a scan reads for digits and back (O/0, I/1/l, S/5, B/8); a PO number is compared with them folded
when it is not in the register as printed."""


def _po_key(number: str) -> str:
    return normalise_number(number.upper().translate(_LOOKALIKES))


class VendorHistory(BaseModel):
    """What the payment ledger says about one vendor, in numbers (the basis of its history memory)."""

    model_config = ConfigDict(frozen=True)

    vendor_id: str
    payment_count: int
    clean_payments_to_current_account: int
    bank_changes: int
    account_suffix: str
    first_paid: str | None
    last_paid: str | None
    amount_min: Decimal | None
    amount_max: Decimal | None
    amount_median: Decimal | None


class VendorMatch(BaseModel):
    """Which master vendor an invoice is from, and how it was identified."""

    vendor: Vendor | None
    by: str
    """"gstin", "name" or "none"."""
    gstin_conflict: bool = False
    """True when the name matched a master vendor but the invoice's GSTIN is a different one."""


class LedgerData(BaseModel):
    buyer: Buyer
    vendors: list[Vendor]
    purchase_orders: list[PurchaseOrder]
    goods_receipts: list[GoodsReceipt]
    invoices: list[PastInvoice]

    @model_validator(mode="after")
    def _consistent(self) -> "LedgerData":
        ids = {v.vendor_id for v in self.vendors}
        if len(ids) != len(self.vendors):
            raise ValueError("vendor ids must be unique")
        pos = {p.po_number for p in self.purchase_orders}
        for po in self.purchase_orders:
            if po.vendor_id not in ids:
                raise ValueError(f"{po.po_number} names unknown vendor {po.vendor_id}")
        for grn in self.goods_receipts:
            if grn.po_number not in pos:
                raise ValueError(f"{grn.grn_number} names unknown PO {grn.po_number}")
        for past in self.invoices:
            if past.vendor_id not in ids:
                raise ValueError(f"{past.invoice_number} names unknown vendor {past.vendor_id}")
        for vendor in self.vendors:
            paid = [p for p in self.invoices if p.vendor_id == vendor.vendor_id and p.outcome == "paid"]
            if len(paid) != vendor.payment_count:
                raise ValueError(
                    f"{vendor.vendor_id}: master says {vendor.payment_count} payments, ledger has {len(paid)}"
                )
        return self


class Ledger:
    """Read-only lookups over a tenant's validated ledger."""

    def __init__(self, data: LedgerData) -> None:
        self.data = data
        self._vendors = {v.vendor_id: v for v in data.vendors}
        self._pos = {normalise_number(p.po_number): p for p in data.purchase_orders}
        self._folded: dict[str, list[PurchaseOrder]] = {}
        for po in data.purchase_orders:
            self._folded.setdefault(_po_key(po.po_number), []).append(po)

    @classmethod
    def load(cls, root: Path) -> "Ledger":
        """A ledger read from files in the seed layout (vendors, purchase_orders, goods_receipts, history), e.g. a
        test corpus's own; a running bot reads each tenant's from the database (handlers/ap/registers.py)."""
        def read(name: str) -> dict[str, object]:
            return json.loads((root / name).read_text(encoding="utf-8"))

        merged = {**read("vendors.json"), **read("purchase_orders.json"), **read("goods_receipts.json"),
                  **read("history.json")}
        return cls(LedgerData.model_validate(merged))

    @property
    def vendors(self) -> list[Vendor]:
        return list(self._vendors.values())

    def vendor(self, vendor_id: str) -> Vendor | None:
        return self._vendors.get(vendor_id)

    def identify(self, invoice: Invoice) -> VendorMatch:
        """Find the master vendor: by GSTIN first, then by name; identity never comes from the invoice alone."""
        if invoice.vendor_gstin:
            by_gstin = next((v for v in self.vendors if v.gstin == invoice.vendor_gstin), None)
            if by_gstin is not None:
                return VendorMatch(vendor=by_gstin, by="gstin")
        wanted = normalise_name(invoice.vendor_name)
        by_name = next((v for v in self.vendors if wanted in {normalise_name(n) for n in v.names()}), None)
        if by_name is not None:
            conflict = invoice.vendor_gstin is not None and invoice.vendor_gstin != by_name.gstin
            return VendorMatch(vendor=by_name, by="name", gstin_conflict=conflict)
        return VendorMatch(vendor=None, by="none")

    def purchase_order(self, po_number: str | None, vendor_id: str | None = None) -> PurchaseOrder | None:
        """The PO by its number printed any way (`KAI/PO/0114` is `KAI-PO-0114`), or as a scan misreads it
        (`P0`, `2O26`, `O14S`) when exactly one of the register's POs (of this vendor, if it has one that fits)
        reads the same with the look-alikes folded.

        Only that number: a PO one character off, or a misreading that fits two POs, is no PO; none is ever
        swapped in (see nearest_pos)."""
        if not po_number:
            return None
        exact = self._pos.get(normalise_number(po_number))
        if exact is not None:
            return exact
        fits = self._folded.get(_po_key(po_number), [])
        own = [p for p in fits if p.vendor_id == vendor_id]
        fits = own or fits
        return fits[0] if len(fits) == 1 else None

    def nearest_pos(self, po_number: str | None, vendor_id: str | None, count: int = 3) -> list[str]:
        """The vendor's POs whose numbers are nearest the one printed, to name when it is not found: the clerk
        decides whether the number is a typo, never the matcher."""
        if vendor_id is None:
            return []
        own = [p for p in self.data.purchase_orders if p.vendor_id == vendor_id]
        if not po_number:
            return [p.po_number for p in sorted(own, key=lambda p: p.po_date, reverse=True)[:count]]
        bare = _po_key(po_number).replace("-", "")
        scored = sorted(own, key=lambda p: (Levenshtein.distance(_po_key(p.po_number).replace("-", ""), bare),
                                            p.po_number))
        return [p.po_number for p in scored[:count]]

    def nearest_vendors(self, name: str, count: int = 3) -> list[Vendor]:
        """Master vendors whose names are nearest a name not in the master, to name them; never its identity."""
        wanted = normalise_name(name)
        scored = sorted(self.vendors, key=lambda v: -max(fuzz.token_set_ratio(wanted, normalise_name(n))
                                                          for n in v.names()))
        return [v for v in scored[:count]
                if max(fuzz.token_set_ratio(wanted, normalise_name(n)) for n in v.names()) >= 60]

    def receipts_for(self, po_number: str) -> list[GoodsReceipt]:
        return [g for g in self.data.goods_receipts if g.po_number.upper() == po_number.strip().upper()]

    def past_invoice(self, vendor_id: str, invoice_number: str) -> PastInvoice | None:
        """Return the ledger entry with this vendor and invoice number (case and spacing folded)."""
        wanted = "".join(invoice_number.upper().split())
        return next(
            (p for p in self.data.invoices
             if p.vendor_id == vendor_id and "".join(p.invoice_number.upper().split()) == wanted),
            None,
        )

    def past_invoices(self, vendor_id: str) -> list[PastInvoice]:
        return sorted((p for p in self.data.invoices if p.vendor_id == vendor_id), key=lambda p: p.invoice_date)

    def history(self, vendor_id: str) -> VendorHistory:
        """Summarise a vendor's payments: counts, account changes and amount range, as numbers."""
        vendor = self._vendors[vendor_id]
        paid = [p for p in self.past_invoices(vendor_id) if p.outcome == "paid"]
        accounts = [p.paid_to_account or "" for p in paid]
        changes = sum(1 for before, after in zip(accounts, accounts[1:]) if before != after)
        current = vendor.bank_account.account_number
        clean = 0
        for account in reversed(accounts):
            if account != current:
                break
            clean += 1
        totals = [p.total for p in paid]
        return VendorHistory(
            vendor_id=vendor_id,
            payment_count=len(paid),
            clean_payments_to_current_account=clean,
            bank_changes=changes,
            account_suffix=vendor.bank_account.suffix,
            first_paid=paid[0].paid_on.isoformat() if paid and paid[0].paid_on else None,
            last_paid=paid[-1].paid_on.isoformat() if paid and paid[-1].paid_on else None,
            amount_min=min(totals) if totals else None,
            amount_max=max(totals) if totals else None,
            amount_median=Decimal(statistics.median(totals)).quantize(Decimal("0.01")) if totals else None,
        )


def load_policy(path: Path = DEFAULT_POLICY) -> Policy:
    """The pack's default policy, or a policy file in the seed layout."""
    return Policy.model_validate_json(path.read_text(encoding="utf-8"))
