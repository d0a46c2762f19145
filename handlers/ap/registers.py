"""The AP pack's registers in the one database, per tenant: vendor master, purchase orders, goods receipts,
payment history, the buyer and the policy; import columns (Tally and Zoho Books headers among them) and the
repository that turns a tenant's rows into the Ledger and Policy the pack decides with."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rapidfuzz import fuzz

from bot.services.registers.codes import as_written, safe_key
from bot.services.registers.kinds import (
    Cells,
    Column,
    RegisterKind,
    Registers,
    Resolved,
    join_list,
    number_text,
    split_list,
)
from bot.store import Base, Database
from bot.store.registers import (
    RegisterRowMixin,
    RegisterStore,
    RegisterVersionMixin,
    StoredRecord,
    TenantCache,
)
from handlers.ap.ledger import DEFAULT_POLICY, Ledger, LedgerData
from handlers.ap.models import (
    BankDetails,
    Buyer,
    Contact,
    GoodsReceipt,
    GRNLine,
    PastException,
    PastInvoice,
    Policy,
    POLine,
    PurchaseOrder,
    Vendor,
    normalise_name,
)

PACK = "ap"



class APRecord(RegisterRowMixin, Base):
    __tablename__ = "ap_records"


class APRegisterVersion(RegisterVersionMixin, Base):
    __tablename__ = "ap_register_versions"


TABLES = (APRecord, APRegisterVersion)


def vendor_key(written: str) -> str:
    """A vendor id as the office writes it ("v001", "Ravi Steel (V001)") -> the pack's id ("V001", ...); a
    name in Telugu script only gets a digest of itself, so it is a key all the same."""
    found = "-".join(re.findall(r"[A-Z0-9]+", written.upper()))[:41].strip("-")
    if found and written.isascii() or not written.strip():
        return found
    return safe_key(written.strip()).upper()[:41].strip("-")


def _written_code(written: str, vendor_id: str) -> str:
    """The id as written when the pack's id spells it otherwise ("SCR/014" is SCR-014); empty when the same."""
    code = as_written(written, "vendor id") if written.strip() else ""
    return code if code != vendor_id else ""


def _vendor(cells: Cells) -> Vendor:
    # Tally keeps the ledger's own name beside the party's (Zoho a display name beside the vendor's): either
    # names the vendor, the other is another name.
    ledger_name = cells.get("ledger_name", "").strip()
    name = cells.get("name", "").strip() or ledger_name
    if not name:
        raise ValueError("missing Vendor Name")
    also = [ledger_name] if ledger_name and normalise_name(ledger_name) != normalise_name(name) else []
    vendor_id = vendor_key(cells.get("vendor_id") or name)
    account = {"account_number": cells.get("account_number", ""), "ifsc": cells.get("ifsc") or None,
               "bank_name": cells.get("bank_name") or None, "account_name": cells.get("account_name") or None}
    return Vendor.model_validate(dict(
        vendor_id=vendor_id, code=_written_code(cells.get("vendor_id", ""), vendor_id), name=name,
        aliases=list(dict.fromkeys([*split_list(cells.get("aliases")), *also])),
        gstin=cells.get("gstin", "").replace(" ", "").upper(), bank_account=BankDetails.model_validate(account),
        verified_contact=Contact(name=cells.get("contact_name", ""), role=cells.get("contact_role", ""),
                                 phone=cells.get("contact_phone", ""), email=cells.get("contact_email", "")),
        onboarded_on=cells.get("onboarded_on") or None,
    ))


def _vendor_cells(vendor: Vendor) -> Cells:
    bank, contact = vendor.bank_account, vendor.verified_contact
    return {"vendor_id": vendor.written_id, "name": vendor.name, "aliases": join_list(vendor.aliases),
            "gstin": vendor.gstin, "account_number": bank.account_number, "ifsc": bank.ifsc or "",
            "bank_name": bank.bank_name or "", "account_name": bank.account_name or "",
            "contact_name": contact.name, "contact_role": contact.role, "contact_phone": contact.phone,
            "contact_email": contact.email,
            "onboarded_on": vendor.onboarded_on.isoformat() if vendor.onboarded_on else ""}


_LEGAL_FORM = re.compile(r"\b(?:private|pvt|limited|ltd|llp|co|company|inc|m s)\b")


