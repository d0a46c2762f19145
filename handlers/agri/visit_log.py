"""A company's past visit log (CSV/XLSX: date, officer, farmer, crop, problem, products, reaction, notes) brought
in as saved visits: records and their memories, each dated by its visit date, so briefs and insights start
with the history on day one. Through the registers' own import entry (`smriti import --tenant T visits FILE`,
chat `/import visits`): a dry run shows what would be written, memories included; Apply writes the records and
queues the memories in the outbox (the bot stores them). Importing the same log twice changes nothing; a row
whose date was corrected in the sheet re-keys its visit (one memory remains)."""

from datetime import date
from pathlib import Path

from pydantic import BaseModel

from bot.services.registers.importer import MEMORIES_SHOWN, ImportReport, Rejected
from bot.services.registers.kinds import Cells
from bot.services.registers.table import SourceRow, excel_date, fold, header_key, read_table
from bot.store import Database
from bot.store.subject_registers import same_id
from bot.store.tenants import ensure_tenant
from handlers.agri.extract import FieldReader, visit_id
from handlers.agri.models import Advice, Farmer, Visit
from handlers.agri.register import FieldBook
from handlers.agri.registers import VISIT_LOG_COLUMNS as COLUMNS
from handlers.agri.textmatch import find_dates, normalise
from handlers.agri.visit_records import SavedVisit, VisitRecords, saved_visit_memory
from memory.ids import content_digest
from memory.outbox import Outbox


class LogRow(BaseModel):
    """One row of the log, read: the visit it is, or the reason it cannot be one."""

    row: int
    saved: SavedVisit | None = None
    reason: str | None = None


def _aliases() -> dict[str, str]:
    found: dict[str, str] = {}
    for column in COLUMNS:
        for name in (column.field, column.header, *column.aliases):
            found.setdefault(header_key(name), column.field)
    return found


def _day(text: str) -> date | None:
    """A visit date as offices write it: ISO, an Excel serial, or day first (12-04-2023, 12/4/23, 12-Apr-2023)."""
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
        aliases = _aliases()
        cells: Cells = {}
        for header, value in row.cells.items():
            field = aliases.get(header_key(header))
            if field is not None and value.strip():
                cells.setdefault(field, value.strip())
        day = _day(cells.get("date", ""))
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
        return LogRow(row=row.number, saved=self._visit(cells, day, officer or officer_default, farmer, crop))

    def _crop(self, written: str, farmer: Farmer) -> str | None:
        if not written:
            return farmer.crops[0] if len(farmer.crops) == 1 else None
        found = [h.key for h in self.reader.terms.find(normalise(written)) if h.category == "crop"]
        return found[0] if found else None

    def _visit(self, cells: Cells, day: date, officer: str, farmer: Farmer, crop: str) -> SavedVisit:
        problem_text = normalise(cells.get("problem", ""))
        problems = list(dict.fromkeys(h.key for h in self.reader.terms.find(problem_text) if h.category == "issue"))
        said = normalise(f"{cells.get('reaction', '')} {cells.get('notes', '')}")
        hits = self.reader.terms.find(said)
        reaction = next((h.key for h in hits if h.category == "reaction"), None)
        objection = next((h.key for h in hits if h.category == "objection"), None)
        if reaction is None and objection is not None:
            reaction = "rejected"  # a log's "price objection" is the farmer's no, with its reason
        advice = [Advice(product_id=a.product_id, reaction=reaction or a.reaction,  # type: ignore[arg-type]
                         objection=objection if (reaction or a.reaction) != "accepted" else None, dose=a.dose)
                  for a in self.reader.advice_in(normalise(cells.get("products", "")), crop)]
        unknown_problem = cells.get("problem") if cells.get("problem") and not problems else None
        note = "; ".join(p for p in (cells.get("notes"), f"problem as written: {unknown_problem}"
                                     if unknown_problem else None) if p) or None
        # The row's identity leaves the date out, so a date corrected in the sheet re-keys the same visit.
        identity = "|".join(normalise(cells.get(c.field, "")) for c in COLUMNS if c.field != "date")
        visit = Visit(id=visit_id(farmer.id, day, identity), date=day, officer_id=officer, farmer_id=farmer.id,
                      village=farmer.village, crop=crop, problems=problems, products=advice,
                      note=note[:400] if note else None)
        transcript = " | ".join(f"{c.header}: {cells[c.field]}" for c in COLUMNS if cells.get(c.field))
        return SavedVisit(visit=visit, key=f"log-{content_digest(identity, 12)}", source="import",
                          transcript=transcript, with_note=True)


def _preview(book: FieldBook, saved: list[SavedVisit]) -> list[str]:
    lines = []
    for item in sorted(saved, key=lambda s: s.visit.date)[:MEMORIES_SHOWN]:
        memory = saved_visit_memory(book, item)
        lines.append(f"{item.visit.date.isoformat()} {memory.document_id}: {memory.content[:160]}")
    return lines


def import_visit_log(database: Database, book: FieldBook, tenant: str, path: Path, apply: bool,
                     bank_id: str, officer_default: str = "import") -> ImportReport:
    """Dry-run (default) or apply a visit log: the report lists what is added, changed, unchanged and refused,
    and the memories that are (or would be) written."""
    records = VisitRecords(database)
    reader = LogReader(book)
    report = ImportReport(kind="visits", tenant=tenant)
    chosen: dict[str, tuple[int, SavedVisit]] = {}
    for source in read_table(path, _aliases()):
        read = reader.read(source, officer_default)
        if read.saved is None:
            report.rejected.append(Rejected(row=read.row, reason=read.reason or "unreadable row"))
        elif read.saved.key in chosen:
            report.rejected.append(Rejected(row=read.row, reason=f"the same visit as row {chosen[read.saved.key][0]}"))
        else:
            chosen[read.saved.key] = (read.row, read.saved)
    writes: list[SavedVisit] = []
    for _, saved in chosen.values():
        before = records.visit(tenant, saved.visit.id)
        label = f"{saved.visit.id} ({saved.visit.date.isoformat()})"
        if before is not None and before.model_dump(mode="json") == saved.model_dump(mode="json"):
            report.unchanged.append(label)
            continue
        (report.updated if before is not None or records.has_key(tenant, saved.key) else report.added).append(label)
        writes.append(saved)
    report.memories = _preview(book, writes)
    report.memories_total = len(writes)
    if apply and writes:
        ensure_tenant(database, tenant)
        outbox = Outbox(database.engine)
        replaced: list[str] = []
        for saved in writes:
            replaced += records.save_visit(tenant, saved).replaced
        for document_id in replaced:
            outbox.drop(bank_id, document_id)
        outbox.put(bank_id, [saved_visit_memory(book, s) for s in writes], error="imported visit log")
        report.removed = replaced
    report.rejected.sort(key=lambda r: r.row)
    report.applied = apply
    return report

