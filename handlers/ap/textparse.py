"""Reading an invoice out of plain text (a PDF's text layer or OCR) without a model.

It knows the labelled layout Indian GST invoices use ("Invoice No:", "GSTIN:", "A/c No:", a line table of
description, quantity, rate and amount). Lines it cannot place are kept as notes: they are data, and the
risk rules read them for instructions aimed at the approver.
"""

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from handlers.ap.models import GSTIN_PATTERN
from handlers.ap.money import parse_amount

_HEAD_LINES = 6
# Checked against the heading lines first, so "Purchase Order ... Invoice to:" is a PO, not an invoice.
_OTHER_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("proforma", re.compile(r"\bpro[\s-]?forma\b", re.I)),
    ("credit_note", re.compile(r"\bcredit\s+note\b", re.I)),
    ("debit_note", re.compile(r"\bdebit\s+note\b", re.I)),
    ("purchase_order", re.compile(r"\bpurchase\s+order\b", re.I)),
    ("delivery_challan", re.compile(r"\bdelivery\s+(challan|note)\b", re.I)),
    ("goods_receipt", re.compile(r"\bgoods\s+receipt\b", re.I)),
    ("quotation", re.compile(r"\bquotation\b|\bquote\b", re.I)),
    ("statement", re.compile(r"\bstatement\s+of\s+account\b", re.I)),
    ("payment_receipt", re.compile(r"\b(payment\s+)?receipt\b", re.I)),
]
_INVOICE_WORD = re.compile(r"\b(tax\s+)?invoice\b|\bbill\s+of\s+supply\b", re.I)

_AMOUNT = r"(?:rs\.?|inr|₹)?\s*\d[\d,]*(?:\.\d{1,2})?"
_INVOICE_NO = re.compile(r"invoice\s*(?:no\.?|number|#)\s*[:#.-]?\s*([A-Z0-9][A-Z0-9/_.-]*)", re.I)
_DATE = re.compile(r"(?:invoice\s+)?date(?:d)?\s*[:.-]\s*([0-9A-Za-z,./ -]{6,20})", re.I)
_PO = re.compile(
    r"\b(?:p\.?\s?o\.?|purchase\s+order)\s*(?:ref(?:erence)?\.?|no\.?|number|#)?\s*[:#]\s*([A-Z0-9][A-Z0-9/-]*)", re.I,
)
_GSTIN = re.compile(GSTIN_PATTERN.strip("^$").join([r"\b(", r")\b"]))
_VENDOR = re.compile(r"^\s*(?:supplier|vendor|seller|sold\s+by|from)\s*[:-]\s*(.+)$", re.I)
_LINE = re.compile(
    rf"^(?P<desc>[A-Za-z0-9][^|]*?)\s*\|?\s+(?P<qty>\d+(?:\.\d+)?)\s*(?:[A-Za-z]{{1,4}}\.?)?\s*\|?\s*[x@]?\s*"
    rf"(?P<price>{_AMOUNT})\s*\|?\s+(?P<amount>{_AMOUNT})\s*$", re.I,
)
_SUBTOTAL = re.compile(rf"^\s*(?:sub\s*-?\s*total|taxable\s+(?:value|amount))\b[^:\d]*[:-]?\s*(?P<v>{_AMOUNT})\s*$", re.I)
_TAX = re.compile(rf"^\s*(?:[cis]?gst|igst|cgst|sgst|tax)\b(?!in)[^:\n]*?[:-]\s*(?P<v>{_AMOUNT})\s*$", re.I)
_TOTAL = re.compile(
    r"^\s*(?:grand\s+total|total\s+amount(?:\s+payable)?|invoice\s+total|amount\s+payable|total)\b"
    rf"[^:\d]*[:-]?\s*(?P<v>{_AMOUNT})\s*(?:/-)?\s*$",
    re.I,
)
_ACCOUNT = re.compile(r"\b(?:a/?c|account)\s*(?:no\.?|number|#)?\s*[:.-]?\s*(\d[\d -]{6,}\d)", re.I)
_IFSC = re.compile(r"\bIFSC(?:\s+code)?\s*[:.-]?\s*([A-Z]{4}0[A-Z0-9]{6})\b", re.I)
_BANK_NAME = re.compile(r"\bbank\s*(?:name)?\s*[:-]\s*([A-Za-z][A-Za-z .&]*?bank)\b", re.I)
_CONTACT = re.compile(r"\b(contact|call|phone|tel|mobile)\b", re.I)
_HEADER = re.compile(r"^\s*(description|item|particulars)\b.*\b(qty|quantity)\b", re.I)
_DATE_FORMATS = ("%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y", "%b %d, %Y", "%d-%b-%Y")


