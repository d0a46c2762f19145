"""The visit and outcome cards: shown before anything is stored, edited field by field, retained on Save."""

import logging
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any, get_args

from bot.services.i18n import show_date, text
from bot.core.messages import Reply
from bot.core.scheduler import FollowUp
from bot.services.registers.codes import fold_code
from handlers.agri.card_edits import (
    edit_applied,
    edit_products,
    edit_result,
    CLEAR,
    edit_dose,
    edit_followup,
    edit_objection,
    edit_problems,
    is_value_of,
    recheck_doses,
)
from handlers.agri.choices import choice_in
from handlers.agri.extract import FieldReader, dated_id
from handlers.agri.farmer_add import (
    NEW_FARMER,
    farmer_line,
    farmer_record,
    name_edit,
    new_farmer_blocked,
    new_farmer_of,
    village_edit,
    village_line,
    visit_of_new_farmer,
)
from handlers.agri.measures import measure
from handlers.agri.models import Farmer, Outcome, Severity, Visit
from handlers.agri.narrative import note_in_narrative
from handlers.agri.visit_records import (
    SavedOutcome,
    SavedVisit,
    VisitRecords,
    saved_outcome_memory,
    saved_visit_memory,
)
from handlers.agri.past_day import past_day
from handlers.agri.textmatch import normalise
from bot.core.pack import Turn
from bot.core.cards import CardSpec
from memory import MemoryItem, MemoryLayerError
from memory.asof import IST

log = logging.getLogger(__name__)

VISIT_FIELDS = ["farmer", "village", "crop", "stage", "issue", "severity", "products", "objection", "dose",
                "neighbour", "next_step", "followup", "note", "date"]
OUTCOME_FIELDS = ["result", "products", "note", "date"]
SEVERITIES: tuple[str, ...] = get_args(Severity)
_YES = {"yes", "y", "avunu", "అవును", "haa", "ha"}
_NO = {"no", "n", "kadu", "కాదు", "ledu", "లేదు"}


def followup_id(visit_id: str) -> str:
    return f"agri-{visit_id}"


def _t(lang: str, key: str, **values: object) -> str:
    return text(lang, f"agri.{key}", **values)


class _Shared:
    def __init__(self, reader: FieldReader, records: VisitRecords | None = None) -> None:
        self.reader = reader
        self.book = reader.book
        self.records = records
        """Where Save writes the record the memory is built from (None: memory only, as in some tests)."""

    def _dash(self, value: object) -> str:
        return str(value) if value not in (None, "", []) else "—"

    def _products(self, lang: str, advice: list[Any]) -> str:
        parts = []
        for item in advice:
            name = f"{self.book.products[item.product_id].name} ({item.product_id})"
            objection = f" — {_t(lang, f'objection_{item.objection}')}" if item.objection else ""
            parts.append(f"{name}: {_t(lang, f'reaction_{item.reaction}')}{objection}")
        return "; ".join(parts)

    def _doses(self, lang: str, advice: list[Any]) -> str:
        parts = []
        for item in advice:
            if not item.dose:
                continue
            label = _t(lang, "dose_above_label" if item.above_label else "dose_label_ok",
                       label=measure(lang, item.label_dose)) if item.label_dose else ""
            dose = measure(lang, item.dose)
            parts.append(f"{self.book.products[item.product_id].name}: {dose}" + (f" ({label})" if label else ""))
        return "; ".join(parts)

    def _day(self, value: str, today: date) -> date:
        day = past_day(value, today)
        if day is None:
            raise ValueError("agri.edit_bad_date")
        if day > today:
            raise ValueError("agri.edit_future_date")
        return day


def saved_visit(payload: dict[str, Any]) -> SavedVisit:
    """The record a visit card saves: its visit under the id its date and farmer give it now."""
    visit = Visit.model_validate(payload["visit"])
    visit = visit.model_copy(update={"id": dated_id(visit)})
    return SavedVisit(visit=visit, key=payload.get("visit_key") or visit.id, source="card",
                      transcript=payload.get("transcript"),
                      with_note=note_in_narrative(payload.get("lang", "en"), payload.get("extractor", "rules")))


def saved_outcome(payload: dict[str, Any]) -> SavedOutcome:
    visit = Visit.model_validate(payload["visit"])
    return SavedOutcome(outcome=Outcome.model_validate(payload["outcome"]), visit_date=visit.date,
                        transcript=payload.get("transcript"),
                        with_note=note_in_narrative(payload.get("lang", "en"), payload.get("extractor", "rules")))


