"""One visit log row's cells read into the parts of a visit: problems, products with their doses, how the farmer
took them and why not, the next step, the outcome. A cell the reader cannot understand is never dropped: it is
listed for the dry run under its column and kept in the visit's note as written."""

import re
from datetime import date, timedelta
from typing import get_args

from bot.services.registers.kinds import Cells, split_list
from bot.services.registers.table import excel_date
from handlers.agri.choices import choice_in
from handlers.agri.doses import above_label, find_doses
from handlers.agri.extract import FieldReader
from handlers.agri.models import Advice, Objection, Outcome, Reaction, Result, Visit
from handlers.agri.results import product_source, result_of
from handlers.agri.textmatch import find_dates, normalise
from handlers.agri.timing import followup_days

# How a column is named in the note that keeps a cell the reader could not understand.
_SHOWN = {"problem": "problem", "products": "products", "dose": "dose", "reaction": "reaction",
          "objection": "objection", "outcome": "outcome", "outcome_date": "outcome date", "village": "village"}
_NOTE_LIMIT = 400
OBJECTIONS: tuple[str, ...] = get_args(Objection)
# A reaction and its reason as logs write them: "Hesitant - price", "Later: no cash", "will think (costly)".
_REASON_AT = re.compile(r"\s+[-–—:(/]\s*|\s*[:(/]\s*|,\s*|\s+-")


def _split_reason(written: str) -> tuple[str, str, str]:
    found = _REASON_AT.search(written)
    if found is None:
        return written, "", ""
    return written[:found.start()].strip(), found.group(), written[found.end():].strip(" )")


def visit_day(text: str) -> date | None:
    """A date as offices write it: ISO, an Excel serial, or day first (12-04-2023, 12/4/23, 12-Apr-2023)."""
    written = excel_date(text.strip())
    for mention in find_dates(written.replace(".", "/")):
        if mention.year is None:
            continue
        year = mention.year + 2000 if mention.year < 100 else mention.year
        try:
            return date(year, mention.month, mention.day)
        except ValueError:
            continue
    return None