def _bare_name(name: str) -> str:
    """A vendor's name without its legal form ("Kaveri Electricals Pvt. Ltd." is "kaveri electricals")."""
    return " ".join(_LEGAL_FORM.sub(" ", normalise_name(name)).split())


def _vendor_named(written: str, registers: Registers) -> tuple[str | None, list[str]]:
    """The vendor a row names by its code, GSTIN, name, ledger name or another name (exactly one), else None
    with the names a clerk may have meant."""
    vendors = registers.get("vendors", {})
    if vendor_key(written) in vendors:
        return vendor_key(written), []
    folded, bare = normalise_name(written), _bare_name(written)
    by_code = [k for k, r in vendors.items() if normalise_name(str(r.data.get("code") or "")) == folded
               or str(r.data.get("gstin", "")).upper() == written.strip().upper()]
    by_name = [k for k, r in vendors.items()
               if folded in {normalise_name(n) for n in [r.data.get("name", ""), *r.data.get("aliases", [])]}]
    by_bare = [k for k, r in vendors.items()
               if bare and bare in {_bare_name(n) for n in [r.data.get("name", ""), *r.data.get("aliases", [])]}]
    for found in (by_code, by_name, by_bare):
        if len(found) == 1:
            return found[0], []
        if len(found) > 1:
            return None, [str(vendors[k].data.get("name", k)) for k in found]
    near = sorted(vendors.values(), key=lambda r: -fuzz.token_set_ratio(bare, _bare_name(r.data.get("name", ""))))
    return None, [str(r.data.get("name", "")) for r in near[:3]
                  if fuzz.token_set_ratio(bare, _bare_name(r.data.get("name", ""))) >= 60]


def _resolve_vendor(record: PurchaseOrder | PastInvoice, cells: Cells, registers: Registers) -> Resolved:
    """A PO or payment row names its vendor as the office does (Tally's Party Name, the ledger name, a code):
    it is that vendor of the master, or the row is refused saying so in words."""
    written = (cells.get("vendor_id") or "").strip()
    if not written or record.vendor_id in registers.get("vendors", {}):
        return Resolved(record)
    found, meant = _vendor_named(written, registers)
    if found is not None:
        return Resolved(record.model_copy(update={"vendor_id": found}))
    if len(meant) > 1 and normalise_name(written) in {normalise_name(m) for m in meant}:
        return Resolved(record, problem=f"“{written}” names more than one vendor in the vendor register "
                                        f"({', '.join(meant)}): write the vendor's code instead")
    hint = f" (nearest: {', '.join(meant)})" if meant else ""
    return Resolved(record, problem=f"no vendor “{written}” in the vendor register by code, name, ledger name or "
                                    f"other names{hint}: add the vendor there first, or write its code as the "
                                    "register has it")


def _po(cells: Cells) -> PurchaseOrder:
    line = POLine(line_no=int(float(number_text(cells.get("line_no")) or 1)), sku=cells.get("sku", ""),
                  description=cells.get("description", ""), quantity=Decimal(number_text(cells.get("quantity")) or 0),
                  unit=cells.get("unit", ""), unit_price=Decimal(number_text(cells.get("unit_price")) or 0))
    return PurchaseOrder.model_validate(dict(
        po_number=cells.get("po_number", "").strip(), vendor_id=vendor_key(cells.get("vendor_id", "")),
        po_date=cells.get("po_date"), lines=[line]))


def _po_cells(po: PurchaseOrder) -> list[Cells]:
    return [{"po_number": po.po_number, "vendor_id": po.vendor_id, "po_date": po.po_date.isoformat(),
             "line_no": str(line.line_no), "sku": line.sku, "description": line.description,
             "quantity": str(line.quantity), "unit": line.unit, "unit_price": str(line.unit_price)}
            for line in po.lines]


def _grn(cells: Cells) -> GoodsReceipt:
    line = GRNLine(po_line=int(float(number_text(cells.get("po_line")) or 1)),
                   quantity_received=Decimal(number_text(cells.get("quantity_received")) or 0))
    return GoodsReceipt.model_validate(dict(
        grn_number=cells.get("grn_number", "").strip(), po_number=cells.get("po_number", "").strip(),
        received_on=cells.get("received_on"), lines=[line]))


