"""Reading an unstructured invoice with the chat model, guarded: validated, and checked against the text.

The model only extracts. Its answer has no field that could carry a decision, and anything it adds is
ignored. Identifiers and the total it reports must appear in the document itself; otherwise the answer is
treated as invented and the caller falls back to the deterministic parser.
"""

import logging
import re
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field

from bot.services.llm import ChatModel, ChatUnavailable, StructuringFailed
from bot.services.prompts import render
from handlers.ap.models import Buyer, Invoice
from handlers.ap.money import PAISE, parse_amount

log = logging.getLogger(__name__)

_AMOUNT_IN_TEXT = re.compile(r"\d[\d,]*(?:\.\d{1,2})?")
_MARKERS = re.compile(r"<<<DOCUMENT|DOCUMENT>>>")


class ExtractedInvoice(BaseModel):
    """The model's answer. Extra keys (a "decision", a "status") are ignored: it cannot decide anything."""

    model_config = ConfigDict(extra="ignore")

    is_invoice: bool
    not_invoice_reason: str | None = Field(default=None, max_length=200)
    invoice: Invoice | None = None


class LLMParse(BaseModel):
    invoice: Invoice | None = None
    not_invoice_reason: str | None = None
    rejected_because: str | None = None
    """Set when the model's answer was refused (unavailable, invalid, or not grounded in the text)."""


def _folded(value: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", value.upper())


def _amounts(text: str) -> set[Decimal]:
    found: set[Decimal] = set()
    for token in _AMOUNT_IN_TEXT.findall(text):
        try:
            found.add(parse_amount(token))
        except ValueError:
            continue
    return found


def ungrounded(invoice: Invoice, text: str) -> list[str]:
    """Return the fields whose values do not appear in the document (empty when all are grounded)."""
    folded = _folded(text)
    account = invoice.bank.account_number if invoice.bank else None
    problems = [name for name, value in (
        ("invoice_number", invoice.invoice_number), ("po_number", invoice.po_number),
        ("vendor_gstin", invoice.vendor_gstin), ("bank.account_number", account),
    ) if value and _folded(value) not in folded]
    if invoice.total.quantize(PAISE) not in _amounts(text):
        problems.append("total")
    return problems


def figures_disagree(invoice: Invoice) -> list[str]:
    """The printed figures the model reported that do not add up: lines to the taxable value, and taxable
    value + tax + round-off to the total. The same arithmetic the deterministic reading is held to."""
    problems: list[str] = []
    slack = Decimal("1.00")
    subtotal = invoice.subtotal if invoice.subtotal is not None else invoice.lines_total - invoice.discount
    if abs(invoice.lines_total - invoice.discount - subtotal) > slack:
        problems.append("lines")
    if abs(subtotal + invoice.tax + invoice.round_off - invoice.total) > slack:
        problems.append("total")
    return problems


async def parse_with_model(chat: ChatModel, text: str, buyer: Buyer, source: str) -> LLMParse:
    """Ask the model for the invoice's fields and keep them only if they validate and are grounded."""
    from groq import APIStatusError  # a model is only handed in with a key, so the SDK is there to load

    prompt = render("ap", "parse_invoice", document=_MARKERS.sub("", text), buyer_name=buyer.name,
                    buyer_gstin=buyer.gstin)
    try:
        answer, _ = await chat.structured(prompt, ExtractedInvoice)
    except (ChatUnavailable, StructuringFailed, APIStatusError) as exc:
        log.info("invoice model unavailable or invalid: %s", type(exc).__name__)
        return LLMParse(rejected_because=type(exc).__name__)
    if not answer.is_invoice:
        return LLMParse(not_invoice_reason=(answer.not_invoice_reason or "").strip() or None)
    if answer.invoice is None:
        return LLMParse(rejected_because="no invoice in the answer")
    problems = ungrounded(answer.invoice, text)
    if problems:
        log.warning("invoice model answer not grounded in the document: %s", ", ".join(problems))
        return LLMParse(rejected_because=f"not in the document: {', '.join(problems)}")
    arithmetic = figures_disagree(answer.invoice)
    if arithmetic:
        # A misread figure or a real error in the document: either way the deterministic reading decides,
        # and the match flags the document if its own figures do not agree.
        log.info("invoice model answer does not add up: %s", ", ".join(arithmetic))
        return LLMParse(rejected_because=f"figures do not add up: {', '.join(arithmetic)}")
    return LLMParse(invoice=answer.invoice.model_copy(update={"source": source}))
