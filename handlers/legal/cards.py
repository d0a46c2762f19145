"""The hearing card: each entry found in an upload is shown, edited and saved (or discarded) on its own.

A card whose date was guessed (from the file name or the upload time) cannot be saved until a person sets
the hearing date; an entry without a case cannot be saved until one is chosen. "Save all" saves every
other card of the same upload through the ordinary card Save, so a double tap still stores each once.
"""

from collections.abc import Callable
from typing import Any

from bot.services.i18n import show_date, text
from bot.core.messages import Button, Reply
from bot.core.pack import Turn
from bot.core.cards import CardSpec, on_callback
from handlers.legal.dates import parse_day
from handlers.legal.models import CaseRecord, ProposedEntry, Upload
from handlers.legal.newcase import NewCase, case_record, parse_case
from handlers.legal.records import hearing_memory
from handlers.legal.register import CaseRegister
from memory import MemoryItem

KIND = "hearing"
SAVE_ALL_PREFIX = "legal:all:"
_FIELDS = ["case", "hearing_date", "next_date", "text"]
_NONE_WORDS = {"none", "-", "no", "nil", "లేదు"}


NEW_CASE = "new_case"


def card_payload(upload: Upload, entry: ProposedEntry, tenant: str, batch: str, lang: str,
                 new_case: NewCase | None = None) -> dict[str, Any]:
    return {"upload": upload.model_dump(mode="json"), "entry": entry.model_dump(mode="json"), "tenant": tenant,
            "batch": batch, "lang": lang, NEW_CASE: new_case.model_dump() if new_case else None}


def entry_of(payload: dict[str, Any]) -> ProposedEntry:
    return ProposedEntry.model_validate(payload["entry"])


def new_case_of(payload: dict[str, Any]) -> NewCase | None:
    found = payload.get(NEW_CASE)
    return NewCase.model_validate(found) if found else None


def new_case_line(lang: str, new: NewCase) -> str:
    return text(lang, "legal.card_new_case", number=new.number, title=new.shown_title,
                court=new.court or "-")


class HearingCard(CardSpec):
    kind = KIND

    def __init__(self, register_for: Callable[[str], CaseRegister],
                 add_case: Callable[[str, CaseRecord], None] | None = None) -> None:
        self.register_for = register_for
        self.add_case = add_case
        """Writes a confirmed new case into a tenant's register."""

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
        lines = [text(lang, "legal.card", case=named,
                      date=show_date(lang, entry.hearing_date),
                      source=text(lang, f"legal.date_source_{entry.date_source}"),
                      next=show_date(lang, entry.next_date) if entry.next_date else "-",
                      text=entry.text, file=upload.source_file, confidence=f"{entry.confidence:.2f}")]
        if entry.kind == "document":
            lines.append(text(lang, "legal.card_document"))
        if entry.guessed:
            lines.append(text(lang, "legal.card_guessed"))
        if entry.doubt is not None:
            lines.append(text(lang, "legal.card_doubt_next"))
        if new is not None:
            lines.append(new_case_line(lang, new))
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
                # A case number the register does not know: proposed as a new case, added on Save.
                return {**payload, NEW_CASE: proposed.model_dump(),
                        "entry": entry.model_copy(update={"case_id": None}).model_dump(mode="json")}
            case_id = mention.case_id
            updated = entry.model_copy(update={"case_id": case_id})
            payload = {**payload, NEW_CASE: None}
        elif field == "hearing_date":
            try:
                day = parse_day(value, upload.uploaded_at.date())
            except ValueError as exc:
                raise ValueError(text(lang, "legal.edit_bad_date")) from exc
            # A person set the date: it is no longer a guess.
            updated = entry.model_copy(update={"hearing_date": day, "date_source": "edited", "doubt": None,
                                               "confidence": max(entry.confidence, 0.9)})
        elif field == "next_date":
            # A person set the next date: it is no longer in doubt.
            settled = {"doubt": None, "confidence": max(entry.confidence, 0.85) if entry.doubt else entry.confidence}
            if value.strip().lower() in _NONE_WORDS:
                updated = entry.model_copy(update={"next_date": None, **settled})
            else:
                try:
                    day = parse_day(value, entry.hearing_date, after=True)
                    if day <= entry.hearing_date:
                        raise ValueError("a next date comes after the hearing")
                    updated = entry.model_copy(update={"next_date": day, **settled})
                except ValueError as exc:
                    raise ValueError(text(lang, "legal.edit_bad_date")) from exc
        elif field == "text":
            if not value.strip():
                raise ValueError(text(lang, "legal.edit_empty"))
            updated = entry.model_copy(update={"text": value.strip()})
        else:
            raise ValueError(text(lang, "legal.edit_bad_field"))
        ProposedEntry.model_validate(updated.model_dump())
        return {**payload, "entry": updated.model_dump(mode="json")}

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        entry = entry_of(payload)
        lang = payload.get("lang", "en")
        known = entry.case_id is not None and self.register_for(payload["tenant"]).get(entry.case_id) is not None
        if not known and new_case_of(payload) is None:
            return text(lang, "legal.card_needs_case")
        if entry.guessed:
            return text(lang, "legal.card_needs_date")
        if entry.doubt is not None:
            return text(lang, "legal.card_needs_next")
        return None

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        """Add the proposed case to the register and file the entry under it (the same row if saved again)."""
        new, entry = new_case_of(payload), entry_of(payload)
        if new is None or entry.case_id is not None or self.add_case is None:
            return payload
        record = case_record(new, self.register_for(payload["tenant"]))
        self.add_case(payload["tenant"], record)
        filed = entry.model_copy(update={"case_id": record.case_id})
        return {**payload, "entry": filed.model_dump(mode="json"), NEW_CASE: None, "added_case": record.case_id}

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        case = self.register_for(payload["tenant"]).get(payload.get("added_case") or "")
        if case is None:
            return []
        return [Reply(text=turn.t("legal.case_added", number=", ".join(case.numbers), title=case.title))]

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        entry = entry_of(payload)
        case = self.register_for(payload["tenant"]).get(entry.case_id or "")
        if case is None:
            raise ValueError("a hearing card without a case cannot be saved")
        return [hearing_memory(entry, case, Upload.model_validate(payload["upload"]))]


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
