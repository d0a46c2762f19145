"""Reading an invoice out of plain text (a PDF's text layer, OCR of a photo, pasted text) without a model.

Fields are found by what they are, not by one label set: the labelled head (textlabels), the line table
and the figures under it (texttable), amounts and dates as Indian offices print them (textamounts). Lines
it cannot place are kept as notes: they are data, and the risk rules read them for instructions aimed at
the approver.
"""

import csv
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from handlers.ap.gstin import mend_read
from handlers.ap.models import GSTIN_PATTERN
from handlers.ap.textamounts import parse_date, words_line, words_to_amount
from handlers.ap.textfigures import (
    Figures,
    choose_total,
    is_carried,
    is_figure_label,
    read_figure,
)
from handlers.ap.textfreight import freight_rows, service_lines
from handlers.ap.textitems import labelled_items
from handlers.ap.textparties import party_gstins
from handlers.ap.textlabels import bank_details, bare_number, find_labels, identifier, read_head
from handlers.ap.texttable import UNITS, is_header, item_heading, read_row, right_figure
from handlers.ap.textvalues import take_tax_out, value_columns

__all__ = ["TextParse", "document_kind", "parse_date", "parse_invoice_text", "replaced_invoice"]

_HEAD_LINES = 6
_OTHER_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("proforma", re.compile(r"\bpro[\s-]?forma\b", re.IGNORECASE)),
    ("credit_note", re.compile(r"\bcredit\s+note\b", re.IGNORECASE)),
    ("debit_note", re.compile(r"\bdebit\s+note\b", re.IGNORECASE)),
    ("purchase_order", re.compile(r"\bpurchase\s+order\b", re.IGNORECASE)),
    ("delivery_challan", re.compile(r"\bdelivery\s+(challan|note)\b", re.IGNORECASE)),
    ("goods_receipt", re.compile(r"\bgoods\s+receipt\b", re.IGNORECASE)),
    ("quotation", re.compile(r"\bquotation\b|\bquote\b", re.IGNORECASE)),
    ("statement", re.compile(r"\bstatement\s+of\s+account\b", re.IGNORECASE)),
    ("payment_receipt", re.compile(r"\b(payment\s+)?receipt\b", re.IGNORECASE)),
]
_PAYABLE_BILL = r"(?:freight|transport(?:ation)?|lorry\s+hire|service|labour|job\s*work|hire\s+charges?)\s+bill"
"""Bills a transporter or a service provider raises: payable like an invoice (GTA, SAC lines, LR tables)."""
_INVOICE_WORD = re.compile(rf"\b(?:tax\s+|gst\s+|retail\s+|sales\s+)?invoice\b|\bbill\s+of\s+supply\b|\b{_PAYABLE_BILL}\b",
                           re.IGNORECASE)
_INVOICE_LABEL = re.compile(r"\binv(?:oice)?\.?\s*(?:no\b|#|number)", re.IGNORECASE)
_INVOICE_TITLE = re.compile(r"^(?:(?:tax|gst|retail|sales)\s+)?invoice(?:\s*(?:-|cum|&|and)\s*(?:delivery\s+)?"
                            r"(?:bill|challan|note))?|bill\s+of\s+supply|bill|cash\s+memo$|" + _PAYABLE_BILL, re.IGNORECASE)
_TITLE_NOISE = re.compile(r"\((?:original|duplicate|triplicate)[^)]*\)|\b(?:original|duplicate|triplicate)\s+for\s+"
                          r"\w+|\be-?invoice\b", re.IGNORECASE)
AGAINST_INVOICE = re.compile(
    r"\b(?:against|ref(?:erence)?\.?|original|orig\.?|adjusted\s+against|in\s+respect\s+of)\s*"
    r"(?:our\s+|your\s+)?(?:tax\s+)?(?:invoice|inv|bill)\.?\s*(?:no\b\.?|#|number)?\s*[:\-]?\s*(.+)", re.IGNORECASE)
