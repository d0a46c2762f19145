"""Answers to a clerk's questions in chat, from the ledger (exact), with vendor memory recalled for the story.

Which vendor or invoice a question names is looked up in the vendor master and the ledger; a name that fits
none is said to be unknown (with the nearest names), never matched to a look-alike. Figures (what was paid,
which invoices were held or blocked) come only from the ledger: the imported payment history and the recorded
invoices. Memory adds its sentences under the figures, each citing the invoice or date it is about.
"""

import logging
from datetime import date
from decimal import Decimal

from pydantic import BaseModel
from rapidfuzz import fuzz

from bot.services.i18n import show_date, text
from handlers.ap.ledger import Ledger
from handlers.ap.ledger_store import RecordedAction, owed
from handlers.ap.ledgerview import normalise_number
from handlers.ap.lifecycle import OPEN, RecordedEntry
from handlers.ap.models import PastInvoice, Vendor, normalise_name
from handlers.ap.money import format_inr, suffix
from handlers.ap.questions import Ask, Period
from memory import MemoryClient, MemoryLayerError, RecallRequest, Recalled, tags

log = logging.getLogger(__name__)

_LEGAL = frozenset({"pvt", "private", "ltd", "limited", "co", "company", "llp", "and", "the", "m", "s", "ms"})
_MEMORIES_SHOWN = 3
_MEMORY_CHARS = 220


class VendorFound(BaseModel):
    vendor: Vendor | None = None
    candidates: list[Vendor] = []


def _core(name: str) -> set[str]:
    return {w for w in normalise_name(name).split() if w not in _LEGAL}


def _covers(words: set[str], within: set[str]) -> bool:
    """Every word is one of `within`, spelt the same or nearly (a long word one letter off)."""
    return all(any(w == o or (min(len(w), len(o)) >= 5 and fuzz.ratio(w, o) >= 90) for o in within) for w in words)


def _fold_id(value: str) -> str:
    return value.strip().casefold().replace("/", "-")


def find_vendor(ledger: Ledger, words: list[str]) -> VendorFound:
    """The master vendor a question names by code or by name; a name fits when its words are the vendor's
    (all of them, or the vendor's own name is all inside it). Several fits are candidates, none a guess."""
    ids = {_fold_id(w) for w in words}
    by_id = [v for v in ledger.vendors if _fold_id(v.vendor_id) in ids]
    if by_id:
        return VendorFound(vendor=by_id[0]) if len(by_id) == 1 else VendorFound(candidates=by_id)
    asked = _core(" ".join(words))
    if not asked:
        return VendorFound()
    fits = [v for v in ledger.vendors if any(_covers(asked, _core(n)) or _covers(_core(n), asked) for n in v.names())
            and any(_core(n) for n in v.names())]
    whole = [v for v in fits if any(_core(n) and _covers(_core(n), asked) for n in v.names())]
    chosen = whole if len(whole) == 1 else fits
    if len(chosen) == 1:
        return VendorFound(vendor=chosen[0])
    return VendorFound(candidates=chosen)


def find_invoices(ledger: Ledger, records: list[RecordedEntry], ask: Ask) -> tuple[list[RecordedEntry],
                                                                                  list[PastInvoice]]:
    """The recorded invoices (and imported payment-history invoices) a typed number names: the number in full,
    or its last parts ("8540", "118-R", "26-27/0042"), folded; narrowed to the vendor when one is named."""
    key = normalise_number(ask.number or "")
    vendor = find_vendor(ledger, ask.vendor_words).vendor if ask.vendor_words else None
    wanted = {vendor.vendor_id} if vendor else None

    def fits(number_key: str, vendor_id: str) -> bool:
        if wanted is not None and vendor_id not in wanted:
            return False
        return number_key == key or (any(ch.isdigit() for ch in key) and number_key.endswith(f"-{key}"))

    found = [r for r in records if fits(r.entry.number_key, r.entry.vendor_id)]
    exact = [r for r in found if r.entry.number_key == key]
    recorded = exact or found
    recorded_keys = {(r.entry.vendor_id, r.entry.number_key) for r in recorded}
    history = [p for p in ledger.data.invoices if fits(normalise_number(p.invoice_number), p.vendor_id)
               and (p.vendor_id, normalise_number(p.invoice_number)) not in recorded_keys]
    return recorded, history


def vendor_name(ledger: Ledger, vendor_id: str) -> str:
    found = ledger.vendor(vendor_id)
    return found.name if found else vendor_id


def notes_line(lang: str, total: Decimal, notes: list[RecordedAction]) -> list[str]:
    """The credit and debit notes recorded against an invoice and what is owed on it after them."""
    if not notes:
        return []
    return [text(lang, "ap.ask_state_notes", notes="; ".join(a.reason or a.action for a in notes),
                 owed=format_inr(owed(total, notes)))]


