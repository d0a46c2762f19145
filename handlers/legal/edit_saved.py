"""Opening any saved entry for correction from chat, however it was saved: `/edit CASE DATE` (an entry filed by
`smriti legal ingest` has no card of its own to press Edit on), and an Edit button on "this page was sent
before". The card opened is the one a chat-saved entry's Edit opens: its Save replaces the entry and its memory
under the same document id, re-dated when the date changes, and is audited."""

from datetime import date
from typing import Any

from bot.core.cards import CardSpec, open_card
from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from bot.services.i18n import show_date
from handlers.legal.corrections import edit_payload
from handlers.legal.dates import find_dates
from handlers.legal.entries import EntryStore
from handlers.legal.examples import example_case
from handlers.legal.models import HearingRecord
from handlers.legal.register import CaseRegister, number_spans
from memory.asof import IST

EDIT_PREFIX = "legal:edit:"
_CALLBACK_BYTES = 64
"""Telegram's bound on a button's data: an entry whose id would not fit gets no button (/edit still works)."""
_KIND_ORDER = {"hearing": 0, "listing": 1, "step": 2, "document": 3, "chat_memory": 4}


def edit_button(turn: Turn, document_id: str) -> list[list[Button]]:
    data = f"{EDIT_PREFIX}{document_id}"
    if len(data.encode("utf-8")) > _CALLBACK_BYTES:
        return []
    return [[Button(label=turn.t("core.button_edit"), data=data)]]


def open_edit(turn: Turn, spec: CardSpec, record: HearingRecord) -> Reply:
    """A card on the saved record as it is now; Save replaces it (one entry, one memory)."""
    saved: dict[str, Any] = {"tenant": turn.user.tenant, "lang": turn.lang, "upload": {
        "upload_id": record.upload_id or "edited", "source_file": record.source_file or "-",
        "uploaded_at": (record.uploaded_at or turn.incoming.received_at).isoformat(),
        "author": record.author or turn.user.name, "author_id": record.author_id or turn.user.user_id}}
    return open_card(turn, spec, edit_payload(record, saved), intro=turn.t("legal.edit_saved_intro"))


def _named_day(args: str, today: date) -> date | None:
    found = [d for d in find_dates(args, number_spans(args), today=today) if d.month is not None]
    return found[-1].on(today, nearest=True) if found else None


def edit_command(turn: Turn, spec: CardSpec, entries: EntryStore, register: CaseRegister, args: str) -> Reply:
    """`/edit CASE DATE`: the saved entry of that case on that date, opened for correction."""
    if not args.strip():
        return Reply(text=turn.t("legal.edit_usage", case=example_case(turn.lang, register)))
    mention = register.first(args)
    if mention is None:
        return Reply(text=turn.t("legal.edit_no_case", name=args.strip()))
    case = register.get(mention.case_id)
    label = case.label if case else mention.case_id
    records = entries.of_case(turn.user.tenant, mention.case_id)
    day = _named_day(args[:mention.start] + " " + args[mention.end:], turn.incoming.received_at.astimezone(IST).date())
    on_day = sorted((r for r in records if r.hearing_date == day), key=lambda r: _KIND_ORDER.get(r.kind, 9))
    if on_day:
        return open_edit(turn, spec, on_day[0])
    recent = sorted({r.hearing_date for r in records}, reverse=True)[:6]
    return Reply(text=turn.t("legal.edit_which_date", case=label,
                             dates=", ".join(show_date(turn.lang, d) for d in recent) or "-"))


def edit_callback(turn: Turn, spec: CardSpec, entries: EntryStore, data: str) -> Reply:
    record = entries.get(turn.user.tenant, data[len(EDIT_PREFIX):])
    if record is None:
        return Reply(text=turn.t("legal.entry_gone"))
    return open_edit(turn, spec, record)