def _grn_cells(grn: GoodsReceipt) -> list[Cells]:
    return [{"grn_number": grn.grn_number, "po_number": grn.po_number, "received_on": grn.received_on.isoformat(),
             "po_line": str(line.po_line), "quantity_received": str(line.quantity_received)} for line in grn.lines]


_EXCEPTION = ("mismatch", "sku", "item", "invoiced_quantity", "received_quantity", "resolution_code",
              "resolved_on", "note")


def _payment(cells: Cells) -> PastInvoice:
    exception = {f: cells.get(f"exception_{f}", "") for f in _EXCEPTION}
    outcome = (cells.get("outcome") or ("paid" if cells.get("paid_on") else "rejected")).lower()
    return PastInvoice.model_validate(dict(
        invoice_number=cells.get("invoice_number", "").strip(), vendor_id=vendor_key(cells.get("vendor_id", "")),
        invoice_date=cells.get("invoice_date"), po_number=cells.get("po_number") or None,
        total=Decimal(number_text(cells.get("total")) or 0), outcome=outcome,
        paid_on=cells.get("paid_on") or None, paid_to_account=cells.get("paid_to_account") or None,
        exception=PastException.model_validate(exception) if any(exception.values()) else None))


def _payment_cells(past: PastInvoice) -> Cells:
    cells = {"invoice_number": past.invoice_number, "vendor_id": past.vendor_id,
             "invoice_date": past.invoice_date.isoformat(), "po_number": past.po_number or "",
             "total": str(past.total), "outcome": past.outcome,
             "paid_on": past.paid_on.isoformat() if past.paid_on else "", "paid_to_account": past.paid_to_account or ""}
    dumped = past.exception.model_dump(mode="json") if past.exception else {}
    cells.update({f"exception_{f}": str(dumped.get(f, "")) for f in _EXCEPTION})
    return cells


def _buyer(cells: Cells) -> Buyer:
    return Buyer(name=cells.get("name", ""), gstin=(cells.get("gstin") or "").upper() or None)


def _policy(cells: Cells) -> Policy:
    raise ValueError("the policy is imported from its JSON file (smriti export --tenant T policy shows the format)")


def _no_cells(_record: Any) -> Cells:
    return {}


def queue_vendor_memories(database: Database, tenant: str, bank_prefix: str) -> list[str]:
    """After an import of the vendor master or the payment history: each paid vendor's history and each past
    exception, queued in the outbox for the tenant's AP bank (the path a recorded payment's memory takes when
    memory is down; the bot's worker sends them). The documents are the ones `memory rebuild` writes, by the same
    ids, so importing twice queues the same documents again, never new ones."""
    from handlers.ap.narratives import seed_memories
    from memory.banks import bank_id
    from memory.outbox import Outbox

    try:
        ledger = build_ledger(RegisterStore(database, *TABLES).records(tenant)).ledger
    except ValueError:
        return []  # registers that do not yet make a ledger (no vendor master): nothing to remember yet
    items = seed_memories(ledger)
    if items:
        Outbox(database.engine).put(bank_id(tenant, PACK, prefix=bank_prefix), items, origin="import")
    return [f"{item.document_id}: {item.metadata.get('kind', '')} of {item.metadata.get('vendor_id', '')}"
            for item in items]


def _kind(name: str, model: type, columns: tuple[Column, ...], from_cells: Callable[..., Any],
          to_cells: Callable[..., Any], key_of: Callable[..., tuple[str, str]], json_key: str | None,
          **extra: Any) -> RegisterKind:
    return RegisterKind(name=name, pack=PACK, model=model, columns=columns, from_cells=from_cells,
                        to_cells=to_cells, key_of=key_of, json_key=json_key, tables=TABLES, **extra)


_VENDOR_ID = ("vendor id", "vendor code", "party code", "supplier code", "vendor no", "contact id", "creditor code",
              "creditor id", "ledger code", "supplier id")