def state_answer(lang: str, ledger: Ledger, record: RecordedEntry, notes: list[RecordedAction] | None = None) -> str:
    """One recorded invoice's state as the ledger has it: by whom, when, why, what the agent decided, and the
    credit or debit notes against it with what is owed after them."""
    entry = record.entry
    flags = record.memo.flags if record.memo else []
    lines = [text(lang, "ap.ask_state", number=entry.invoice_number, vendor=vendor_name(ledger, entry.vendor_id),
                  total=format_inr(entry.total), date=show_date(lang, entry.invoice_date),
                  state=text(lang, f"ap.state_{record.state}"), by=record.state_by,
                  on=show_date(lang, record.state_at.date()), status=text(lang, f"ap.status_{record.agent_status}"),
                  flags=", ".join(flags) or "-")]
    if record.state_reason:
        lines.append(text(lang, "ap.ask_state_reason", reason=record.state_reason))
    lines += _approvers(lang, record)
    if entry.paid_on:
        lines.append(text(lang, "ap.ask_state_paid", on=show_date(lang, entry.paid_on),
                          account=entry.paid_to_account or "-"))
    lines += notes_line(lang, entry.total, notes or [])
    return " ".join(lines)


def _approvers(lang: str, record: RecordedEntry) -> list[str]:
    """Who approved over a bank-account block: both people and the account they approved, or the maker still
    waiting for a second person (only while the invoice is open; a paid one waits for no one)."""
    if record.maker_by is None:
        return []
    values = {"maker": record.maker_by, "reason": record.maker_reason or "-"}
    if record.checker_by is not None:
        return [text(lang, "ap.ask_state_two", by=record.checker_by, account=record.confirmed_account or "-",
                     **values)]
    if record.state == "approved":  # approved before the checker was kept on the entry
        return [text(lang, "ap.ask_state_second", by=record.state_by, **values)]
    if record.state in OPEN:
        return [text(lang, "ap.ask_state_waiting", by=record.state_by, **values)]
    return []


def history_answer(lang: str, ledger: Ledger, past: PastInvoice) -> str:
    values = {"number": past.invoice_number, "vendor": vendor_name(ledger, past.vendor_id),
              "total": format_inr(past.total), "date": show_date(lang, past.invoice_date)}
    if past.outcome == "paid" and past.paid_on:
        return text(lang, "ap.ask_history_paid", on=show_date(lang, past.paid_on),
                    suffix=suffix(past.paid_to_account or ""), **values)
    note = past.exception.note if past.exception else "-"
    return text(lang, "ap.ask_history_rejected", note=note, **values)


class Payment(BaseModel):
    number: str
    invoice_date: date
    total: str
    paid_on: date
    account: str
    recorded: bool


def payments(ledger: Ledger, records: list[RecordedEntry], vendor_id: str) -> list[Payment]:
    """Every payment to the vendor the ledger knows: the imported history and the invoices marked paid here."""
    found = {normalise_number(r.entry.invoice_number): Payment(
        number=r.entry.invoice_number, invoice_date=r.entry.invoice_date, total=f"{r.entry.total:f}",
        paid_on=r.entry.paid_on, account=r.entry.paid_to_account or "", recorded=True)
        for r in records if r.entry.vendor_id == vendor_id and r.state == "paid" and r.entry.paid_on}
    for past in ledger.past_invoices(vendor_id):
        key = normalise_number(past.invoice_number)
        if past.outcome == "paid" and past.paid_on and key not in found:
            found[key] = Payment(number=past.invoice_number, invoice_date=past.invoice_date,
                                 total=f"{past.total:f}", paid_on=past.paid_on,
                                 account=past.paid_to_account or "", recorded=False)
    return sorted(found.values(), key=lambda p: (p.paid_on, p.number))


def period_words(lang: str, period: Period) -> str:
    if period.start is None or period.end is None:
        return text(lang, "ap.period_all")
    return text(lang, "ap.period_named", label=period.label, start=show_date(lang, period.start),
                end=show_date(lang, period.end))


def _name(vendor: Vendor) -> dict[str, str]:
    return {"vendor": vendor.name, "id": vendor.written_id}


def paid_answer(lang: str, ledger: Ledger, records: list[RecordedEntry], vendor: Vendor, period: Period) -> str:
    """What we paid the vendor in the period, each payment named, summed exactly from the ledger."""
    every = payments(ledger, records, vendor.vendor_id)
    when = period_words(lang, period)
    if not every:
        return text(lang, "ap.ask_never_paid", **_name(vendor))
    inside = [p for p in every if period.start is None or period.holds(p.paid_on)]
    if not inside:
        last = every[-1]
        return text(lang, "ap.ask_paid_none", period=when, number=last.number,
                    total=format_inr(Decimal(last.total)), on=show_date(lang, last.paid_on), **_name(vendor))
    total = sum((Decimal(p.total) for p in inside), Decimal("0"))
    lines = [text(lang, "ap.ask_paid", period=when, amount=format_inr(total), count=len(inside), **_name(vendor))]
    lines += [text(lang, "ap.ask_paid_line", number=p.number, total=format_inr(Decimal(p.total)),
                   on=show_date(lang, p.paid_on), suffix=suffix(p.account),
                   source=text(lang, "ap.source_recorded" if p.recorded else "ap.source_imported"))
              for p in inside]
    return "\n".join(lines)


