"""The accounts-payable domain: invoices as they arrive, and the vendor master, POs and receipts they meet."""

import re
from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.services.registers.codes import internal_key

from handlers.ap.money import PAISE, suffix

InvoiceSource = Literal["json", "pdf", "photo", "text"]

GSTIN_PATTERN = r"^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$"


def normalise_name(name: str) -> str:
    """Return a vendor name folded for comparison: lowercase words, '&' read as 'and'."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.lower().replace("&", " and ")).split())


class BankDetails(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    account_number: str = Field(min_length=4, max_length=34)
    ifsc: str | None = None
    bank_name: str | None = None
    account_name: str | None = None

    @field_validator("account_number")
    @classmethod
    def _digits(cls, value: str) -> str:
        cleaned = re.sub(r"[\s-]", "", value)
        if not cleaned.isdigit():
            raise ValueError("an account number is digits only")
        return cleaned

    @property
    def suffix(self) -> str:
        return suffix(self.account_number)


class InvoiceLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    description: str = Field(min_length=1, max_length=200)
    sku: str | None = None
    quantity: Decimal = Field(gt=0)
    unit_price: Decimal = Field(ge=0)
    amount: Decimal = Field(ge=0)


class Invoice(BaseModel):
    """An invoice as the vendor sent it. Everything in it is a claim to check, never an instruction."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    vendor_name: str = Field(min_length=2, max_length=120)
    vendor_gstin: str | None = None
    buyer_gstin: str | None = None
    """The GSTIN the invoice is billed to; input tax credit needs it to be the tenant's own."""
    invoice_number: str = Field(min_length=1, max_length=40)
    invoice_date: date
    po_number: str | None = None
    lines: list[InvoiceLine] = Field(min_length=1, max_length=200)
    subtotal: Decimal | None = None
    """The taxable value: the lines less any invoice-level discount."""
    discount: Decimal = Field(default=Decimal("0"), ge=0)
    """A discount on the whole invoice ("Less: Trade Discount"), taken off the lines before tax."""
    tax: Decimal = Decimal("0")
    """All GST (CGST + SGST/UTGST, or IGST) and cess together."""
    round_off: Decimal = Decimal("0")
    """The printed round-off, signed: lines + tax + round_off is the total."""
    total: Decimal = Field(gt=0)
    total_in_words: Decimal | None = None
    """The total as printed in words ("Rupees ... Only"), a cross-check of the figure."""
    currency: Literal["INR"] = "INR"
    bank: BankDetails | None = None
    contact: str | None = Field(default=None, max_length=300)
    """A contact printed on the invoice. Never used to verify anything: the invoice is what is being checked."""
    notes: str | None = Field(default=None, max_length=2000)
    source: InvoiceSource = "json"
    replaces: str | None = Field(default=None, max_length=40)
    """The number of an earlier invoice of the same vendor this one replaces ("revised invoice", "in place of
    invoice X"), as printed: that one is superseded, this one is no second bill of its receipt."""

    @field_validator("vendor_gstin", "buyer_gstin")
    @classmethod
    def _gstin(cls, value: str | None) -> str | None:
        if value is None:
            return None
        cleaned = value.strip().upper()
        if not re.match(GSTIN_PATTERN, cleaned):
            raise ValueError("a GSTIN has 15 characters: state code, PAN, entity, Z, check digit")
        return cleaned

    @field_validator("invoice_number")
    @classmethod
    def _number(cls, value: str) -> str:
        return value.strip()

    @model_validator(mode="after")
    def _fill_subtotal(self) -> "Invoice":
        if self.subtotal is None:
            lines = sum((line.amount for line in self.lines), Decimal("0"))
            object.__setattr__(self, "subtotal", lines - self.discount)
        return self

    @property
    def lines_total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal("0")).quantize(PAISE)


