"""The hearing card: each entry found in an upload is shown, edited and saved (or discarded) on its own.

A card whose date was guessed (from the file name or the upload time) cannot be saved until a person sets
the hearing date; an entry without a case cannot be saved until one is chosen. "Save all" saves every
other card of the same upload through the ordinary card Save, so a double tap still stores each once.
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bot.services.i18n import show_date, text
from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from bot.core.cards import CALLBACK_PREFIX, CardSpec, on_callback, open_card
from bot.store.state import Card
from handlers.legal.after import shifts
from handlers.legal.corrections import DOCUMENT_ID, EDIT_OF, ORIGIN, delete_prompt, edit_payload
from handlers.legal.dates import find_dates, parse_day
from handlers.legal.hearing import uploaded_day
from handlers.legal.kinds import due_date
from handlers.legal.entries import EntryStore
from handlers.legal.models import CaseRecord, HearingRecord, ProposedEntry, Upload
from handlers.legal.newcase import NewCase, case_record, parse_case
from handlers.legal.records import entry_record, memory_item
from handlers.legal.register import CaseRegister, number_spans
from memory import MemoryItem
from memory.asof import IST

KIND = "hearing"
SAVE_ALL_PREFIX = "legal:all:"
_FIELDS = ["case", "hearing_date", "next_date", "text", "kind"]
_CASE_WORDS = 10  # "Mohd. Azeemuddin v. Syed Khaja Pasha & 2 others" is nine
_DATE_WORDS = 6  # "next Monday", "after four weeks from today"
_KIND_WORDS = 4
_KIND_WORDS = {"hearing": "hearing", "listing": "listing", "cause list": "listing", "listed": "listing",
               "step": "step", "filing": "step", "deadline": "step", "document": "document", "deed": "document",
               "receipt": "document", "vakalat": "document", "విచారణ": "hearing", "పత్రం": "document"}
_NONE_WORDS = {"none", "-", "no", "nil", "లేదు"}


NEW_CASE = "new_case"
NEAR = "near_case"
"""The registered case a proposed new number is one keystroke from: "did you mean" is asked before Save."""


def card_payload(upload: Upload, entry: ProposedEntry, tenant: str, batch: str, lang: str,
                 new_case: NewCase | None = None, near: CaseRecord | None = None) -> dict[str, Any]:
    return {"upload": upload.model_dump(mode="json"), "entry": entry.model_dump(mode="json"), "tenant": tenant,
            "batch": batch, "lang": lang, NEW_CASE: new_case.model_dump() if new_case else None,
            NEAR: near.case_id if near else None}


def asks_did_you_mean(payload: dict[str, Any]) -> bool:
    """A new case number one keystroke from a registered one, not yet answered: Save waits for the person."""
    return bool(payload.get(NEAR)) and new_case_of(payload) is not None


def settle_did_you_mean(payload: dict[str, Any], meant: bool) -> dict[str, Any]:
    """File under the registered case the number was near (meant), or keep the new case as typed."""
    if not meant:
        return {**payload, NEAR: None}
    entry = entry_of(payload).model_copy(update={"case_id": payload[NEAR]})
    return {**payload, NEAR: None, NEW_CASE: None, "entry": entry.model_dump(mode="json")}


def entry_of(payload: dict[str, Any]) -> ProposedEntry:
    return ProposedEntry.model_validate(payload["entry"])


def new_case_of(payload: dict[str, Any]) -> NewCase | None:
    found = payload.get(NEW_CASE)
    return NewCase.model_validate(found) if found else None


def new_case_line(lang: str, new: NewCase) -> str:
    return text(lang, "legal.card_new_case", number=new.number, title=new.shown_title,
                court=new.court or "-")


def _listed_on(entry: ProposedEntry, value: str, upload: Upload, lang: str, settled: dict[str, Any]) -> ProposedEntry:
    """A cause list's day set by a person: read as a list's printed day is (on or after its upload less a
    week); the list is dated by that day unless a person dated the list otherwise."""
    uploaded = uploaded_day(upload)
    try:
        day = parse_day(value, uploaded - timedelta(days=7), after=True, today=uploaded)
    except ValueError as exc:
        raise ValueError(text(lang, "legal.edit_bad_date")) from exc
    by_its_day = entry.date_source != "edited" or entry.hearing_date == entry.next_date
    return entry.model_copy(update={"next_date": day, "hearing_date": day if by_its_day else entry.hearing_date,
                                    "date_source": "edited", **settled})


def _due_on(entry: ProposedEntry, value: str, lang: str, settled: dict[str, Any]) -> ProposedEntry:
    """A step's due day set by a person (the card's date field after its own date): on or after the step."""
    if value.strip().lower() in _NONE_WORDS:
        return entry.model_copy(update={"due_date": None, **settled})
    try:
        day = parse_day(value, entry.hearing_date, after=True)
    except ValueError as exc:
        raise ValueError(text(lang, "legal.edit_bad_date")) from exc
    return entry.model_copy(update={"due_date": day, **settled})


def edit_field(entry: ProposedEntry, field: str, value: str, upload: Upload, lang: str = "en") -> ProposedEntry:
    """The entry with one field (hearing_date, next_date, kind, text) set as a person typed it; ValueError with a
    message in the person's language when the value does not fit. The case is the caller's: it needs a register."""
    if field == "hearing_date":
        try:
            day = parse_day(value, upload.uploaded_at.date())
        except ValueError as exc:
            raise ValueError(text(lang, "legal.edit_bad_date")) from exc
        # A next date the page wrote as a span from the hearing ("call after four weeks") moves with it.
        moved = [moved for span in shifts(entry.text)
                 if entry.next_date is not None and span.shift.from_day(entry.hearing_date) == entry.next_date
                 and (moved := span.shift.from_day(day)) is not None]
        # A step's due date read from its text ("objections within 2 weeks") counts from the corrected day; one a
        # person set stays.
        due = entry.due_date
        if entry.kind == "step" and due is not None and due == due_date(entry.text, entry.hearing_date):
            due = due_date(entry.text, day)
        # A person set the date: it is no longer a guess.
        return entry.model_copy(update={"hearing_date": day, "date_source": "edited", "doubt": None,
                                        "confidence": max(entry.confidence, 0.9), "due_date": due,
                                        "next_date": moved[0] if moved else entry.next_date})
    if field == "next_date":
        # A person set the next date: it is no longer in doubt.
        settled = {"doubt": None, "confidence": max(entry.confidence, 0.85) if entry.doubt else entry.confidence}
        if entry.kind == "step":
            return _due_on(entry, value, lang, settled)
        if value.strip().lower() in _NONE_WORDS:
            return entry.model_copy(update={"next_date": None, **settled})
        if entry.kind == "listing":
            return _listed_on(entry, value, upload, lang, settled)
        try:
            # "next Monday", "tomorrow" count from when the page was written; "9/12" falls after the hearing.
            day = parse_day(value, entry.hearing_date, after=True, today=uploaded_day(upload))
            if day <= entry.hearing_date:
                raise ValueError("a next date comes after the hearing")
        except ValueError as exc:
            raise ValueError(text(lang, "legal.edit_bad_date")) from exc
        return entry.model_copy(update={"next_date": day, **settled})
    if field == "kind":
        kind = _KIND_WORDS.get(value.strip().lower())
        if kind is None:
            raise ValueError(text(lang, "legal.edit_bad_kind"))
        # Only hearings and listings carry a next date; only a step a due date.
        nxt = entry.next_date if kind in ("hearing", "listing") else None
        due = (entry.due_date or due_date(entry.text, entry.hearing_date)) if kind == "step" else None
        return entry.model_copy(update={"kind": kind, "next_date": nxt, "doubt": None, "due_date": due})
    if field == "text":
        if not value.strip():
            raise ValueError(text(lang, "legal.edit_empty"))
        return entry.model_copy(update={"text": value.strip()})
    raise ValueError(text(lang, "legal.edit_bad_field"))


class HearingCard(CardSpec):
    kind = KIND

    def __init__(self, register_for: Callable[[str], CaseRegister],
                 add_case: Callable[[str, CaseRecord], None] | None = None, entries: EntryStore | None = None) -> None:
        self.register_for = register_for
        self.add_case = add_case
        """Writes a confirmed new case into a tenant's register."""
        self.entries = entries
        """The tenant's confirmed entries: Save writes the record, then its memory."""

    def record(self, payload: dict[str, Any]) -> tuple[HearingRecord, CaseRecord]:
        """The record a Save writes, and its case: the one source of both the database row and the memory."""
        entry = entry_of(payload)
        case = self.register_for(payload["tenant"]).get(entry.case_id or "")
        if case is None:
            raise ValueError("a hearing card without a case cannot be saved")
        upload = Upload.model_validate(payload["upload"])
        return entry_record(entry, case.case_id, upload, payload.get(EDIT_OF) or payload.get(ORIGIN)), case

    def fields(self, payload: dict[str, Any]) -> list[str]:
        return list(_FIELDS)

    def field_label(self, lang: str, field: str) -> str:
        return text(lang, f"legal.field_{field}")

    def render(self, lang: str, payload: dict[str, Any]) -> str:
        entry = entry_of(payload)
        upload = Upload.model_validate(payload["upload"])
        case = self.register_for(payload["tenant"]).get(entry.case_id or "")
        new = new_case_of(payload) if case is None else None
        named = case.label if case else new.shown_title if new else text(lang, "legal.card_no_case_name")
        key = "legal.card" if entry.kind in ("hearing", "document") else f"legal.card_{entry.kind}"
        lines = [text(lang, key, case=named,
                      date=show_date(lang, entry.hearing_date),
                      source=text(lang, f"legal.date_source_{entry.date_source}"),
                      next=show_date(lang, entry.next_date) if entry.next_date else "-",
                      due=show_date(lang, entry.due_date) if entry.due_date else "-", text=entry.text, file=upload.source_file, confidence=f"{entry.confidence:.2f}")]
        if entry.kind == "document":
            lines.append(text(lang, "legal.card_document"))
        if entry.unlisted:
            lines.append(text(lang, "legal.card_unlisted"))
        if payload.get(EDIT_OF):
            lines.append(text(lang, "legal.card_editing"))
        if entry.guessed:
            lines.append(text(lang, "legal.card_guessed"))
        if entry.doubt is not None:
            lines.append(text(lang, "legal.card_doubt_next"))
        if entry.implausible(upload.uploaded_at.astimezone(IST).date()):
            lines.append(text(lang, "legal.card_implausible"))
        if new is not None:
            lines.append(new_case_line(lang, new))
            near = self.register_for(payload["tenant"]).get(payload.get(NEAR) or "")
            if near is not None:
                lines.append(text(lang, "legal.card_did_you_mean", typed=new.number, number=", ".join(near.numbers),
                                  case=near.label))
        elif case is None:
            lines.append(text(lang, "legal.card_no_case"))
        return "\n".join(lines)

    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        entry = entry_of(payload)
        lang = payload.get("lang", "en")
        upload = Upload.model_validate(payload["upload"])
        if field == "case":
            register = self.register_for(payload["tenant"])
            mention = register.get(value.strip().lower()) or register.first(value)
            if mention is None:
                proposed = parse_case(value)
                if proposed is None:
                    raise ValueError(text(lang, "legal.edit_bad_case"))
                # A case number the register does not know: proposed as a new case, added on Save; one a keystroke
                # from a registered number is asked about first, unless the person sends it again.
                again = (new_case_of(payload) or proposed).number == proposed.number and new_case_of(payload)
                near = None if again else register.near_number(proposed.number)
                return {**payload, NEW_CASE: proposed.model_dump(), NEAR: near.case_id if near else None,
                        "entry": entry.model_copy(update={"case_id": None}).model_dump(mode="json")}
            case_id = mention.case_id
            updated = entry.model_copy(update={"case_id": case_id})
            payload = {**payload, NEW_CASE: None, NEAR: None}
        else:
            updated = edit_field(entry, field, value, upload, lang)
        ProposedEntry.model_validate(updated.model_dump())
        return {**payload, "entry": updated.model_dump(mode="json")}

    def accepts_value(self, payload: dict[str, Any], field: str, value: str) -> bool:
        """A whole new note sent while a field waits is not that field's value: a case is named in a few words
        and carries no dated event; a date or a kind is a few words. The note is then read as a note."""
        if field == "text":
            return True
        words = len(value.split())
        if field == "case":
            dated = any(not found.relative for found in find_dates(value, number_spans(value)))
            return words <= _CASE_WORDS and not dated
        return words <= (_KIND_WORDS if field == "kind" else _DATE_WORDS)

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        entry = entry_of(payload)
        lang = payload.get("lang", "en")
        known = entry.case_id is not None and self.register_for(payload["tenant"]).get(entry.case_id) is not None
        if not known and new_case_of(payload) is None:
            return text(lang, "legal.card_needs_case")
        if asks_did_you_mean(payload):
            return text(lang, "legal.card_needs_did_you_mean")
        if entry.guessed:
            return text(lang, "legal.card_needs_date")
        if entry.unlisted:
            return text(lang, "legal.card_needs_listed")
        if entry.doubt is not None:
            return text(lang, "legal.card_needs_next")
        if entry.implausible(Upload.model_validate(payload["upload"]).uploaded_at.astimezone(IST).date()):
            return text(lang, "legal.card_implausible")
        return None

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        """Add a proposed case to the register and file the entry under it, then write the entry's record (the
        same row if saved again; an edit of a saved entry keeps its document id)."""
        new, entry = new_case_of(payload), entry_of(payload)
        if new is not None and entry.case_id is None and self.add_case is not None:
            added = case_record(new, self.register_for(payload["tenant"]))
            self.add_case(payload["tenant"], added)
            filed = entry.model_copy(update={"case_id": added.case_id})
            payload = {**payload, "entry": filed.model_dump(mode="json"), NEW_CASE: None, "added_case": added.case_id}
        record, _ = self.record(payload)
        if self.entries is not None:
            saved = self.entries.save(payload["tenant"], record, turn.user.user_id,
                                      action="edit" if payload.get(EDIT_OF) else "save")
            if saved.kept:  # the same page again: the memory says what the corrected record says
                kept = entry_of(payload).model_copy(update={f: getattr(saved.record, f) for f in saved.kept})
                payload = {**payload, "entry": kept.model_dump(mode="json")}
        return {**payload, DOCUMENT_ID: record.document_id}

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        case = self.register_for(payload["tenant"]).get(payload.get("added_case") or "")
        if case is None:
            return []
        return [Reply(text=turn.t("legal.case_added", number=", ".join(case.numbers), title=case.title))]

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        record, case = self.record(payload)
        return [memory_item(record, case)]

    def saved_buttons(self, turn: Turn, card_id: str, payload: dict[str, Any]) -> list[list[Button]]:
        if self.entries is None:
            return []
        return [[Button(label=turn.t("core.button_edit"), data=f"{CALLBACK_PREFIX}:e:{card_id}"),
                 Button(label=turn.t("legal.button_delete"), data=f"{CALLBACK_PREFIX}:d:{card_id}")]]

    async def on_saved(self, turn: Turn, card: Card, action: str) -> list[Reply] | None:
        """Edit or Delete on a saved entry: a card on the record as it is now, or a confirmation to delete."""
        document_id = card.payload.get(DOCUMENT_ID)
        if self.entries is None or not document_id or action not in ("e", "d"):
            return None
        record = self.entries.get(card.payload["tenant"], document_id)
        if record is None:
            return [Reply(text=turn.t("legal.entry_gone"))]
        if action == "d":
            case = self.register_for(card.payload["tenant"]).get(record.case_id)
            return [delete_prompt(turn, card.card_id, record, case.label if case else record.case_id)]
        opened = open_card(turn, self, edit_payload(record, card.payload), intro=turn.t("legal.edit_saved_intro"))
        assert opened.card_id is not None
        return [opened, *await on_callback(turn, {KIND: self}, f"{CALLBACK_PREFIX}:e:{opened.card_id}")]


def save_all_button(turn: Turn, batch: str, count: int) -> list[list[Button]]:
    return [[Button(label=turn.t("legal.button_save_all", count=count), data=f"{SAVE_ALL_PREFIX}{batch}")]]


async def save_all(turn: Turn, spec: HearingCard, batch: str) -> list[Reply]:
    """Save every open card of one upload whose date and case are settled; say which are held for review."""
    saved: list[Reply] = []
    held = 0
    for card in turn.services.state.open_cards(turn.user.user_id):
        if card.kind != KIND or card.payload.get("batch") != batch or card.status != "open":
            continue
        # A card proposing a new case is saved on its own: the person confirms the case, not just the date.
        if spec.save_allowed(card.payload) is not None or new_case_of(card.payload) is not None:
            held += 1
            continue
        saved += await on_callback(turn, {KIND: spec}, f"c:s:{card.card_id}")
    summary = turn.t("legal.saved_all", saved=sum(1 for r in saved if r.replaces_card), held=held)
    return saved + [Reply(text=summary)]