async def remove_replaced(turn: Turn, document_ids: list[str]) -> None:
    """Remove the memories of a visit saved before under another id (its date or farmer was edited since), so
    one memory remains; a memory server that is down leaves them for `smriti memory check` to report."""
    for document_id in document_ids:
        turn.services.outbox.drop(turn.bank_id, document_id)
        try:
            await turn.services.memory.delete_document(turn.bank_id, document_id)
        except MemoryLayerError as exc:
            log.warning("could not remove a re-keyed visit's old memory (%s)", type(exc).__name__)
        if turn.services.scheduler is not None and document_id.startswith("visit:"):
            turn.services.scheduler.forget([followup_id(document_id.split(":", 1)[1])])


class VisitCard(_Shared, CardSpec):
    kind = "visit"

    def __init__(self, reader: FieldReader, add_farmer: Callable[[Farmer], FieldReader] | None = None,
                 records: VisitRecords | None = None) -> None:
        super().__init__(reader, records)
        self.add_farmer = add_farmer
        """Writes a confirmed new farmer into the tenant's register and returns the reader of the new book."""

    def fields(self, payload: dict[str, Any]) -> list[str]:
        return VISIT_FIELDS

    def field_label(self, lang: str, field: str) -> str:
        return _t(lang, f"field_{field}")

    def render(self, lang: str, payload: dict[str, Any]) -> str:
        visit = Visit.model_validate(payload["visit"])
        book = self.book
        new = new_farmer_of(payload)
        farmer = f"{book.farmer_name(visit.farmer_id, lang)} ({visit.farmer_id})" if visit.farmer_id else None
        if new is not None and not visit.farmer_id:
            farmer = farmer_line(lang, new, book)
        village = village_line(book, lang, new) if new is not None else book.village_name(visit.village, lang)
        severity = (f"{_t(lang, f'severity_{visit.severity}')}" if visit.severity else "") + (
            f" ({visit.severity_pct}%)" if visit.severity_pct is not None else "")
        problems = book.problems_seen(visit.problems, visit.problem_crops, visit.crop, lang)
        rows = [
            _t(lang, "visit_card_title", extractor=_t(lang, f"extractor_{payload.get('extractor', 'rules')}")),
            f"{self.field_label(lang, 'farmer')}: {self._dash(farmer)}",
            f"{self.field_label(lang, 'village')}: {self._dash(village)}",
            f"{self.field_label(lang, 'crop')}: {self._dash(book.crop_name(visit.crop, lang) or None)}",
            f"{self.field_label(lang, 'stage')}: {self._dash(_t(lang, f'stage_{visit.stage}') if visit.stage else None)}",
            f"{self.field_label(lang, 'issue')}: {self._dash(problems)}",
            f"{self.field_label(lang, 'severity')}: {self._dash(severity.strip())}",
            f"{self.field_label(lang, 'products')}: {self._dash(self._products(lang, visit.products))}" + (
                f" — {_t(lang, f'objection_{visit.objection_unnamed}')}" if visit.objection_unnamed and not
                visit.products else "") + "".join(
                f"; {name} ({_t(lang, 'not_in_catalogue')})" for name in visit.unlisted),
            f"{self.field_label(lang, 'dose')}: {self._dash(self._doses(lang, visit.products))}",
            f"{self.field_label(lang, 'neighbour')}: {_t(lang, 'yes' if visit.neighbour_evidence else 'no')}",
            f"{self.field_label(lang, 'next_step')}: {self._dash(visit.next_step)}",
            f"{self.field_label(lang, 'followup')}: " + (
                _t(lang, "followup_in_days", days=visit.followup_days) if visit.followup_days else
                _t(lang, "followup_default", days=self.book.followup_days(visit.issue))),
            f"{self.field_label(lang, 'note')}: {self._dash(visit.note)}",
            f"{self.field_label(lang, 'date')}: {show_date(lang, visit.date)}",
        ]
        return "\n".join(rows)

    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        visit = Visit.model_validate(payload["visit"])
        territories: list[str] = payload.get("territories", [])
        today = date.fromisoformat(payload["today"])
        norm = normalise(value)
        hits = self.reader.terms.find(norm)
        update: dict[str, Any] = {}
        cleared = norm in CLEAR
        lang = payload.get("lang", "en")
        if field == "farmer":
            farmers = self.reader.farmers_named(value, territories)
            if not farmers and not cleared:
                # A registered farmer's id is that farmer, wherever they are: never the name of a new farmer
                # (Save then refuses one outside the officer's villages).
                found = self.book.find_farmer(value)
                farmers = [found] if found is not None and fold_code(found.id) == fold_code(value) else []
                if not farmers:
                    return name_edit(self.reader, payload, value)
            if not farmers:
                raise ValueError("agri.edit_unknown_farmer")
            if len(farmers) > 1:
                raise ValueError(_t(payload.get("lang", "en"), "edit_which_farmer",
                                    names=", ".join(f"{self.book.farmer_name(f.id, payload.get('lang', 'en'))} "
                                                    f"({f.id})" for f in farmers)))
            update = {"farmer_id": farmers[0].id, "village": farmers[0].village}
            payload = {**payload, NEW_FARMER: None}
        elif field == "village" and new_farmer_of(payload) is not None:
            found = next((h.key for h in hits if h.category == "village"), None)
            return village_edit(self.book, payload, found, value, lang)
        elif field == "issue":
            update = edit_problems(self.reader, norm)
        elif field == "objection":
            update = edit_objection(self.reader, visit, norm)
        elif field == "dose":
            update = edit_dose(self.reader, visit, norm)
        elif field == "followup":
            update = edit_followup(norm)
        elif field in ("village", "crop", "stage", "severity"):
            category = field
            found = next((h.key for h in hits if h.category == category), None)
            if field == "severity":
                # The scale's own words and labels too ("high", "ఎక్కువ"), beside the reader's ("severe").
                found = choice_in(self.reader, value, "severity", SEVERITIES)
                pct = self.reader.percent(norm)
                update = {"severity_pct": pct, "severity": found or (self.reader.severity_of(pct) if pct is not None else None)}
                if pct is None and found is None and not cleared:
                    raise ValueError("agri.edit_bad_severity")
            elif found is None and not cleared:
                raise ValueError("agri.edit_unknown_value")
            elif field == "village" and found and territories and found not in territories:
                raise ValueError("agri.edit_foreign_village")
            else:
                update = {field: found}
        elif field == "products":
            update = {"products": [] if cleared else [a.model_dump() for a in edit_products(self.reader, visit, norm)]}
        elif field == "neighbour":
            if norm not in _YES | _NO:
                raise ValueError("agri.edit_yes_no")
            update = {"neighbour_evidence": norm in _YES}
        elif field in ("next_step", "note"):
            update = {field: None if cleared else value[:400]}
        elif field == "date":
            update = {"date": self._day(value, today)}
        else:
            raise ValueError("agri.edit_not_editable")
        changed = recheck_doses(self.reader, Visit.model_validate({**visit.model_dump(), **update}))
        changed = changed.model_copy(update={"id": dated_id(changed)})
        return {**payload, "visit": changed.model_dump(mode="json")}

    def accepts_value(self, payload: dict[str, Any], field: str, value: str) -> bool:
        return is_value_of(self.reader, field, value)

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        visit = Visit.model_validate(payload["visit"])
        lang = payload.get("lang", "en")
        new = new_farmer_of(payload) if not visit.farmer_id else None
        if new is not None and (blocked := new_farmer_blocked(self.book, payload, new, lang)):
            return blocked
        village = new.village if new is not None else visit.village
        missing = [self.field_label(lang, f) for f, v in
                   (("farmer", visit.farmer_id or new), ("village", village), ("crop", visit.crop)) if not v]
        if missing:
            return _t(lang, "card_missing", fields=", ".join(missing))
        if new is not None:
            return None
        farmer = self.book.farmers[visit.farmer_id or ""]
        if payload.get("territories") and farmer.village not in payload["territories"]:
            return _t(lang, "not_your_farmer", farmer=farmer.name)
        return None

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        """Add the new farmer to the tenant's register (checked again against the territory) and file the
        visit under them. Saving the same card again finds the same row, so nothing is added twice."""
        payload = await self._add_new_farmer(payload)
        saved = saved_visit(payload)
        payload = {**payload, "visit": saved.visit.model_dump(mode="json")}
        if self.records is not None:
            result = self.records.save_visit(turn.user.tenant, saved)
            payload = {**payload, "replaced": sorted(set(payload.get("replaced", [])) | set(result.replaced))}
        return payload

    async def _add_new_farmer(self, payload: dict[str, Any]) -> dict[str, Any]:
        new = new_farmer_of(payload)
        visit = Visit.model_validate(payload["visit"])
        if new is None or visit.farmer_id or self.add_farmer is None:
            return payload
        blocked = new_farmer_blocked(self.book, payload, new, payload.get("lang", "en"))
        if blocked or not visit.crop:
            raise ValueError(blocked or "a new farmer needs a crop")
        farmer = farmer_record(self.book, new, visit.crop)
        self.reader = self.add_farmer(farmer)
        self.book = self.reader.book
        filed = visit_of_new_farmer(visit, farmer, payload.get("transcript") or visit.note or "")
        return {**payload, "visit": filed.model_dump(mode="json"), NEW_FARMER: None, "added_farmer": farmer.id}

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        return [saved_visit_memory(self.book, saved_visit(payload))]

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        added = self.book.farmers.get(payload.get("added_farmer") or "")
        replies = [Reply(text=turn.t("agri.new_farmer_added", name=self.book.farmer_name(added.id, turn.lang),
                                     village=self.book.village_name(added.village, turn.lang), id=added.id))
                   ] if added is not None else []
        await remove_replaced(turn, payload.get("replaced", []))
        return replies + self._schedule(turn, payload)

    def _schedule(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        scheduler = turn.services.scheduler
        if scheduler is None:
            return []
        visit = Visit.model_validate(payload["visit"])
        days = visit.followup_days or self.book.followup_days(visit.issue)
        due = datetime.combine(visit.date + timedelta(days=days), time(9, 30), IST)
        now = turn.services.clock()
        if due <= now:
            # A backdated visit whose follow-up day has passed is asked the next morning, never at once: the
            # officer is still entering notes, and the next one must not be taken for its answer.
            due = datetime.combine(now.astimezone(IST).date() + timedelta(days=1), time(9, 30), IST)
        scheduler.schedule(FollowUp(followup_id=followup_id(visit.id), pack="agri", user_id=turn.user.user_id,
                                    due_at=due, subject={"visit": visit.model_dump_json()}))
        return [Reply(text=turn.t("agri.followup_scheduled", farmer=self.book.farmer_name(visit.farmer_id, turn.lang),
                                  date=show_date(turn.lang, due.astimezone(IST).date()), days=days))]


class OutcomeCard(_Shared, CardSpec):
    kind = "outcome"

    def fields(self, payload: dict[str, Any]) -> list[str]:
        return OUTCOME_FIELDS

    def field_label(self, lang: str, field: str) -> str:
        return _t(lang, f"field_{field}")

    def render(self, lang: str, payload: dict[str, Any]) -> str:
        outcome = Outcome.model_validate(payload["outcome"])
        visit = Visit.model_validate(payload["visit"])
        applied = ", ".join(f"{self.book.products[p].name} ({p})" for p in outcome.products)
        return "\n".join([
            _t(lang, "outcome_card_title", farmer=self.book.farmer_name(visit.farmer_id, lang),
               crop=self.book.crop_name(visit.crop, lang), visit_date=show_date(lang, visit.date),
               extractor=_t(lang, f"extractor_{payload.get('extractor', 'rules')}")),
            f"{self.field_label(lang, 'result')}: {self._dash(_t(lang, f'result_{outcome.result}') if outcome.result else None)}",
            f"{self.field_label(lang, 'products')}: {self._dash(applied or _t(lang, 'nothing_applied'))}",
            f"{self.field_label(lang, 'note')}: {self._dash(outcome.note)}",
            f"{self.field_label(lang, 'date')}: {show_date(lang, outcome.date)}",
        ])

    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        outcome = Outcome.model_validate(payload["outcome"])
        visit = Visit.model_validate(payload["visit"])
        norm = normalise(value)
        update: dict[str, Any]
        if field == "result":
            update = {"result": edit_result(self.reader, norm, visit.issue)}
        elif field == "products":
            update = edit_applied(self.reader, norm)
        elif field == "note":
            update = {"note": None if norm in CLEAR else value[:400]}
        elif field == "date":
            day = self._day(value, date.fromisoformat(payload["today"]))
            if day <= visit.date:
                raise ValueError("agri.edit_outcome_before_visit")
            update = {"date": day}
        else:
            raise ValueError("agri.edit_not_editable")
        changed = Outcome.model_validate({**outcome.model_dump(), **update})
        return {**payload, "outcome": changed.model_dump(mode="json")}

    def accepts_value(self, payload: dict[str, Any], field: str, value: str) -> bool:
        return is_value_of(self.reader, field, value)

    def save_allowed(self, payload: dict[str, Any]) -> str | None:
        if Outcome.model_validate(payload["outcome"]).result is None:
            return _t(payload.get("lang", "en"), "card_missing", fields=self.field_label(payload.get("lang", "en"), "result"))
        return None

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        return [saved_outcome_memory(self.book, saved_outcome(payload))]

    async def before_retain(self, turn: Turn, payload: dict[str, Any]) -> dict[str, Any]:
        """Write the outcome's record (the memory is built from it); saving it again changes nothing."""
        if self.records is not None:
            self.records.save_outcome(turn.user.tenant, saved_outcome(payload))
        return payload

    async def after_save(self, turn: Turn, payload: dict[str, Any]) -> list[Reply]:
        if turn.services.scheduler is not None and payload.get("followup_id"):
            turn.services.scheduler.mark(payload["followup_id"], "answered")
        return [Reply(text=turn.t("agri.outcome_saved"))]
