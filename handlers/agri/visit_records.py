"""Saved visits and outcomes as records in the one database: the truth for exact questions (a farmer's last
visit, what is pending, counts), and what memory is written from. One function turns a record into its memory,
used by Save, by the visit-log import and by `memory_records` (so `smriti memory rebuild` writes the same).

A visit's record is keyed by its id, which carries its saved date; `key` is the visit as first captured (a
note's first id, an imported row's identity), so saving it again under another date or farmer re-keys it: the
old row goes and its memory document is reported to be removed. One memory per visit, whatever was edited.
"""

from collections.abc import Iterable
from datetime import date, datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import JSON, Date, DateTime, Index, String, UniqueConstraint, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from handlers.agri.models import Outcome, Visit
from handlers.agri.narrative import outcome_memory, visit_memory
from handlers.agri.register import FieldBook
from memory import MemoryItem, ids

Source = Literal["card", "import", "seed"]


class SavedVisit(BaseModel):
    """A confirmed visit as it is kept: the visit, where it came from, and the officer's own words."""

    visit: Visit
    key: str
    """The visit as first captured; stays when the date or farmer is edited, so a re-save replaces."""
    source: Source = "card"
    transcript: str | None = None
    with_note: bool = True

    @property
    def document_id(self) -> str:
        return ids.visit(self.visit.id)


class SavedOutcome(BaseModel):
    outcome: Outcome
    visit_date: date | None = None
    transcript: str | None = None
    with_note: bool = True

    @property
    def document_id(self) -> str:
        return ids.outcome(self.outcome.visit_id)


def saved_visit_memory(book: FieldBook, saved: SavedVisit) -> MemoryItem:
    """The memory a saved visit is in the bank: Save, import and rebuild all call this."""
    return visit_memory(book, saved.visit, saved.transcript, saved.with_note)


def saved_outcome_memory(book: FieldBook, saved: SavedOutcome) -> MemoryItem:
    return outcome_memory(book, saved.outcome, saved.visit_date, saved.transcript, saved.with_note)