class RowReading:
    """The cells of one row (by field) read for a visit of `crop`; `not_understood` collects what was not read."""

    def __init__(self, reader: FieldReader, cells: Cells, crop: str, day: date) -> None:
        self.reader = reader
        self.cells = cells
        self.crop = crop
        self.day = day
        self.not_understood: dict[str, list[str]] = {}
        self.objection_unnamed: Objection | None = None
        self._result: Result | None = None
        self._outcome_reaction: Reaction | None = None
        self._read_outcome()
        self._outcome_on = self._outcome_day()

    def unread(self, field: str, value: str) -> None:
        self.not_understood.setdefault(field, []).append(value)

    def _hits(self, field: str, category: str) -> list[str]:
        return [h.key for h in self.reader.terms.find(normalise(self.cells.get(field, ""))) if h.category == category]

    def problems(self) -> list[str]:
        found = list(dict.fromkeys(self._hits("problem", "issue")))
        if self.cells.get("problem") and not found:
            self.unread("problem", self.cells["problem"])
        return found

    def _read_outcome(self) -> None:
        """The Outcome column is the crop's result ("controlled", "no use", "50% control"); an office that
        writes the pitch's outcome there ("bought", "refused") gets it read as the farmer's reaction."""
        written = self.cells.get("outcome", "")
        if not written:
            return
        norm = normalise(written)
        self._result = result_of(norm, self.reader.terms.find(norm), None)
        if self._result is None:
            said = self._hits("outcome", "reaction")
            self._outcome_reaction = said[0] if said else None  # type: ignore[assignment]
        if self._result is None and self._outcome_reaction is None:
            self.unread("outcome", written)

    def _reaction(self) -> tuple[Reaction | None, Objection | None]:
        """How the farmer took the advice and why not when the log says it for every product at once: the
        Objection column, the reason after the reaction ("Hesitant - price"), then the remarks; an objection
        with no reaction word ("price objection") is his no, with its reason."""
        reaction = next(iter(self._hits("reaction", "reaction")), None) or self._outcome_reaction
        named = choice_in(self.reader, self.cells.get("objection", ""), "objection", OBJECTIONS)
        objection = named or self._reason()
        if self.cells.get("objection") and named is None:
            self.unread("objection", self.cells["objection"])
        if self.cells.get("reaction") and reaction is None and objection is None:
            self.unread("reaction", self.cells["reaction"])
        notes = normalise(self.cells.get("notes", ""))
        said = [h for h in self.reader.terms.find(notes) if h.category in ("reaction", "objection")]
        reaction = reaction or next((h.key for h in said if h.category == "reaction"), None)
        objection = objection or next((h.key for h in said if h.category == "objection"), None)
        if reaction is None and objection is not None and not self.cells.get("reaction"):
            reaction = "rejected"
        # "already has it" is taken as the card's Products edit takes it: the advice is followed.
        return ("accepted" if reaction == "own" else reaction), objection  # type: ignore[return-value]

    def _reason(self) -> Objection | None:
        """The objection the Reaction cell names, the reason after its reaction word first ("Hesitant - price":
        price, not the hesitation)."""
        head, _, reason = _split_reason(self.cells.get("reaction", ""))
        for part in (reason, head):
            found = choice_in(self.reader, part, "objection", OBJECTIONS) if part else None
            if found:
                return found  # type: ignore[return-value]
        return None

    def _as_card_reads(self, advice: Advice) -> Advice:
        """The Reaction cell read as the card reads a note saying it of this product ("Proclaim hesitant"): a
        put-off, a condition, a doubt or a refusal stay what they are; nothing is taken as accepted unless the
        cell says so."""
        written = self.cells.get("reaction", "")
        name = self.reader.book.products[advice.product_id].name
        head, _, _reason = _split_reason(written)
        said = {h.category for h in self.reader.terms.find(normalise(written))}
        if "reaction" not in said and self._reason() is not None:
            # Only a reason ("costly", "price objection") is his no; a doubt ("hesitant - price") is not yet a no.
            doubt = choice_in(self.reader, head, "objection", OBJECTIONS) == "doubt"
            return advice.model_copy(update={"reaction": "undecided" if doubt else "rejected"})
        read = [a for a in self.reader.advice_in(normalise(f"{name} {head or written}"), self.crop)
                if a.product_id == advice.product_id]
        return advice.model_copy(update={"reaction": read[0].reaction if read else "undecided"})

    def advice(self) -> list[Advice]:
        written = self.cells.get("products", "")
        for part in split_list(written):
            if not self.reader.advice_in(normalise(part), self.crop):
                self.unread("products", part)
        reaction, objection = self._reaction()
        advice = []
        for found in self.reader.advice_in(normalise(written), self.crop):
            if self.cells.get("reaction"):
                found = self._as_card_reads(found)
            taken = found.reaction if self.cells.get("reaction") else reaction or found.reaction
            advice.append(found.model_copy(update={
                "reaction": taken, "objection": (objection or found.objection) if taken != "accepted" else None}))
        if not advice and objection is not None:
            self.objection_unnamed = objection
        return self._dosed(advice)

    def _dosed(self, advice: list[Advice]) -> list[Advice]:
        """The Dose column: doses naming their product ("Proclaim 80 g/acre") go to it; bare doses go, in order,
        to the products without one; a dose left over, or one with no unit, is not understood."""
        written = self.cells.get("dose", "")
        if not written:
            return advice
        by_id = {a.product_id: a for a in advice}
        bare: list[str] = []
        for part in split_list(written):
            norm = normalise(part)
            doses = find_doses(norm)
            named = [a.product_id for a in self.reader.advice_in(norm, self.crop) if a.product_id in by_id]
            if not doses:
                self.unread("dose", part)
            elif named:
                self._give(by_id, named[0], doses[0])
            else:
                bare.append(part)
        for part in bare:
            target = next((pid for pid, a in by_id.items() if a.dose is None), None)
            if target is None:
                self.unread("dose", part)
            else:
                self._give(by_id, target, find_doses(normalise(part))[0])
        return [by_id[a.product_id] for a in advice]

    def _give(self, by_id: dict[str, Advice], product_id: str, dose: object) -> None:
        over, label = above_label(dose, self.reader.book.products[product_id], self.crop)  # type: ignore[arg-type]
        by_id[product_id] = by_id[product_id].model_copy(update={
            "dose": dose.text(), "label_dose": label, "above_label": over})  # type: ignore[attr-defined]

    def next_step(self) -> str | None:
        written = self.cells.get("next_step", "")
        return written[:200] if written else None

    def followup_days(self) -> int | None:
        """When the next step says when: a date after the visit, or a span ("after 10 days", "next week")."""
        written = self.cells.get("next_step", "")
        if not written:
            return None
        day = self.day
        for mention in find_dates(written.replace(".", "/")):
            year = day.year if mention.year is None else mention.year + (2000 if mention.year < 100 else 0)
            try:
                days = (date(year, mention.month, mention.day) - day).days
            except ValueError:
                continue
            if 0 < days <= 120:
                return days
        return followup_days(normalise(written), day)

    def note(self) -> str | None:
        kept = [f"{_SHOWN[field]} as written: {'; '.join(values)}" for field, values in self.not_understood.items()]
        note = "; ".join(p for p in (self.cells.get("notes"), *kept) if p)
        return note[:_NOTE_LIMIT] if note else None

    def outcome(self, visit: Visit) -> Outcome | None:
        """The row's outcome, linked to its visit: dated by its own column when it gives a day on or after the
        visit, else by the visit's day (the log wrote both in one row)."""
        if self._result is None:
            return None
        norm = normalise(self.cells.get("outcome", ""))
        source = product_source(norm)
        applied = [a.product_id for a in visit.products if a.reaction in ("accepted", "postponed")]
        return Outcome(visit_id=visit.id, date=self._outcome_on, officer_id=visit.officer_id, farmer_id=visit.farmer_id or "",
                       village=visit.village or "", crop=visit.crop or "", issue=visit.issue,
                       products=applied if source == "ours" else [], result=self._result,
                       note=self.cells["outcome"][:_NOTE_LIMIT], source=source)

    def _outcome_day(self) -> date:
        written = self.cells.get("outcome_date", "")
        found = visit_day(written) if written else None
        if written and (found is None or not self.day <= found <= self.day + timedelta(days=365)):
            self.unread("outcome_date", written)
        return found if found is not None and self.day <= found else self.day