def problems_answer(lang: str, ledger: Ledger, records: list[RecordedEntry], vendor: Vendor,
                    notes: list[RecordedAction] | None = None) -> str:
    """The vendor's invoices that were blocked, held, sent to review, rejected or overridden (from the ledger),
    the exceptions in its payment history, and its bank changes; or that there are none."""
    every = payments(ledger, records, vendor.vendor_id)
    summary = (text(lang, "ap.ask_paid_summary", count=len(every), on=show_date(lang, every[-1].paid_on))
               if every else text(lang, "ap.ask_paid_summary_none"))
    troubled = [r for r in records if r.entry.vendor_id == vendor.vendor_id
                and (r.agent_status != "APPROVE" or r.state in ("held", "review", "rejected"))]
    exceptions = [p for p in ledger.past_invoices(vendor.vendor_id) if p.exception is not None]
    changes = ledger.history(vendor.vendor_id).bank_changes if every else 0
    notes = [a for a in notes or [] if a.vendor_id == vendor.vendor_id and a.action in ("credit_note", "debit_note")]
    if not troubled and not exceptions and not changes and not notes:
        return text(lang, "ap.ask_no_problems", summary=summary, **_name(vendor))
    lines = [text(lang, "ap.ask_problems", summary=summary, **_name(vendor))]
    for r in troubled:
        flags = ", ".join(r.memo.flags) if r.memo and r.memo.flags else "-"
        why = text(lang, "ap.ask_state_reason", reason=r.state_reason) if r.state_reason else ""
        lines.append(text(lang, "ap.ask_problem_line", number=r.entry.invoice_number,
                          total=format_inr(r.entry.total), state=text(lang, f"ap.state_{r.state}"), by=r.state_by,
                          status=text(lang, f"ap.status_{r.agent_status}"), flags=flags, why=why).rstrip())
    for p in exceptions:
        assert p.exception is not None
        lines.append(text(lang, "ap.ask_problem_history", number=p.invoice_number, total=format_inr(p.total),
                          mismatch=p.exception.mismatch, item=p.exception.item, note=p.exception.note,
                          on=show_date(lang, p.exception.resolved_on)))
    if changes:
        lines.append(text(lang, "ap.ask_bank_changes", count=changes))
    for note in notes:
        lines.append(text(lang, "ap.ask_problem_note", number=note.invoice_number, note=note.reason or note.action))
    return "\n".join(lines)


def unknown_vendor(lang: str, ledger: Ledger, ask: Ask, found: VendorFound) -> str:
    if not ask.vendor_words:
        return text(lang, "ap.ask_which_vendor_none")
    if found.candidates:
        names = ", ".join(f"{v.name} ({v.written_id})" for v in found.candidates)
        return text(lang, "ap.ask_which_vendor", asked=ask.vendor_text, candidates=names)
    nearest = ledger.nearest_vendors(ask.vendor_text)
    near = ", ".join(f"{v.name} ({v.written_id})" for v in nearest) or "-"
    return text(lang, "ap.ask_unknown_vendor", asked=ask.vendor_text, nearest=near)


async def recalled(memory: MemoryClient, bank_id: str, vendor: Vendor, question: str) -> list[Recalled] | None:
    """Memories about this vendor only (its tag, checked again here), for the story; None when memory is down."""
    request = RecallRequest(query=f"{vendor.name}: {question}", tags=[tags.vendor(vendor.vendor_id)],
                            tags_match="all_strict")
    try:
        found = await memory.recall(bank_id, request)
    except MemoryLayerError as exc:
        log.warning("vendor recall for a question failed: %s", type(exc).__name__)
        return None
    return [m for m in found if m.has_tag(tags.vendor(vendor.vendor_id))][:_MEMORIES_SHOWN]


def memory_lines(lang: str, found: list[Recalled] | None) -> list[str]:
    """Recalled sentences under the ledger's figures, each citing what it is about."""
    if found is None:
        return [text(lang, "ap.ask_memory_down")]
    if not found:
        return []
    lines = [text(lang, "ap.ask_memory_header")]
    for m in found:
        shown = m.text if len(m.text) <= _MEMORY_CHARS else m.text[:_MEMORY_CHARS].rstrip() + "…"
        cite = [m.metadata.get("invoice_number") or m.metadata.get("kind", "").replace("_", " ")]
        if m.event_date:
            cite.append(show_date(lang, m.event_date))
        lines.append(f"– {shown} [{', '.join(c for c in cite if c)}]")
    return lines