"""The invoice a credit or debit note adjusts ("Against Invoice No: X", "Ref. Invoice: X")."""
_NOTE_KINDS = ("credit_note", "debit_note")
_REPLACES = re.compile(
    r"\b(?:replac(?:es|ing)|(?:issued\s+)?in\s+(?:place|lieu)\s+of|supersed(?:es|ing)|cancels?\s+and\s+replaces?"
    r"|(?:revised|corrected|amended|replacement)\s+(?:invoice\s+)?(?:of|for|against|to)|revision\s+of)\s+"
    r"(?:our\s+|your\s+|the\s+)?(?:earlier\s+|original\s+|previous\s+|old\s+)?(?:tax\s+)?(?:invoice|inv|bill)\.?"
    r"\s*(?:no\b\.?|#|number)?\s*[:\-]?\s*(.+)", re.IGNORECASE)
"""The earlier invoice a replacement names ("This invoice replaces Invoice No X", "in place of invoice X")."""
_REVISED = re.compile(r"\b(?:revised|replacement|corrected|amended)\s+(?:tax\s+)?invoice\b", re.IGNORECASE)
_ORIGINAL = re.compile(r"\b(?:original|earlier|previous|old|ref(?:erence)?\.?)\s+(?:tax\s+)?(?:invoice|inv|bill)\.?"
                       r"\s*(?:no\b\.?|#|number)?\s*[:\-]?\s*(.+)", re.IGNORECASE)
"""On a document titled a revised invoice: the number of the one it revises ("Original Invoice No: X")."""


def replaced_invoice(text: str, own_number: str | None) -> str | None:
    """The earlier invoice this one says it replaces, as printed; never its own number."""
    revised = bool(_REVISED.search(text))
    for line in text.splitlines():
        for pattern in (_REPLACES, *((_ORIGINAL,) if revised else ())):
            match = pattern.search(line)
            found = identifier(match.group(1)) if match else None
            if found and (own_number is None or found.upper() != own_number.upper()):
                return found
    return None
_FIELD_LABEL = re.compile(r"\b(no\b\.?|number|#|date|dt\b|ref\b)", re.IGNORECASE)
_GSTIN = re.compile(GSTIN_PATTERN.strip("^$").join([r"\b(", r")\b"]))
_VENDOR = re.compile(r"^\s*(?:supplier|vendor|seller|sold\s+by|from|billed\s+by|consignor)(?:\s+name)?\s*[:-]\s*(.+)$",
                     re.IGNORECASE)
_NOT_VENDOR = re.compile(r"^\s*(?:gstin|gst\s*no|original|duplicate|triplicate|irn|ack|page|bill\s+to|buyer|ship"
                         r"|consignee|to\b|m/s\.?\s*$|e-?invoice|tax\s+invoice|invoice|phone|ph\b|mob|email|tel|pan\b)",
                         re.IGNORECASE)
_CONTACT = re.compile(r"\b(contact|call|phone|tel|mobile|mob|ph)\b", re.IGNORECASE)


class TextParse(BaseModel):
    """What the parser found: the fields for an Invoice, or which required ones are missing."""

    fields: dict[str, Any]
    missing: list[str]
    total_in_words: Decimal | None = None


def _title(line: str) -> str:
    return " ".join(_TITLE_NOISE.sub(" ", line).split()).strip(" -:*=")


_QUOTED_NUMBER = re.compile(r"[ \t]*[:#\-][ \t]*[A-Za-z]{0,8}[/\-_.]?[A-Za-z0-9/\-_.]*\d|[ \t]+[A-Za-z]{0,8}[/\-_.]?\d")
"""What follows a document's name when the name is a label: a number ("Purchase Order: PO/SW/26-27/042")."""
_TITLED_INVOICE = re.compile(r"^(?:(?:tax|gst|retail|sales)\s+invoice|bill\s+of\s+supply)\b(?!\s*(?:no\b|number|#|date|dt\b"
                             r"|ref))|^invoice\s*[-–(|]", re.IGNORECASE)