class TextParse(BaseModel):
    """What the parser found: the fields for an Invoice, or which required ones are missing."""

    fields: dict[str, Any]
    missing: list[str]


def document_kind(text: str) -> str:
    """Return "invoice", another document kind ("purchase_order", "proforma", ...), or "unknown"."""
    lines = [l for l in text.splitlines() if l.strip()]
    head = "\n".join(lines[:_HEAD_LINES])
    for kind, pattern in _OTHER_KINDS:
        if pattern.search(head) and not (kind == "payment_receipt" and _INVOICE_WORD.search(head)):
            return kind
    if _INVOICE_WORD.search(text):
        return "invoice"
    return "unknown"


def parse_date(value: str) -> date | None:
    cleaned = " ".join(value.replace(",", ", ").split()).replace(" ,", ",")
    for candidate in (cleaned, cleaned.split(" ")[0]):
        for fmt in _DATE_FORMATS:
            try:
                return datetime.strptime(candidate.strip(" ,."), fmt).date()
            except ValueError:
                continue
    return None


def _amount(value: str) -> Decimal | None:
    try:
        return parse_amount(value)
    except ValueError:
        return None


def parse_invoice_text(text: str, buyer_gstin: str | None = None) -> TextParse:
    """Return the invoice fields found in the text, and the required ones that are missing."""
    fields: dict[str, Any] = {"lines": []}
    notes: list[str] = []
    tax = Decimal("0")
    bank: dict[str, str] = {}
    gstins = [g for g in _GSTIN.findall(text.upper()) if g != buyer_gstin]
    if gstins:
        fields["vendor_gstin"] = gstins[0]
    for raw in text.splitlines():
        line = " ".join(raw.replace("|", " | ").split()).replace(" | ", " ").strip()
        if not line or _HEADER.match(line):
            continue
        used = False
        if "invoice_number" not in fields and (m := _INVOICE_NO.search(line)):
            fields["invoice_number"], used = m.group(1).rstrip(".,"), True
        prefer = "invoice date" in line.lower()  # over a PO or delivery date seen earlier
        if ("invoice_date" not in fields or prefer) and (m := _DATE.search(line)) and (day := parse_date(m.group(1))):
            fields["invoice_date"], used = day, True
        if "po_number" not in fields and (m := _PO.search(line)):
            fields["po_number"], used = m.group(1).rstrip(".,"), True
        if "vendor_name" not in fields and (m := _VENDOR.match(line)):
            fields["vendor_name"], used = m.group(1).strip(), True
        if (m := _ACCOUNT.search(line)) and "account_number" not in bank:
            bank["account_number"], used = re.sub(r"\D", "", m.group(1)), True
        if (m := _IFSC.search(line)) and "ifsc" not in bank:
            bank["ifsc"], used = m.group(1).upper(), True
        if (m := _BANK_NAME.search(line)) and "bank_name" not in bank:
            bank["bank_name"], used = m.group(1).strip(), True
        if used:
            continue
        if (m := _SUBTOTAL.match(line)) and (value := _amount(m.group("v"))) is not None:
            fields["subtotal"] = value
        elif (m := _TOTAL.match(line)) and (value := _amount(m.group("v"))) is not None:
            fields["total"] = value
        elif (m := _TAX.match(line)) and "gstin" not in line.lower() and (value := _amount(m.group("v"))) is not None:
            tax += value
        elif (m := _LINE.match(line)) and re.search(r"[A-Za-z]", m.group("desc")) \
                and (amount := _amount(m.group("amount"))) is not None \
                and (price := _amount(m.group("price"))) is not None:
            fields["lines"].append({"description": m.group("desc").strip(" |:-"), "quantity": Decimal(m.group("qty")),
                                    "unit_price": price, "amount": amount})
        elif _CONTACT.search(line) and "contact" not in fields:
            fields["contact"] = line[:300]
        elif not _GSTIN.search(line.upper()) and not _INVOICE_WORD.fullmatch(line.strip()):
            notes.append(line)
    if "vendor_name" not in fields:
        name = next((n for n in notes if not _INVOICE_WORD.search(n) and len(n) > 2), None)
        if name is not None:
            fields["vendor_name"] = name
            notes.remove(name)
    fields["tax"] = tax
    if bank.get("account_number"):
        fields["bank"] = bank
    if notes:
        fields["notes"] = " ".join(notes)[:2000]
    required = {"vendor_name": "vendor", "invoice_number": "invoice number", "invoice_date": "invoice date",
                "total": "total"}
    missing = [label for key, label in required.items() if key not in fields]
    if not fields["lines"]:
        missing.append("line items")
    return TextParse(fields=fields, missing=missing)
