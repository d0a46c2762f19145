"""Intake: an invoice as JSON, a PDF with text, a photo or plain text becomes a validated Invoice, or a refusal.

A document that is not an invoice (a PO, a delivery challan, a proforma, a letter) is refused with the
reason. With a chat model, unstructured text is read by the model first (guarded); without one, or when
its answer is refused, the deterministic parser reads it.
"""

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from bot.services.llm import ChatModel
import time

from bot.services.imageprep import Preparation
from bot.services.reading import ReadText, off_loop
from bot.services.ocr import DocumentRejected, TextReader
from handlers.ap.llmparse import parse_with_model
from handlers.ap.models import Buyer, Invoice, InvoiceSource
from handlers.ap.notes import AdjustmentNote, read_note
from handlers.ap.readcheck import holds_together, reading_score
from handlers.ap.textparse import document_kind, parse_invoice_text, replaced_invoice

Method = Literal["json", "deterministic", "llm"]
RefusalReason = Literal["not_invoice", "missing_fields", "unreadable", "invalid_json", "invalid_invoice"]

_JSON_OTHER_KINDS = {"grn_number": "goods_receipt", "received_on": "goods_receipt", "po_date": "purchase_order"}
"""Keys that mark another document, when the object has neither an invoice number nor an invoice date."""


class Refusal(BaseModel):
    """Why a document was not taken as an invoice; rendered from the catalogue as `ap.refuse_<reason>`."""

    reason: RefusalReason
    values: dict[str, str] = Field(default_factory=dict)


class IntakeResult(BaseModel):
    invoice: Invoice | None = None
    refusal: Refusal | None = None
    method: Method | None = None
    model_note: str | None = None
    """Why the model's reading was not used, when there was a model and it was not."""
    note: AdjustmentNote | None = None
    """A credit or debit note (refused as a bill to pay): what it says, to record against its invoice."""


def _validation_summary(exc: ValidationError) -> str:
    fields = sorted({".".join(str(p) for p in error["loc"][:1]) or "document" for error in exc.errors()})
    return ", ".join(fields[:8])


def from_json_data(data: Any) -> IntakeResult:
    """Validate a JSON object as an invoice; a PO, receipt or other document type is refused."""
    if not isinstance(data, dict):
        return IntakeResult(refusal=Refusal(reason="invalid_json", values={"detail": "not a JSON object"}))
    declared = str(data.get("document_type", "invoice")).strip().lower().replace(" ", "_")
    if declared not in ("invoice", "tax_invoice"):
        return IntakeResult(refusal=Refusal(reason="not_invoice", values={"kind": declared}))
    if not {"invoice_number", "invoice_date"} & data.keys():
        kind = next((k for key, k in _JSON_OTHER_KINDS.items() if key in data), None)
        if kind is not None:
            return IntakeResult(refusal=Refusal(reason="not_invoice", values={"kind": kind}))
    payload = {k: v for k, v in data.items() if k != "document_type"}
    payload["source"] = "json"
    try:
        return IntakeResult(invoice=Invoice.model_validate(payload), method="json")
    except ValidationError as exc:
        return IntakeResult(refusal=Refusal(reason="invalid_invoice", values={"fields": _validation_summary(exc)}))


MAX_INVOICE_CHARS = 30_000
"""An invoice's text, ten dense pages; a longer document is refused before it is parsed."""
READ_SECONDS = 30.0
MAX_JSON_CHARS = 1_000_000
"""An invoice as JSON is a few kilobytes; a larger file is refused before it is parsed."""


def from_json_text(raw: str) -> IntakeResult:
    if len(raw) > MAX_JSON_CHARS:
        return IntakeResult(refusal=Refusal(reason="invalid_json", values={
            "detail": f"{len(raw):,} characters; an invoice file holds at most {MAX_JSON_CHARS:,}"}))
    try:
        data = json.loads(raw)
        return from_json_data(data)
    except json.JSONDecodeError as exc:
        return IntakeResult(refusal=Refusal(reason="invalid_json", values={"detail": f"line {exc.lineno}: {exc.msg}"}))
    except RecursionError:
        # Thousands of nested brackets: Python's parser gives up; the same file would fail every time.
        return IntakeResult(refusal=Refusal(reason="invalid_json", values={"detail": "nested too deeply"}))


def _deterministic(text: str, buyer: Buyer, source: InvoiceSource) -> IntakeResult:
    parsed = parse_invoice_text(text, buyer_gstin=buyer.gstin)
    if parsed.missing:
        return IntakeResult(refusal=Refusal(reason="missing_fields", values={"fields": ", ".join(parsed.missing)}))
    try:
        invoice = Invoice.model_validate({**parsed.fields, "source": source,
                                          "replaces": replaced_invoice(text, parsed.fields.get("invoice_number"))})
    except ValidationError as exc:
        return IntakeResult(refusal=Refusal(reason="invalid_invoice", values={"fields": _validation_summary(exc)}))
    return IntakeResult(invoice=invoice, method="deterministic")