def _titled_invoice(title: str) -> bool:
    """A heading that begins with the invoice's name and goes on with words of its own, not a field's value."""
    return bool(_TITLED_INVOICE.match(title))


def document_kind(text: str) -> str:
    """Return "invoice", another document kind ("purchase_order", "proforma", ...), or "unknown".

    A heading line that is only a document's name decides it; otherwise a kind named in the head counts,
    unless it is a field label there (Tally's "Delivery Note" box, "Buyer's Order No.").
    """
    lines = [ln for ln in text.splitlines() if ln.strip()]
    head = lines[:_HEAD_LINES + 2]
    for line in head:
        title = _title(line)
        for kind, pattern in _OTHER_KINDS:
            if pattern.fullmatch(title):
                return kind
        if _INVOICE_TITLE.fullmatch(title):
            return "invoice"
    # A heading that begins with the invoice's name ("Tax Invoice - copy re-sent", "TAX INVOICE (ORIGINAL)") is
    # stronger evidence than another document named further down, which is then a reference to it.
    titles = [_title(line) for line in head]
    if any(_titled_invoice(t) for t in titles) \
            and not any(pattern.match(t) for t in titles for _, pattern in _OTHER_KINDS):
        return "invoice"
    joined = "\n".join(lines[:_HEAD_LINES])
    for kind, pattern in _OTHER_KINDS:
        for match in pattern.finditer(joined):
            after = joined[match.end():match.end() + 24]
            # "Delivery Note No." is a box on an invoice, "Purchase Order: PO/SW/042" the buyer's order it quotes;
            # "Credit Note No." is the note's own number when the document names the invoice it is against.
            labelled = (_FIELD_LABEL.match(after.strip(" .:")) or _QUOTED_NUMBER.match(after)) \
                and not (kind in _NOTE_KINDS and AGAINST_INVOICE.search(text))
            if labelled or kind == "payment_receipt" and _INVOICE_WORD.search(joined):
                continue
            return kind
    if _INVOICE_WORD.search(text) or _INVOICE_LABEL.search(text):
        return "invoice"
    return "unknown"


def _clean(raw: str) -> str:
    return raw.replace("\t", "    ").rstrip()


def _vendor_name(lines: list[str]) -> tuple[str, int] | None:
    """The seller: a "Supplier:" label, else the first line at the top that is neither a title nor a label."""
    for index, line in enumerate(lines):
        if (match := _VENDOR.match(line)):
            name = re.split(r"\s{2,}|\bGSTIN\b|\|", match.group(1), flags=re.IGNORECASE)[0].strip(" ,;-")
            return name[:120], index
    for index, line in enumerate(lines[:10]):
        if _INVOICE_TITLE.fullmatch(_title(line)):
            continue
        candidate = re.split(r"\s{2,}", _INVOICE_WORD.sub(" ", _TITLE_NOISE.sub(" ", line)).strip())[0].strip(" -:|*")
        if labels := find_labels(candidate):
            candidate = candidate[:labels[0].start].strip(" -:|*")
        if len(re.findall(r"[A-Za-z]", candidate)) < 3:
            continue
        if _NOT_VENDOR.match(candidate) or _GSTIN.search(candidate.upper()):
            continue
        return candidate[:120], index
    return None


def _words_amount(lines: list[str], index: int) -> Decimal | None:
    line = lines[index]
    if re.search(r"\btax\b|\bgst\b", line, re.IGNORECASE):
        return None
    value = words_to_amount(line.split(":", 1)[-1] if "words" in line.lower() else line)
    if value is None and index + 1 < len(lines):
        value = words_to_amount(lines[index + 1])
    return value