class VisitRow(Base):
    __tablename__ = "agri_visits"
    __table_args__ = (
        UniqueConstraint("tenant_id", "key", name="uq_agri_visits_tenant_key"),
        Index("ix_agri_visits_farmer", "tenant_id", "farmer_id", "visit_date"),
        Index("ix_agri_visits_village", "tenant_id", "village", "visit_date"),
    )

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    visit_id: Mapped[str] = mapped_column(String(120), primary_key=True)
    key: Mapped[str] = mapped_column(String(120))
    document_id: Mapped[str] = mapped_column(String(200))
    farmer_id: Mapped[str] = mapped_column(String(64))
    village: Mapped[str] = mapped_column(String(80))
    crop: Mapped[str] = mapped_column(String(64))
    officer_id: Mapped[str] = mapped_column(String(64))
    visit_date: Mapped[date] = mapped_column(Date)
    source: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16))
    """saved (an outcome still to come) or answered (its outcome is recorded)."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OutcomeRow(Base):
    __tablename__ = "agri_outcomes"
    __table_args__ = (Index("ix_agri_outcomes_village", "tenant_id", "village", "outcome_date"),)

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    visit_id: Mapped[str] = mapped_column(String(120), primary_key=True)
    document_id: Mapped[str] = mapped_column(String(200))
    farmer_id: Mapped[str] = mapped_column(String(64))
    village: Mapped[str] = mapped_column(String(80))
    crop: Mapped[str] = mapped_column(String(64))
    outcome_date: Mapped[date] = mapped_column(Date)
    result: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SaveResult(BaseModel):
    added: bool
    """False when the same visit was already saved exactly so (an import run twice, a double save)."""
    replaced: list[str] = []
    """Document ids of the rows this save re-keyed away (the visit saved before under another date)."""


def _now() -> datetime:
    return datetime.now(timezone.utc)


class VisitRecords:
    """The saved visits and outcomes of every tenant."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save_visit(self, tenant: str, saved: SavedVisit) -> SaveResult:
        """Insert or replace the visit; a row captured as the same visit under another id goes, with its
        outcome, and their document ids are returned so their memories can be removed."""
        visit = saved.visit
        if not (visit.farmer_id and visit.village and visit.crop):
            raise ValueError("a saved visit needs a farmer, a village and a crop")
        data = saved.model_dump(mode="json")
        with self.database.session() as session:
            older = list(session.scalars(select(VisitRow).where(
                VisitRow.tenant_id == tenant, VisitRow.key == saved.key, VisitRow.visit_id != visit.id)))
            replaced = [row.document_id for row in older]
            for row in older:
                outcome = session.get(OutcomeRow, (tenant, row.visit_id))
                if outcome is not None:
                    replaced.append(outcome.document_id)
                    session.delete(outcome)
                session.delete(row)
            session.flush()
            current = session.get(VisitRow, (tenant, visit.id))
            if current is not None and current.data == data and current.key == saved.key:
                return SaveResult(added=False, replaced=replaced)
            if current is None:
                current = VisitRow(tenant_id=tenant, visit_id=visit.id, state="saved")
                session.add(current)
            current.key, current.document_id, current.source = saved.key, saved.document_id, saved.source
            current.farmer_id, current.village, current.crop = visit.farmer_id, visit.village, visit.crop
            current.officer_id, current.visit_date = visit.officer_id, visit.date
            current.data, current.saved_at = data, _now()
        return SaveResult(added=True, replaced=replaced)

    def save_outcome(self, tenant: str, saved: SavedOutcome) -> bool:
        """Insert or replace the outcome of a visit and mark the visit answered; False if it was already so."""
        outcome = saved.outcome
        if outcome.result is None:
            raise ValueError("an outcome needs a result before it is saved")
        data = saved.model_dump(mode="json")
        with self.database.session() as session:
            visit = session.get(VisitRow, (tenant, outcome.visit_id))
            if visit is not None:
                visit.state = "answered"
            current = session.get(OutcomeRow, (tenant, outcome.visit_id))
            if current is not None and current.data == data:
                return False
            if current is None:
                current = OutcomeRow(tenant_id=tenant, visit_id=outcome.visit_id)
                session.add(current)
            current.document_id, current.farmer_id, current.village = saved.document_id, outcome.farmer_id, outcome.village
            current.crop, current.outcome_date, current.result = outcome.crop, outcome.date, outcome.result
            current.data, current.saved_at = data, _now()
        return True

    def _data(self, row: type[VisitRow] | type[OutcomeRow], tenant: str, farmer_id: str | None, village: str | None,
              until: date | None) -> list[dict[str, Any]]:
        day = VisitRow.visit_date if row is VisitRow else OutcomeRow.outcome_date
        query = select(row.data).where(row.tenant_id == tenant)
        if farmer_id is not None:
            query = query.where(row.farmer_id == farmer_id)
        if village is not None:
            query = query.where(row.village == village)
        if until is not None:
            query = query.where(day <= until)
        with self.database.session() as session:
            return list(session.scalars(query.order_by(day, row.visit_id)))

    def visits(self, tenant: str, farmer_id: str | None = None, village: str | None = None,
               until: date | None = None) -> list[SavedVisit]:
        """The tenant's saved visits (of one farmer or village, up to a day), oldest first."""
        return [SavedVisit.model_validate(r) for r in self._data(VisitRow, tenant, farmer_id, village, until)]

    def outcomes(self, tenant: str, farmer_id: str | None = None, village: str | None = None,
                 until: date | None = None) -> list[SavedOutcome]:
        return [SavedOutcome.model_validate(r) for r in self._data(OutcomeRow, tenant, farmer_id, village, until)]

    def last_visit(self, tenant: str, farmer_id: str, until: date | None = None) -> SavedVisit | None:
        found = self.visits(tenant, farmer_id=farmer_id, until=until)
        return found[-1] if found else None

    def unanswered(self, tenant: str, officer_id: str | None = None) -> list[SavedVisit]:
        """Saved visits whose outcome is still to come (pending follow-ups), oldest first."""
        query = select(VisitRow.data).where(VisitRow.tenant_id == tenant, VisitRow.state == "saved")
        if officer_id is not None:
            query = query.where(VisitRow.officer_id == officer_id)
        with self.database.session() as session:
            rows = list(session.scalars(query.order_by(VisitRow.visit_date, VisitRow.visit_id)))
        return [SavedVisit.model_validate(r) for r in rows]

    def visit(self, tenant: str, visit_id: str) -> SavedVisit | None:
        with self.database.session() as session:
            row = session.get(VisitRow, (tenant, visit_id))
            return SavedVisit.model_validate(row.data) if row is not None else None

    def outcome(self, tenant: str, visit_id: str) -> SavedOutcome | None:
        with self.database.session() as session:
            row = session.get(OutcomeRow, (tenant, visit_id))
            return SavedOutcome.model_validate(row.data) if row is not None else None

    def of_farmer(self, tenant: str, farmer_id: str) -> tuple[list[SavedVisit], list[SavedOutcome]]:
        return self.visits(tenant, farmer_id=farmer_id), self.outcomes(tenant, farmer_id=farmer_id)

    def has_key(self, tenant: str, key: str) -> bool:
        """Whether a visit captured as `key` is saved (under whatever id its date gives it now)."""
        with self.database.session() as session:
            return session.scalar(select(VisitRow.visit_id).where(VisitRow.tenant_id == tenant,
                                                                  VisitRow.key == key)) is not None

    def remove_visit(self, tenant: str, visit_id: str) -> list[str]:
        """Remove one visit and its outcome; return their document ids (for their memories to go too)."""
        with self.database.session() as session:
            gone: list[str] = []
            for row in (session.get(OutcomeRow, (tenant, visit_id)), session.get(VisitRow, (tenant, visit_id))):
                if row is not None:
                    gone.append(row.document_id)
                    session.delete(row)
            return gone

    def farmer_ids(self, tenant: str) -> list[str]:
        """Every farmer id the tenant's visits are filed under, as written."""
        with self.database.session() as session:
            return list(session.scalars(select(VisitRow.farmer_id).where(VisitRow.tenant_id == tenant).distinct()))

    def erase_farmer(self, tenant: str, farmer_id: str) -> int:
        """Remove every visit and outcome of the farmer; return how many rows there were."""
        with self.database.session() as session:
            gone = session.execute(delete(VisitRow).where(VisitRow.tenant_id == tenant, VisitRow.farmer_id == farmer_id))
            gone_outcomes = session.execute(delete(OutcomeRow).where(
                OutcomeRow.tenant_id == tenant, OutcomeRow.farmer_id == farmer_id))
            return int(gone.rowcount) + int(gone_outcomes.rowcount)  # type: ignore[attr-defined]


def memories_of(book: FieldBook, visits: Iterable[SavedVisit], outcomes: Iterable[SavedOutcome]) -> list[MemoryItem]:
    """Every memory these records say the bank holds, in date order."""
    items = [saved_visit_memory(book, v) for v in visits] + [saved_outcome_memory(book, o) for o in outcomes]
    return sorted(items, key=lambda i: (i.event_time, i.document_id))


def save_season(records: VisitRecords, tenant: str, book: FieldBook) -> list[MemoryItem]:
    """Write the book's season (the demo's) as records and return the memories they make (seed time only)."""
    season = book.season
    dates = {v.id: v.date for v in season.visits}
    visits = [SavedVisit(visit=visit, key=visit.id, source="seed") for visit in season.visits]
    outcomes = [SavedOutcome(outcome=o, visit_date=dates.get(o.visit_id)) for o in season.outcomes]
    for saved in visits:
        records.save_visit(tenant, saved)
    for saved_outcome in outcomes:
        records.save_outcome(tenant, saved_outcome)
    return memories_of(book, visits, outcomes)
