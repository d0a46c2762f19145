"""A company's past visit log (CSV/XLSX: date, officer, farmer, crop, problem, products, reaction, notes) brought
in as saved visits: records and their memories, each dated by its visit date, so briefs and insights start
with the history on day one. Through the registers' own import entry (`smriti import --tenant T visits FILE`,
chat `/import visits`): a dry run shows what would be written, memories included; Apply writes the records and
queues the memories in the outbox (the bot stores them). Importing the same log twice changes nothing.

A visit is the farmer's on one day (by one officer, for one crop): the same farmer visited again months later is
another visit; a row changed in the sheet (a product, a remark) updates its visit, under the same id. Every
column is read (problem, products with doses, reaction, objection, outcome as an outcome record linked to the
visit, next step, remarks); a column not used is listed, and a cell not understood is listed under its column
and kept in the visit's note as written."""

from datetime import date
from pathlib import Path

from pydantic import BaseModel

from bot.services.registers.importer import MEMORIES_SHOWN, ImportReport, Rejected
from bot.services.registers.kinds import Cells
from bot.services.registers.table import SourceRow, fold, read_sheet
from bot.store import Database
from bot.store.subject_registers import same_id
from bot.store.tenants import ensure_tenant
from handlers.agri.extract import FieldReader, visit_id
from handlers.agri.models import Farmer, Visit
from handlers.agri.register import FieldBook
from handlers.agri.registers import VISIT_LOG_COLUMNS as COLUMNS
from handlers.agri.textmatch import normalise
from handlers.agri.visit_log_columns import column_of, known_headers
from handlers.agri.visit_log_row import RowReading, visit_day
from handlers.agri.visit_records import (
    SavedOutcome,
    SavedVisit,
    VisitRecords,
    saved_outcome_memory,
    saved_visit_memory,
)
from memory.ids import content_digest
from memory.outbox import Outbox


class LogRow(BaseModel):
    """One row of the log, read: the visit it is (with its outcome when the row gives one), or the reason it
    cannot be one; and the cells the reader could not understand, by column, kept in the visit's note."""

    row: int
    saved: SavedVisit | None = None
    outcome: SavedOutcome | None = None
    reason: str | None = None
    not_understood: dict[str, list[str]] = {}


# Fields a log may spread over two columns ("Products Recommended" and "Product Given", "Remarks" and "Notes"):
# both are read. A visit has one date, farmer, officer, village and crop: the first such column is.
_JOINED = {"problem", "products", "dose", "reaction", "objection", "outcome", "next_step", "notes"}


def log_cells(row: SourceRow) -> tuple[Cells, dict[str, str]]:
    """The row's cells by field, and the header each field was read from (as the sheet writes it)."""
    cells: Cells = {}
    headers: dict[str, str] = {}
    for header, value in row.cells.items():
        field = column_of(header)
        if field is None or not value.strip():
            continue
        if field not in cells:
            cells[field], headers[field] = value.strip(), header
        elif field in _JOINED and value.strip() not in cells[field]:
            cells[field] = f"{cells[field]}; {value.strip()}"
    return cells, headers


class LogReader:
    """Reads a visit log's rows against one tenant's registers."""

    def __init__(self, book: FieldBook) -> None:
        self.book = book
        self.reader = FieldReader(book)

    def _officer(self, written: str) -> str | None:
        if not written:
            return None
        for officer in self.book.officers.values():
            if same_id(officer.id, written) or fold(officer.name) == fold(written) \
                    or fold(officer.name).split()[0] == fold(written):
                return officer.id
        return None

    def _farmer(self, written: str, village: str | None, officer: str | None) -> Farmer | str:
        """The registered farmer the cell names, or the reason none (or several) fit."""
        by_id = [f for f in self.book.farmers.values() if same_id(f.id, written)]
        if by_id:
            return by_id[0]
        territories = [village] if village else (self.book.officers[officer].territories if officer else None)
        found = self.reader.farmers_named(written, territories or None)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            return f"farmer {written!r} could be {', '.join(f'{f.name} ({f.id})' for f in found)}: write the id"
        return f"farmer {written!r} is not in the farmers register"

    def read(self, row: SourceRow, officer_default: str) -> LogRow:
        cells, headers = log_cells(row)
        day = visit_day(cells.get("date", ""))
        if day is None:
            return LogRow(row=row.number, reason=f"no visit date I can read in {cells.get('date', '')!r}")
        officer = self._officer(cells.get("officer", ""))
        if cells.get("officer") and officer is None:
            return LogRow(row=row.number, reason=f"officer {cells['officer']!r} is not in the officers register")
        village = self.reader.village_in(cells["village"]) if cells.get("village") else None
        farmer = self._farmer(cells.get("farmer", ""), village, officer)
        if isinstance(farmer, str):
            return LogRow(row=row.number, reason=farmer)
        crop = self._crop(cells.get("crop", ""), farmer)
        if crop is None:
            return LogRow(row=row.number, reason=f"crop {cells.get('crop', '')!r} is not one I know for {farmer.name}")
        read = RowReading(self.reader, cells, crop, day)
        if cells.get("village") and village is None:
            read.unread("village", cells["village"])
        saved = self._visit(read, day, officer or officer_default, farmer, crop)
        outcome = read.outcome(saved.visit)
        return LogRow(row=row.number, saved=saved,
                      outcome=SavedOutcome(outcome=outcome, visit_date=day) if outcome is not None else None,
                      not_understood={headers[f]: values for f, values in read.not_understood.items()})

    def _crop(self, written: str, farmer: Farmer) -> str | None:
        if not written:
            return farmer.crops[0] if len(farmer.crops) == 1 else None
        found = [h.key for h in self.reader.terms.find(normalise(written)) if h.category == "crop"]
        return found[0] if found else None

    def _visit(self, read: "RowReading", day: date, officer: str, farmer: Farmer, crop: str) -> SavedVisit:
        cells = read.cells
        # A visit is the farmer's on that day, by that officer, for that crop: the same farmer months apart is
        # another visit; the same row read again (or corrected) is the same one, under the same id.
        identity = "|".join((farmer.id, day.isoformat(), officer, crop))
        visit = Visit(id=visit_id(farmer.id, day, identity), date=day, officer_id=officer, farmer_id=farmer.id,
                      village=farmer.village, crop=crop, problems=read.problems(), products=read.advice(),
                      objection_unnamed=read.objection_unnamed, next_step=read.next_step(),
                      followup_days=read.followup_days(), note=read.note())
        transcript = " | ".join(f"{c.header}: {cells[c.field]}" for c in COLUMNS if cells.get(c.field))
        return SavedVisit(visit=visit, key=f"log-{content_digest(identity, 12)}", source="import",
                          transcript=transcript, with_note=True)