@dataclass
class _Body:
    """What the lines under the head hold: item rows, the figures, the amount in words, a contact."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    figures: Figures = field(default_factory=Figures)
    words: Decimal | None = None
    contact: str | None = None
    used: set[int] = field(default_factory=set)
    tax_included: Decimal = Decimal(0)
    """GST that rows printed inside their amounts."""
    inclusive: list[Decimal | None] = field(default_factory=list)
    """Per row, the GST inside its amount if its rate was printed with tax (see Row.inclusive_tax)."""


def _read_body(lines: list[str], skip: set[int]) -> _Body:
    """Walk the lines once: the table header opens the item rows, a figure label closes them."""
    body = _Body(used=set(skip))
    in_table = False
    heading: tuple[int, str] | None = None
    for index, line in enumerate(lines):
        flat = " ".join(line.replace("|", " ").split())
        if not flat or index in skip or index in body.used:
            continue
        below = next((i for i in range(index + 1, len(lines)) if lines[i].strip()), None)
        if below is not None and (pairs := value_columns(flat, lines[below])) is not None:
            for pair in pairs:
                read_figure(pair, body.figures)
            in_table = False
            body.used.update((index, below))
            continue
        if is_header(flat):
            in_table = True
            body.used.add(index)
            continue
        if is_carried(flat):
            body.used.add(index)
            continue
        if (tail := right_figure(line)) is not None and read_figure(tail, body.figures):
            in_table = False
            body.used.add(index)
            continue
        if words_line(flat):
            body.words = body.words if body.words is not None else _words_amount(lines, index)
            body.used.add(index)
            continue
        if read_figure(flat, body.figures):
            in_table = False
            body.used.add(index)
            continue
        if is_figure_label(flat):
            in_table = False
        if (row := read_row(flat, in_table)) is not None:
            description = row.description
            if heading is not None and not row.numbered:
                description = f"{heading[1]} {description}"[:200]
                body.used.add(heading[0])
            body.rows.append({"description": description, "quantity": row.quantity, "unit_price": row.unit_price,
                              "amount": row.amount})
            body.inclusive.append(row.inclusive_tax)
            body.tax_included += row.tax_included
            body.used.add(index)
            heading = None
            continue
        heading = (index, name) if in_table and (name := item_heading(flat)) else None
        if _CONTACT.search(flat) and body.contact is None:
            body.contact = flat[:300]
            body.used.add(index)
    return body


def _cells(lines: list[str]) -> list[str]:
    """A spreadsheet saved as CSV ("INVOICE NO,KES-2627-118,,,DATE,11/8/2026,"): each row's cells, spaced apart
    the way a printed sheet shows them. Other text is left as it is."""
    if sum(1 for line in lines if line.count(",") >= 3 and ",," in line) < 3:
        return lines
    return ["    ".join(cell.strip() for cell in row if cell.strip()) for row in csv.reader(lines)]


_GSTIN_Z_AS_2 = re.compile(r"(?<![0-9A-Z])(\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z])2([0-9A-Z])(?![0-9A-Z])")
_SPLIT_AMOUNT = re.compile(r"(?<=\d)(?: ,\s*|, )(?=\d{2,3}(?:,\d{2,3})*\.\d{2}\b)")
_SPLIT_PAISE = re.compile(r"(?<=\d) (?=\.\d{2}\b)")


def _scanned_gstins(text: str) -> str:
    """Every GSTIN has Z as its 14th character; a scan reads it as 2, or runs an underline into the last one.
    On a line that names a GSTIN, a token of 15 or 16 characters that is not one is put back in shape
    (handlers/ap/gstin.py: a digit for a letter in the PAN, a speck read as a character)."""
    text = _GSTIN_Z_AS_2.sub(r"\1Z\2", text.replace("_", " "))
    if "GST" not in text:
        return text
    return _GSTIN_LIKE.sub(_mended_gstin, text)


def _mended_gstin(match: re.Match[str]) -> str:
    token = match.group(0)
    if sum(c.isalpha() for c in token) < 3:  # an account number or a phone number, not a misread GSTIN
        return token
    return mend_read(token) or token


_GSTIN_LIKE = re.compile(r"(?<![0-9A-Z])[0-9A-Z]{15,16}(?![0-9A-Z])")
_SPECK_AFTER_QUANTITY = re.compile(r"(?<=\d)[°º:;'`](?= +(?:" + "|".join(sorted(UNITS, key=len, reverse=True))
                                   + r")\b)", re.IGNORECASE)
_LEADING_SPECK = re.compile(r"^(\s*)([:;.,'`]+)(?=\s)")


def _mend_scan(line: str) -> str:
    """A scan spaces a grouped amount at its comma ("69, 300.00", "98 ,942.00") or before its paise ("11188 .50"):
    put it back together. A speck read as punctuation before a line (": Sub Total ...") is blanked, keeping
    the columns where they were, and so is one stuck to a quantity before its unit ("300° Nos", "300: Nos").
    """
    line = _LEADING_SPECK.sub(lambda m: m.group(1) + " " * len(m.group(2)), line)
    line = _SPECK_AFTER_QUANTITY.sub(" ", line)
    return _SPLIT_PAISE.sub("", _SPLIT_AMOUNT.sub(",", line))


def parse_invoice_text(text: str, buyer_gstin: str | None = None) -> TextParse:
    """Return the invoice fields found in the text, and the required ones that are missing."""
    lines = _cells([_mend_scan(_clean(raw)) for raw in text.splitlines()])
    head = read_head(lines)
    bare_number(lines, head)
    body = _read_body(lines, head.used)
    if not body.rows:
        body.rows = [{"description": r.description, "quantity": r.quantity, "unit_price": r.unit_price,
                      "amount": r.amount} for r in labelled_items(lines)]
    if not body.rows:
        body.rows = freight_rows(lines)
    if not body.rows:
        body.rows = service_lines(lines, body.used | head.used, is_figure_label)
    fields: dict[str, Any] = {"lines": body.rows}
    parties = party_gstins([_scanned_gstins(line.upper()) for line in lines], buyer_gstin)
    if parties.vendor_gstin:
        fields["vendor_gstin"] = parties.vendor_gstin
    if parties.buyer_gstin:
        fields["buyer_gstin"] = parties.buyer_gstin
    for key, name in (("invoice_number", "number"), ("po_number", "po")):
        if name in head.values:
            fields[key] = head.values[name]
    if "date" in head.dates:
        fields["invoice_date"] = head.dates["date"]
    if body.contact is not None:
        fields["contact"] = body.contact
    used = body.used
    vendor = _vendor_name(lines)
    if vendor is not None:
        fields["vendor_name"], vendor_line = vendor
        used.add(vendor_line)
    figures = body.figures
    if len(body.inclusive) == len(body.rows):
        take_tax_out(body.rows, body.inclusive, figures, body.words)
    lines_total = sum((Decimal(row["amount"]) for row in body.rows), Decimal(0))
    if body.tax_included and figures.subtotal is not None \
            and abs(figures.subtotal - lines_total - body.tax_included) <= Decimal("1.00"):
        figures.subtotal = None  # the rows' amounts with their tax, added up: not the value before tax
    figures.mend_split_tax(lines_total, [v for _, v in figures.totals] + ([body.words] if body.words else []))
    total = choose_total(figures, lines_total, body.words)
    if total is not None:
        fields["total"] = total
    if figures.taxable is not None or figures.subtotal is not None:
        fields["subtotal"] = figures.taxable_value(lines_total)
    if figures.discount:
        fields["discount"] = figures.discount
    fields["tax"] = figures.tax
    fields["round_off"] = figures.round_off
    if body.words is not None:
        fields["total_in_words"] = body.words
    bank = bank_details(lines, head)
    if bank.get("account_number"):
        fields["bank"] = bank
    notes = [flat for index, line in enumerate(lines) if (flat := " ".join(line.split())) and index not in used
             and not _GSTIN.search(flat.upper()) and not _INVOICE_WORD.fullmatch(flat)]
    if notes:
        fields["notes"] = " ".join(notes)[:2000]
    required = {"vendor_name": "vendor", "invoice_number": "invoice number", "invoice_date": "invoice date",
                "total": "total"}
    missing = [label for key, label in required.items() if key not in fields]
    if not body.rows:
        missing.append("line items")
    return TextParse(fields=fields, missing=missing, total_in_words=body.words)