class Contact(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str = ""
    role: str = ""
    phone: str = ""
    email: str = ""

    def show(self) -> str:
        """The contact as a sentence names them: "Ramana (Accounts, 98480 11111)"; only what is on file."""
        details = ", ".join(part for part in (self.role.strip(), self.phone.strip()) if part)
        name = self.name.strip()
        if name:
            return f"{name} ({details})" if details else name
        if details or self.email.strip():
            return ", ".join(part for part in (details, self.email.strip()) if part)
        return "the vendor's contact (none is on file: add one to the vendor register)"


class Vendor(BaseModel):
    """A vendor master record: who we pay, where, and whom we call to verify a change."""

    model_config = ConfigDict(frozen=True)

    vendor_id: Annotated[str, AfterValidator(lambda v: internal_key(v, "vendor", capitals=True))]
    """Upper-case letters, digits and dashes, derived from the id as the office writes it (kept for display)."""
    name: str
    code: str = ""
    """The vendor id as the office writes it ("SCR/014") when that differs from vendor_id: shown and exported,
    matched folded."""
    aliases: list[str] = Field(default_factory=list)
    gstin: str = Field(pattern=GSTIN_PATTERN)
    bank_account: BankDetails
    verified_contact: Contact
    onboarded_on: date | None = None
    first_paid: date | None = None
    payment_count: int = Field(default=0, ge=0)

    @property
    def never_paid(self) -> bool:
        return self.first_paid is None or self.payment_count == 0

    def names(self) -> list[str]:
        return [self.name, *self.aliases]

    @property
    def written_id(self) -> str:
        """The id as the office writes it, for display and export."""
        return self.code or self.vendor_id


class POLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    line_no: int = Field(ge=1)
    sku: str
    description: str
    quantity: Decimal = Field(gt=0)
    unit: str
    unit_price: Decimal = Field(ge=0)


class PurchaseOrder(BaseModel):
    model_config = ConfigDict(frozen=True)

    po_number: str
    vendor_id: str
    po_date: date
    lines: list[POLine] = Field(min_length=1)


class GRNLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    po_line: int = Field(ge=1)
    quantity_received: Decimal = Field(ge=0)


class GoodsReceipt(BaseModel):
    model_config = ConfigDict(frozen=True)

    grn_number: str
    po_number: str
    received_on: date
    lines: list[GRNLine] = Field(min_length=1)


class PastException(BaseModel):
    """An exception AP raised on a past invoice, and how it was resolved."""

    model_config = ConfigDict(frozen=True)

    mismatch: Literal["quantity", "price", "total"]
    sku: str
    item: str
    invoiced_quantity: Decimal
    received_quantity: Decimal
    resolution_code: Literal["request_corrected_invoice", "short_pay", "credit_note", "approved_as_invoiced"]
    resolved_on: date
    note: str = Field(min_length=10)


class PastInvoice(BaseModel):
    """One invoice in the payment ledger: paid, or rejected with the exception that stopped it."""

    model_config = ConfigDict(frozen=True)

    invoice_number: str
    vendor_id: str
    invoice_date: date
    po_number: str | None = None
    total: Decimal = Field(gt=0)
    outcome: Literal["paid", "rejected"]
    paid_on: date | None = None
    paid_to_account: str | None = None
    exception: PastException | None = None

    @model_validator(mode="after")
    def _consistent(self) -> "PastInvoice":
        if self.outcome == "paid" and (self.paid_on is None or self.paid_to_account is None):
            raise ValueError(f"{self.invoice_number}: a paid bill needs the day it was paid (Paid On) and the "
                             "account it was paid to (Paid to Account)")
        if self.outcome == "rejected" and self.exception is None:
            raise ValueError(f"{self.invoice_number}: a rejected invoice needs the exception that stopped it")
        return self


class Buyer(BaseModel):
    """The tenant's own company (its GSTIN on an invoice is never the vendor's). Empty until imported."""

    name: str = ""
    gstin: str | None = Field(default=None, pattern=GSTIN_PATTERN)


class Tolerances(BaseModel):
    model_config = ConfigDict(frozen=True)

    quantity_pct: Decimal = Field(ge=0)
    unit_price_pct: Decimal = Field(ge=0)
    total_abs: Decimal = Field(ge=0)
    total_pct: Decimal = Field(ge=0)


class Trust(BaseModel):
    model_config = ConfigDict(frozen=True)

    established: int
    some_history: int
    unknown: int
    after_first_bank_change: int


class Policy(BaseModel):
    """Every number a rule compares against, in one data file (seeds/ap/policy.json)."""

    model_config = ConfigDict(frozen=True)

    tolerances: Tolerances
    first_bank_change_min_payments: int = Field(ge=1)
    duplicate_window_days: int = Field(default=15, ge=0)
    """Two invoices from one vendor this many days apart, or closer, with amounts within
    duplicate_amount_pct of each other and different numbers, go to a person as a possible duplicate."""
    duplicate_amount_pct: Decimal = Field(default=Decimal("1.0"), ge=0)
    amount_outlier_factor: Decimal = Field(gt=1)
    max_memories: int = Field(ge=1, le=10)
    confidence: dict[str, float]
    trust: Trust

    def confidence_of(self, code: str) -> float:
        """A tenant's policy saved before a rule existed has no figure for it: such a flag is as sure as a
        GSTIN mismatch (a document that does not agree with the registers)."""
        return self.confidence.get(code, self.confidence.get("GSTIN_MISMATCH", 0.8))