def _preview(book: FieldBook, saved: list[SavedVisit], outcomes: list[SavedOutcome]) -> list[str]:
    memories = [(s.visit.date, saved_visit_memory(book, s)) for s in saved] + [
        (o.outcome.date, saved_outcome_memory(book, o)) for o in outcomes]
    return [f"{day.isoformat()} {memory.document_id}: {memory.content[:160]}"
            for day, memory in sorted(memories, key=lambda m: (m[0], m[1].document_id))[:MEMORIES_SHOWN]]


def _same(before: BaseModel | None, after: BaseModel) -> bool:
    return before is not None and before.model_dump(mode="json") == after.model_dump(mode="json")


def _earlier_import(records: VisitRecords, tenant: str, saved: SavedVisit) -> list[str]:
    """The same visit imported before under another key (a log read when a row's key was its contents): its id,
    for the row to replace it rather than stand beside it."""
    visit = saved.visit
    return [s.visit.id for s in records.visits(tenant, farmer_id=visit.farmer_id)
            if s.source == "import" and s.key != saved.key and s.visit.id != visit.id and s.visit.date == visit.date
            and (s.visit.officer_id, s.visit.crop) == (visit.officer_id, visit.crop)]


def import_visit_log(database: Database, book: FieldBook, tenant: str, path: Path, apply: bool,
                     bank_id: str, officer_default: str = "import") -> ImportReport:
    """Dry-run (default) or apply a visit log: the report lists what is added, changed, unchanged and refused,
    the columns not used, the cells not understood, and the memories that are (or would be) written."""
    records = VisitRecords(database)
    reader = LogReader(book)
    report = ImportReport(kind="visits", tenant=tenant)
    sheet = read_sheet(path, known_headers())
    report.ignored_columns = [h for h in dict.fromkeys(sheet.header) if h.strip() and column_of(h) is None]
    chosen: dict[str, LogRow] = {}
    for source in sheet.rows:
        read = reader.read(source, officer_default)
        if read.saved is None:
            report.rejected.append(Rejected(row=read.row, reason=read.reason or "unreadable row"))
            continue
        if read.saved.key in chosen:
            first = chosen[read.saved.key]
            report.rejected.append(Rejected(row=read.row, reason=f"the same visit as row {first.row} (the same farmer, "
                                                                 f"day, officer and crop)"))
            continue
        chosen[read.saved.key] = read
        for column, values in read.not_understood.items():
            report.not_understood.setdefault(column, []).extend(f"row {read.row}: {v}" for v in values)
    writes: list[SavedVisit] = []
    outcomes: list[SavedOutcome] = []
    superseded: list[str] = []
    for read in chosen.values():
        saved = read.saved
        assert saved is not None
        label = f"{saved.visit.id} ({saved.visit.date.isoformat()})"
        visit_same = _same(records.visit(tenant, saved.visit.id), saved)
        outcome_same = read.outcome is None or _same(records.outcome(tenant, saved.visit.id), read.outcome)
        older = _earlier_import(records, tenant, saved)
        superseded += older
        if visit_same and outcome_same and not older:
            report.unchanged.append(label)
            continue
        known = records.visit(tenant, saved.visit.id) is not None or records.has_key(tenant, saved.key) or bool(older)
        (report.updated if known else report.added).append(label)
        if not visit_same:
            writes.append(saved)
        if not outcome_same and read.outcome is not None:
            outcomes.append(read.outcome)
    report.memories = _preview(book, writes, outcomes)
    report.memories_total = len(writes) + len(outcomes)
    if apply and (writes or outcomes or superseded):
        ensure_tenant(database, tenant)
        outbox = Outbox(database.engine)
        replaced: list[str] = []
        for visit_id in superseded:
            replaced += records.remove_visit(tenant, visit_id)
        for saved in writes:
            replaced += records.save_visit(tenant, saved).replaced
        for outcome in outcomes:
            records.save_outcome(tenant, outcome)
        for document_id in replaced:
            outbox.drop(bank_id, document_id)
        outbox.put(bank_id, [saved_visit_memory(book, s) for s in writes]
                   + [saved_outcome_memory(book, o) for o in outcomes], error="imported visit log")
        report.removed = replaced
    report.rejected.sort(key=lambda r: r.row)
    report.applied = apply
    return report