KINDS: dict[str, RegisterKind] = {k.name: k for k in (
    _kind("buyer", Buyer, (Column("name", "Company Name", ("company", "buyer", "name"), required=True),
                           Column("gstin", "GSTIN", ("gstin/uin", "gst number", "gst no"))),
          _buyer, lambda b: {"name": b.name, "gstin": b.gstin or ""}, lambda b: ("buyer", b.name), "buyer"),
    _kind("vendors", Vendor, (
        Column("vendor_id", "Vendor ID", _VENDOR_ID),
        Column("name", "Vendor Name", ("party name", "name", "company name", "supplier name", "vendor",
                                       "mailing name")),
        # Another name of the same vendor beside its name (Tally's ledger name, Zoho's display name): kept as one
        # more name it is known by, or its name when the sheet has no other.
        Column("ledger_name", "Ledger Name", ("ledger", "account name in books", "display name",
                                              "vendor display name")),
        Column("aliases", "Also Called", ("aliases", "alias", "other names", "trade name")),
        Column("gstin", "GSTIN", ("gstin/uin", "gst identification number (gstin)", "gst number", "gst no",
                                  "gstin uin", "gst identification number"), required=True),
        Column("account_number", "Bank Account Number", ("account number", "a/c no", "account no", "bank a/c no",
                                                          "bank account no", "beneficiary account",
                                                          "vendor bank account number", "vendor account number",
                                                          "beneficiary account number", "supplier account number"),
               required=True),
        Column("ifsc", "IFSC Code", ("ifsc", "ifs code", "bank ifsc", "vendor bank ifsc code", "vendor ifsc code",
                                     "bank ifsc code", "beneficiary ifsc")),
        Column("bank_name", "Bank Name", ("bank", "vendor bank name")),
        Column("account_name", "Account Holder Name", ("beneficiary name", "account name", "a/c holder name",
                                                        "vendor bank account holder name", "bank account holder name")),
        Column("contact_name", "Contact Person", ("contact name", "contact", "primary contact")),
        Column("contact_role", "Contact Role", ("designation", "role")),
        Column("contact_phone", "Contact Phone", ("phone", "mobile", "mobile phone", "phone no", "contact number")),
        Column("contact_email", "Contact Email", ("email", "email id", "e-mail", "emailid")),
        Column("onboarded_on", "Onboarded On", ("created on", "created time", "date of creation", "since"),
               date=True),
    ), _vendor, _vendor_cells, lambda v: (v.vendor_id, v.written_id), "vendors", after_apply=queue_vendor_memories,
        # The payment history is the one source of how often and since when a vendor was paid.
        normalise=lambda v: v.model_copy(update={"payment_count": 0, "first_paid": None}),
        subject=("vendor", lambda v: [v.vendor_id, v.code, v.name, v.gstin])),
    _kind("purchase-orders", PurchaseOrder, (
        Column("po_number", "PO Number", ("purchase order number", "purchaseorder number", "po no", "order no",
                                          "voucher no", "voucher number", "purchase order#"), required=True),
        Column("vendor_id", "Vendor ID", (*_VENDOR_ID, "vendor name", "party name", "party's name", "ledger name"),
               required=True),
        Column("po_date", "PO Date", ("purchase order date", "date", "order date", "voucher date"), date=True,
               required=True),
        Column("line_no", "Line", ("line no", "s no", "sl no", "sl", "item no", "line number")),
        Column("sku", "SKU", ("item code", "product code", "stock item code")),
        Column("description", "Item", ("item name", "stock item", "name of item", "description", "item desc")),
        Column("quantity", "Quantity", ("qty", "quantity ordered", "quantityordered", "qty ordered", "billed qty",
                                        "actual qty", "order qty"), required=True),
        Column("unit", "Unit", ("uom", "usage unit", "units")),
        Column("unit_price", "Rate", ("unit price", "item price", "price", "rate per unit", "item rate",
                                      "purchase rate"), required=True),
    ), _po, _po_cells, lambda p: (p.po_number.upper(), p.po_number), "purchase_orders",
        lines_field="lines", refers=lambda p: [("vendors", p.vendor_id)], resolve=_resolve_vendor),
    _kind("goods-receipts", GoodsReceipt, (
        Column("grn_number", "GRN Number", ("grn no", "receipt note no", "receipt number", "voucher no", "mrn no",
                                            "mrn number", "material receipt note no",
                                            "purchase receive number", "receive number"), required=True),
        Column("po_number", "PO Number", ("purchase order number", "po no", "order no", "against po",
                                          "purchaseorder number"), required=True),
        Column("received_on", "Received On", ("receipt date", "grn date", "date", "received date", "mrn date",
                                              "mrn dt"), date=True,
               required=True),
        Column("po_line", "PO Line", ("line", "line no", "s no", "po sl", "po sl no", "po line no")),
        Column("quantity_received", "Quantity Received", ("qty received", "received qty", "quantity", "qty", "qty recd",
                                                          "quantity received"), required=True),
    ), _grn, _grn_cells, lambda g: (g.grn_number.upper(), g.grn_number), "goods_receipts",
        lines_field="lines", refers=lambda g: [("purchase-orders", g.po_number.upper())]),
    _kind("payments", PastInvoice, (
        Column("invoice_number", "Invoice Number", ("bill number", "bill no", "supplier invoice no", "invoice no",
                                                    "vendor invoice no", "ref no"), required=True),
        Column("vendor_id", "Vendor ID", (*_VENDOR_ID, "vendor name", "party name", "ledger name"), required=True),
        Column("invoice_date", "Invoice Date", ("bill date", "date"), date=True, required=True),
        Column("po_number", "PO Number", ("purchase order number", "po no")),
        Column("total", "Total", ("amount", "bill amount", "invoice amount", "total amount", "gross total"),
               required=True),
        Column("outcome", "Outcome", ("status", "bill status", "payment status", "invoice status")),
        Column("paid_on", "Paid On", ("payment date", "paid date", "date paid"), date=True),
        Column("paid_to_account", "Paid to Account", ("beneficiary account", "paid to a/c", "credited account",
                                                       "paid to account number", "vendor bank account number",
                                                       "vendor account number", "beneficiary account number")),
        *(Column(f"exception_{f}", f"Exception {f.replace('_', ' ').title()}", (), date=f == "resolved_on")
          for f in _EXCEPTION),
    ), _payment, _payment_cells, lambda p: (f"{p.vendor_id}:{''.join(p.invoice_number.upper().split())}",
                                            f"{p.vendor_id} {p.invoice_number}"), "invoices",
        refers=lambda p: [("vendors", p.vendor_id)], after_apply=queue_vendor_memories, resolve=_resolve_vendor),
    _kind("policy", Policy, (), _policy, _no_cells, lambda _p: ("policy", "policy"), None),
)}
SEED_FILES = [("buyer", "ap/vendors.json"), ("vendors", "ap/vendors.json"),
              ("purchase-orders", "ap/purchase_orders.json"), ("goods-receipts", "ap/goods_receipts.json"),
              ("payments", "ap/history.json"), ("policy", "ap/policy.json")]