async def from_text(text: str, source: InvoiceSource, buyer: Buyer, chat: ChatModel | None) -> IntakeResult:
    """Read an invoice out of text: refuse other documents, then the model (if any, guarded), then rules."""
    if len(text) > MAX_INVOICE_CHARS:
        return IntakeResult(refusal=Refusal(reason="unreadable", values={
            "detail": f"it holds {len(text):,} characters; an invoice holds at most {MAX_INVOICE_CHARS:,}"}))
    # The readers are regular expressions over the whole text: off the event loop, under a time budget.
    kind = await off_loop(document_kind, text, seconds=READ_SECONDS, what="reading the invoice")
    if kind in ("credit_note", "debit_note"):
        note = await off_loop(read_note, text, kind, buyer.gstin, seconds=READ_SECONDS, what="reading the note")
        return IntakeResult(refusal=Refusal(reason="not_invoice", values={"kind": kind}), note=note)
    if kind != "invoice":
        return IntakeResult(refusal=Refusal(reason="not_invoice", values={"kind": kind}))
    if chat is None:
        return await off_loop(_deterministic, text, buyer, source, seconds=READ_SECONDS, what="reading the invoice")
    read = await parse_with_model(chat, text, buyer, source)
    if read.invoice is not None:
        replaces = replaced_invoice(text, read.invoice.invoice_number)  # from the text itself, never the model's
        return IntakeResult(invoice=read.invoice.model_copy(update={"replaces": replaces}), method="llm")
    if read.not_invoice_reason is not None:
        values = {"kind": "model", "detail": read.not_invoice_reason}
        return IntakeResult(refusal=Refusal(reason="not_invoice", values=values))
    fallback = await off_loop(_deterministic, text, buyer, source, seconds=READ_SECONDS, what="reading the invoice")
    return fallback.model_copy(update={"model_note": read.rejected_because})


def looks_like_document(text: str) -> bool:
    """True for pasted text that is a business document (several lines, a document heading), not a chat line."""
    return len([ln for ln in text.splitlines() if ln.strip()]) >= 4 and document_kind(text) != "unknown"


def _is_json(path: Path, mime_type: str | None) -> bool:
    return path.suffix.lower() == ".json" or (mime_type or "").endswith("json")


async def from_file(path: Path, mime_type: str | None, reader: TextReader, buyer: Buyer, chat: ChatModel | None,
                    photo: bool = False) -> IntakeResult:
    """Read an invoice file: JSON directly, a PDF by its text layer, an image by OCR."""
    if _is_json(path, mime_type):
        if path.stat().st_size > MAX_JSON_CHARS * 4:
            return IntakeResult(refusal=Refusal(reason="invalid_json", values={
                "detail": f"{path.stat().st_size:,} bytes; an invoice file holds at most {MAX_JSON_CHARS:,} characters"}))
        try:
            return from_json_text(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            return IntakeResult(refusal=Refusal(reason="invalid_json", values={"detail": "not UTF-8"}))
    passes = await _ocr_passes(path, mime_type, reader, buyer, photo)
    if isinstance(passes, IntakeResult):
        return passes
    read, source = passes
    return await from_text(read.text, source, buyer, chat)


OCR_PASSES: tuple[Preparation, ...] = ("levelled", "levelled_large", "as_is")
"""How a photo or a scanned page is prepared for each reading, in order, until one holds together."""
OCR_SECONDS = 90.0
"""All readings of one photo or scan together; a pass that would start after this is not made."""


async def _ocr_passes(path: Path, mime_type: str | None, reader: TextReader, buyer: Buyer,
                      photo: bool) -> tuple[ReadText, InvoiceSource] | IntakeResult:
    """The text to read the invoice from. A PDF with a text layer or a text file is read once. A photo or a
    scan is read with its page levelled and evenly lit, and read again, prepared otherwise, while the
    invoice read does not hold together (its arithmetic, GSTINs, IFSC: handlers/ap/readcheck.py) and time
    is left; the reading passing most checks is kept (the first of equals). Each reading is parsed by the
    rules to score it; a chat model, if any, reads only the chosen text."""
    started = time.monotonic()
    best: tuple[int, ReadText] | None = None
    for preparation in OCR_PASSES:
        left = OCR_SECONDS - (time.monotonic() - started)
        if left <= 0:
            break
        try:
            read = await reader.aread(path, mime_type, keep_rows=True, preparation=preparation,
                                      seconds=left if best is not None else None)
        except DocumentRejected as exc:
            if best is None:  # the file itself cannot be read: another preparation reads it no better
                return IntakeResult(refusal=Refusal(reason="unreadable", values={"detail": str(exc)}))
            break  # out of time: keep the best reading so far
        if "tesseract" not in read.method:
            return read, "pdf" if read.method == "pdf" else ("photo" if photo else "text")
        kind = await off_loop(document_kind, read.text, seconds=READ_SECONDS, what="reading the invoice")
        if kind not in ("invoice", "unknown") and best is None:
            return read, "photo"  # another document (a credit note, a PO): refused or noted as it is
        parsed = await off_loop(_deterministic, read.text, buyer, "photo", seconds=READ_SECONDS,
                                what="reading the invoice") if kind == "invoice" else None
        invoice = parsed.invoice if parsed is not None else None
        score = reading_score(invoice)
        if best is None or score > best[0]:
            best = (score, read)
        if holds_together(invoice):
            break
    if best is None:
        return IntakeResult(refusal=Refusal(reason="unreadable", values={"detail": "no time was left to read it"}))
    # A scanned PDF is read like a photo (Tesseract), with a photo's misreadings.
    return best[1], "photo"
