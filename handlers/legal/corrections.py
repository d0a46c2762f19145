"""Corrections of a saved entry: Edit opens a card on the saved record (its Save replaces the record and its
memory under the same document id, re-dated when the date changes); Delete, once confirmed, removes the memory
and marks the record deleted. Both are audited with who and when (handlers/legal/entries.py)."""

import secrets
from typing import Any, get_args

from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from bot.services.i18n import show_date
from handlers.legal.casebook import CaseBook
from handlers.legal.models import DateSource, HearingRecord, ProposedEntry, Upload, UploadKind
from memory import MemoryUnavailable

DELETE_PREFIX = "legal:del:"
KEEP_PREFIX = "legal:keep:"
EDIT_OF = "edit_of"
"""On a card editing a saved entry: the entry's document id, kept for its whole life."""
DOCUMENT_ID = "document_id"
"""Set on Save: the document id the entry was saved under."""
ORIGIN = "origin"
"""On a card of an upload: the document id its entry has for life, from what the page said (its upload, case
and date as read), so the same page sent again is known as the same entry however a person corrected it."""


def edit_payload(record: HearingRecord, saved: dict[str, Any]) -> dict[str, Any]:
    """A card payload holding the saved record as it is now, to edit and save again under its document id."""
    upload = Upload(upload_id=record.upload_id or "edited", source_file=record.source_file, author=record.author,
                    author_id=record.author_id or record.author,
                    uploaded_at=record.uploaded_at or Upload.model_validate(saved["upload"]).uploaded_at)
    source = record.date_source if record.date_source in get_args(DateSource) else "edited"
    kind = record.upload_kind if record.upload_kind in get_args(UploadKind) else "note"
    entry = ProposedEntry(case_id=record.case_id, kind=record.kind if record.kind != "chat_memory" else "hearing",
                          hearing_date=record.hearing_date, date_source=source, next_date=record.next_date,
                          due_date=record.due_date,
                          text=record.text or record.summary or "-", confidence=record.confidence, upload_kind=kind)
    return {"upload": upload.model_dump(mode="json"), "entry": entry.model_dump(mode="json"),
            "tenant": saved["tenant"], "batch": secrets.token_hex(4), "lang": saved.get("lang", "en"),
            "new_case": None, EDIT_OF: record.document_id}


def delete_prompt(turn: Turn, card_id: str, record: HearingRecord, case: str) -> Reply:
    return Reply(text=turn.t("legal.delete_confirm", case=case, date=show_date(turn.lang, record.hearing_date),
                             text=record.summary[:120]),
                 buttons=[[Button(label=turn.t("legal.button_delete_confirm"), data=f"{DELETE_PREFIX}{card_id}"),
                           Button(label=turn.t("legal.button_keep"), data=f"{KEEP_PREFIX}{card_id}")]])


async def delete_saved(turn: Turn, card_id: str) -> Reply:
    """Delete the entry a saved card holds (the person who saved it, or anyone of the tenant who confirms)."""
    card = turn.services.state.card(card_id)
    if card is None or card.status != "saved" or not card.payload.get(DOCUMENT_ID):
        return Reply(text=turn.t("core.card_gone"))
    if card.user_id != turn.user.user_id:
        return Reply(text=turn.t("core.card_not_yours"))
    book = CaseBook(turn.services, card.payload["tenant"])
    try:
        gone = await book.delete(card.payload[DOCUMENT_ID], turn.user.user_id)
    except MemoryUnavailable:
        return Reply(text=turn.t("legal.delete_unreachable"))
    if gone is None:
        return Reply(text=turn.t("legal.entry_gone"))
    return Reply(text=turn.t("legal.deleted", date=show_date(turn.lang, gone.hearing_date), file=gone.source_file))