@dataclass(frozen=True)
class TenantLedger:
    """What the AP pack decides with for one tenant: its ledger and its policy."""

    ledger: Ledger
    policy: Policy


def _with_payments(vendor: Vendor, payments: list[PastInvoice]) -> Vendor:
    """The master's payment count and first payment as the tenant's payment history says (when it has one)."""
    paid = sorted((p.paid_on for p in payments if p.vendor_id == vendor.vendor_id and p.outcome == "paid"
                   and p.paid_on), key=lambda d: d)
    if not paid:
        return vendor
    return vendor.model_copy(update={"payment_count": len(paid), "first_paid": paid[0]})


def build_ledger(records: dict[str, dict[str, StoredRecord]]) -> TenantLedger:
    def rows(kind: str) -> list[dict[str, Any]]:
        return [r.data for r in records.get(kind, {}).values()]

    payments = [PastInvoice.model_validate(r) for r in rows("payments")]
    vendors = [_with_payments(Vendor.model_validate(r), payments) for r in rows("vendors")]
    buyer = next((Buyer.model_validate(r) for r in rows("buyer")), Buyer())
    data = LedgerData(buyer=buyer, vendors=vendors,
                      purchase_orders=[PurchaseOrder.model_validate(r) for r in rows("purchase-orders")],
                      goods_receipts=[GoodsReceipt.model_validate(r) for r in rows("goods-receipts")],
                      invoices=payments)
    policy = next((Policy.model_validate(r) for r in rows("policy")),
                  None) or Policy.model_validate_json(DEFAULT_POLICY.read_text(encoding="utf-8"))
    return TenantLedger(ledger=Ledger(data), policy=policy)


class Ledgers:
    """The repository: one Ledger and Policy per tenant, rebuilt when that tenant's registers change."""

    def __init__(self, database: Database) -> None:
        self._cache = TenantCache(RegisterStore(database, *TABLES), build_ledger)

    def for_tenant(self, tenant: str) -> TenantLedger:
        return self._cache.for_tenant(tenant)
