"""One memory per invoice, written from its ledger entry and replaced whenever the entry changes state.

The save path (a recorded decision, a clerk's move, a payment) and `APPack.memory_records` both build the item
here, so what memory says about an invoice is what the ledger says now: its state, who put it there, when and
why. A preview writes none. Memory is written in English whatever language the clerk reads.
"""

import logging
from datetime import date

from pydantic import BaseModel

from bot.core.pack import Services
from bot.services.i18n import show_date
from handlers.ap import facts
from handlers.ap.audit import Action
from handlers.ap.ledgerview import normalise_number
from handlers.ap.lifecycle import OPEN, RecordedEntry, overrides
from handlers.ap.money import format_inr, suffix
from memory import MemoryItem, MemoryLayerError, ids, tags
from memory.tags import TagPrefix

log = logging.getLogger(__name__)

_ACTION_OF_STATE = {"approved": "approve", "held": "hold", "review": "review", "rejected": "reject"}


def _day(record: RecordedEntry) -> date:
    return record.state_at.date()


def state_sentence(record: RecordedEntry) -> str:
    """The invoice's state in words: what the ledger says now, by whom, when and why."""
    state, by, on = record.state, record.state_by, show_date("en", _day(record))
    reason = f' Reason given: "{record.state_reason}".' if record.state_reason else ""
    if state == "paid":
        entry = record.entry
        paid_on = show_date("en", entry.paid_on) if entry.paid_on else on
        two = record.two_person_account
        whose = (f"approved over the bank-account block by {record.maker_by} and {record.checker_by}"
                 if two and two == entry.paid_to_account else "the account on file")
        return (f"PAID on {paid_on} to the account ending {suffix(entry.paid_to_account or '')} ({whose}), "
                f"marked by {by}.{_maker_sentence(record)}")
    if state == "superseded":
        return f"SUPERSEDED on {on} by {by}: {record.state_reason or 'replaced by a later invoice'}."
    if state == "decided":
        return (f"DECIDED by the agent ({record.agent_status}), recorded by {by} on {on}; no clerk action yet."
                f"{_maker_sentence(record)}")
    verb = {"held": "ON HOLD: put on hold", "review": "SENT TO REVIEW", "approved": "APPROVED",
            "rejected": "REJECTED"}[state]
    action = _ACTION_OF_STATE[state]
    over = f", overriding the agent's {record.agent_status}" if overrides(record.agent_status, action) else ""  # type: ignore[arg-type]
    return f"{verb} by {by} on {on}{over}.{reason}{_maker_sentence(record)}"


def _maker_sentence(record: RecordedEntry) -> str:
    """Who asked to approve over a bank block: as the first of two people, or still waiting for the second."""
    if record.maker_by is None:
        return ""
    asked = f' {record.maker_by} asked to approve it over the bank-account block ("{record.maker_reason or "-"}")'
    if record.checker_by is not None:
        return f"{asked}; {record.checker_by} approved it as the second person."
    if record.state == "approved":
        return f"{asked}; {record.state_by} approved it as the second person."
    if record.state in OPEN:
        return f"{asked}; it waits for a second person to approve."
    return ""


def _overridden(record: RecordedEntry) -> str | None:
    """The clerk action behind the state when it overrode the agent (it is then a resolution to learn from)."""
    action = record.clerk_action
    if action in ("approve", "hold", "review", "reject", "release") and overrides(record.agent_status, action):  # type: ignore[arg-type]
        return action
    return None


def invoice_memory(record: RecordedEntry) -> MemoryItem:
    """The one memory of an invoice, from its ledger entry: its current state first, then what was decided."""
    entry, memo = record.entry, record.memo
    vendor_name = memo.vendor_name if memo else entry.vendor_id
    decided = ""
    if memo is not None:
        flags = f" (flags: {', '.join(memo.flags)})" if memo.flags else ""
        evidence = f" Evidence: {' '.join(memo.evidence)}" if memo.evidence else ""
        decided = (f" The agent decided {record.agent_status} at {round(memo.confidence * 100)}% confidence{flags}."
                   f"{evidence}")
    content = (f"Invoice {entry.invoice_number} from {vendor_name} dated {show_date('en', entry.invoice_date)} for "
               f"{format_inr(entry.total)} is {state_sentence(record)}{decided}")
    action = _overridden(record)
    kind = "clerk_resolution" if action else "agent_decision"
    mismatch = dict(memo.mismatch) if memo else {}
    metadata = {
        facts.KIND: kind, facts.VENDOR_ID: entry.vendor_id, facts.INVOICE_NUMBER: entry.invoice_number,
        facts.STATE: record.state, facts.STATUS: record.agent_status, facts.AGENT_STATUS: record.agent_status,
        facts.TOTAL: str(entry.total), facts.STATE_BY: record.state_by,
        **({facts.CONFIDENCE: f"{memo.confidence:.2f}", facts.FLAGS: ",".join(memo.flags)} if memo else {}),
        **mismatch,
    }
    if action:
        code = "approved_as_invoiced" if action == "approve" and mismatch else f"clerk_{action}"
        metadata.update({facts.CLERK_ACTION: action, facts.RESOLUTION_CODE: code})
    if record.state_reason:
        metadata["reason"] = record.state_reason[:200]
    if record.maker_by:
        metadata.update({facts.MAKER_BY: record.maker_by, facts.MAKER_REASON: (record.maker_reason or "")[:200]})
    if record.checker_by:
        metadata[facts.CHECKER_BY] = record.checker_by
    if entry.paid_to_account:
        metadata[facts.ACCOUNT_SUFFIX] = suffix(entry.paid_to_account)
    return MemoryItem(
        content=content, event_time=record.state_at, context=f"accounts payable: invoice {record.state}",
        document_id=document_id(entry.vendor_id, entry.number_key),
        tags=[tags.vendor(entry.vendor_id), tags.record_type(kind.replace("_", "-")),
              tags.tag(TagPrefix.INVOICE, entry.invoice_number)],
        metadata=metadata,
    )


def document_id(vendor_id: str, number: str) -> str:
    """The one document of an invoice: by vendor and its number folded, so a number printed another way (or a
    corrected invoice under it) replaces the same document."""
    return ids.ap_decision(vendor_id, normalise_number(number))


class RetainResult(BaseModel):
    retained: bool = False
    queued: bool = False
    document_id: str | None = None
    step: Action = "RETAIN_NOT_NEEDED"


async def retain_record(services: Services, bank_id: str, record: RecordedEntry) -> RetainResult:
    """Write (or replace) the invoice's memory from its ledger entry; queued while memory is down."""
    item = invoice_memory(record)
    try:
        outcome = await services.outbox.retain_or_queue(services.memory, bank_id, [item])
    except MemoryLayerError as exc:
        log.warning("memory refused the invoice memory of %s: %s", record.entry.vendor_id, type(exc).__name__)
        return RetainResult(document_id=item.document_id, step="AGENT_MEMORY_REJECTED")
    if not outcome.fully_stored:
        return RetainResult(queued=True, document_id=item.document_id, step="AGENT_MEMORY_QUEUED")
    return RetainResult(retained=True, document_id=item.document_id, step="AGENT_MEMORY_RETAINED")
