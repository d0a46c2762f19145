"""The confirmed entries of each tenant, in the one database: the truth for exact questions and an entry's life.

One row per entry (tenant, document id): a hearing, a listing, a step or a document of a case, written from the
confirmed card (or a confirmed backlog entry) together with its memory. The document id is the entry's for its
whole life: an edit keeps it (the memory is replaced and re-dated), a delete marks the row deleted (a re-upload
of the same page saves it again). Every save, edit and delete is audited with who and when.
"""

import json
from collections.abc import Iterable
from datetime import date, datetime, timezone
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Date, DateTime, Float, Integer, String, Text, delete, func, select
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from bot.store.sql import insert_ignore, upsert, utc
from handlers.legal.case_dates import issued_on
from handlers.legal.models import DATE_MOVING, HearingRecord

SUMMARY_CHARS = 600


class EntryRow(Base):
    __tablename__ = "legal_entries"

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    document_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    case_id: Mapped[str] = mapped_column(String(41))
    kind: Mapped[str] = mapped_column(String(16))
    hearing_date: Mapped[date] = mapped_column(Date)
    next_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    due_date: Mapped[date | None] = mapped_column(Date, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    source_file: Mapped[str] = mapped_column(String(300))
    author: Mapped[str] = mapped_column(String(120))
    author_id: Mapped[str] = mapped_column(String(80))
    upload_id: Mapped[str] = mapped_column(String(80))
    upload_kind: Mapped[str] = mapped_column(String(20))
    uploaded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    date_source: Mapped[str] = mapped_column(String(20))
    confidence: Mapped[float] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(10))
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changed_by: Mapped[str] = mapped_column(String(80))


class EntryAuditRow(Base):
    __tablename__ = "legal_entry_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(String(41))
    document_id: Mapped[str] = mapped_column(String(200))
    action: Mapped[str] = mapped_column(String(10))
    by_user: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    before: Mapped[str | None] = mapped_column(Text, nullable=True)
    after: Mapped[str | None] = mapped_column(Text, nullable=True)


class BackfillRow(Base):
    __tablename__ = "legal_entry_backfills"

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    done_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    entries: Mapped[int] = mapped_column(Integer)


class AuditEntry(BaseModel):
    document_id: str
    action: str
    by: str
    at: datetime
    before: dict[str, str] | None = None
    after: dict[str, str] | None = None


_FIELDS = ("case_id", "kind", "hearing_date", "next_date", "due_date", "text", "source_file", "author", "author_id",
           "upload_id", "upload_kind", "uploaded_at", "date_source", "confidence")
_AUDITED = ("case_id", "kind", "hearing_date", "next_date", "due_date", "text")


def _record(row: EntryRow) -> HearingRecord:
    return HearingRecord(
        document_id=row.document_id, case_id=row.case_id, kind=row.kind,  # type: ignore[arg-type]
        hearing_date=row.hearing_date, next_date=row.next_date, due_date=row.due_date, source_file=row.source_file, author=row.author,
        summary=row.text[:SUMMARY_CHARS], confidence=row.confidence, upload_kind=row.upload_kind, text=row.text,
        author_id=row.author_id, upload_id=row.upload_id, uploaded_at=utc(row.uploaded_at),
        date_source=row.date_source, state=row.state,  # type: ignore[arg-type]
    )


def _known_by(record: HearingRecord, day: date) -> bool:
    if record.hearing_date <= day:
        return True
    return record.kind == "listing" and record.uploaded_at is not None and issued_on(record) <= day


def _audited(record: HearingRecord | None) -> str | None:
    if record is None:
        return None
    values = record.model_dump(mode="json", include=set(_AUDITED))
    return json.dumps({k: "" if v is None else str(v) for k, v in values.items()}, sort_keys=True)


class Saved(BaseModel):
    record: HearingRecord
    """What the entry now is (a re-sent page's reading, with the fields a person corrected kept)."""
    before: HearingRecord | None
    """What was there before (None if nothing live)."""
    kept: list[str] = []
    """The fields a person corrected that a re-sent page's reading did not overwrite."""


def _corrected(session: Any, tenant: str, document_id: str) -> set[str]:
    """The fields an Edit of this entry ever changed."""
    fields: set[str] = set()
    query = select(EntryAuditRow).where(EntryAuditRow.tenant_id == tenant, EntryAuditRow.document_id == document_id,
                                        EntryAuditRow.action == "edit")
    for row in session.scalars(query):
        before, after = json.loads(row.before or "{}"), json.loads(row.after or "{}")
        fields |= {k for k in after if before.get(k) != after.get(k)}
    return fields


class EntryStore:
    """The repository of confirmed entries; every method is one short transaction."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def save(self, tenant: str, record: HearingRecord, by: str, action: str = "save") -> Saved:
        """Write an entry (a new one, the same page sent again, or an edit under its document id). The same page
        sent again never undoes a correction: the fields a person edited keep their edited values. Audited
        unless nothing changed."""
        now = datetime.now(timezone.utc)
        with self._db.session() as s:
            old = s.get(EntryRow, (tenant, record.document_id))
            before = _record(old) if old is not None and old.state == "saved" else None
            kept: list[str] = []
            if before is not None and action != "edit":
                kept = sorted(f for f in _corrected(s, tenant, record.document_id) if f in _AUDITED)
                record = record.model_copy(update={f: getattr(before, f) for f in kept})
            values = record.model_dump(include=set(_FIELDS))
            values.update(tenant_id=tenant, document_id=record.document_id, state="saved", changed_at=now,
                          changed_by=by, saved_at=old.saved_at if old is not None else now)
            upsert(s, EntryRow.__table__, values, keys=["tenant_id", "document_id"])
            after = _audited(record)
            if _audited(before) != after:
                s.add(EntryAuditRow(tenant_id=tenant, document_id=record.document_id, action=action, by_user=by,
                                    at=now, before=_audited(before), after=after))
        return Saved(record=record, before=before, kept=kept)

    def delete(self, tenant: str, document_id: str, by: str) -> HearingRecord | None:
        """Mark an entry deleted (audited); return it, or None when it was not live."""
        now = datetime.now(timezone.utc)
        with self._db.session() as s:
            row = s.get(EntryRow, (tenant, document_id))
            if row is None or row.state != "saved":
                return None
            record = _record(row)
            row.state, row.changed_at, row.changed_by = "deleted", now, by
            s.add(EntryAuditRow(tenant_id=tenant, document_id=document_id, action="delete", by_user=by, at=now,
                                before=_audited(record), after=None))
        return record

    def get(self, tenant: str, document_id: str) -> HearingRecord | None:
        """The live entry with this document id, or None."""
        with self._db.session() as s:
            row = s.get(EntryRow, (tenant, document_id))
            return _record(row) if row is not None and row.state == "saved" else None

    def _live(self, tenant: str):  # type: ignore[no-untyped-def]  # a select, refined by each caller
        return select(EntryRow).where(EntryRow.tenant_id == tenant, EntryRow.state == "saved")

    def of_case(self, tenant: str, case_id: str, as_of: date | None = None) -> list[HearingRecord]:
        """Every live entry of a case by date (none dated after as_of, but a cause list sent by then for a later
        day: it was known)."""
        query = self._live(tenant).where(EntryRow.case_id == case_id)
        with self._db.session() as s:
            rows = s.scalars(query.order_by(EntryRow.hearing_date, EntryRow.document_id)).all()
            records = [_record(r) for r in rows]
        return records if as_of is None else [r for r in records if _known_by(r, as_of)]

    def of_cases(self, tenant: str, case_ids: Iterable[str]) -> dict[str, list[HearingRecord]]:
        wanted = sorted(set(case_ids))
        found: dict[str, list[HearingRecord]] = {c: [] for c in wanted}
        with self._db.session() as s:
            for start in range(0, len(wanted), 500):
                query = self._live(tenant).where(EntryRow.case_id.in_(wanted[start:start + 500]))
                for row in s.scalars(query.order_by(EntryRow.hearing_date, EntryRow.document_id)):
                    found[row.case_id].append(_record(row))
        return found

    def naming(self, tenant: str, day: date) -> set[str]:
        """The cases with a hearing or listing that gave `day` as a next date: those a cause list must check."""
        query = (select(EntryRow.case_id).distinct()
                 .where(EntryRow.tenant_id == tenant, EntryRow.state == "saved", EntryRow.next_date == day,
                        EntryRow.kind.in_(sorted(DATE_MOVING))))
        with self._db.session() as s:
            return set(s.scalars(query).all())

    def due_on(self, tenant: str, day: date) -> list[HearingRecord]:
        """The steps due on `day` (a deadline an office note gave), by case."""
        query = self._live(tenant).where(EntryRow.kind == "step", EntryRow.due_date == day)
        with self._db.session() as s:
            return [_record(r) for r in s.scalars(query.order_by(EntryRow.case_id, EntryRow.document_id))]

    def all(self, tenant: str) -> list[HearingRecord]:
        with self._db.session() as s:
            rows = s.scalars(self._live(tenant).order_by(EntryRow.hearing_date, EntryRow.document_id)).all()
            return [_record(r) for r in rows]

    def count(self, tenant: str) -> int:
        with self._db.session() as s:
            return int(s.scalar(select(func.count()).select_from(EntryRow).where(EntryRow.tenant_id == tenant))
                       or 0)

    def audit(self, tenant: str, document_id: str | None = None) -> list[AuditEntry]:
        query = select(EntryAuditRow).where(EntryAuditRow.tenant_id == tenant)
        if document_id is not None:
            query = query.where(EntryAuditRow.document_id == document_id)
        with self._db.session() as s:
            return [AuditEntry(document_id=r.document_id, action=r.action, by=r.by_user, at=utc(r.at) or r.at,
                               before=json.loads(r.before) if r.before else None,
                               after=json.loads(r.after) if r.after else None)
                    for r in s.scalars(query.order_by(EntryAuditRow.id))]

    def add_missing(self, tenant: str, records: list[HearingRecord], by: str = "backfill") -> int:
        """Insert records whose document id has no row yet (an older bank read in); return how many."""
        now = datetime.now(timezone.utc)
        added = 0
        with self._db.session() as s:
            for record in records:
                values = record.model_dump(include=set(_FIELDS))
                values.update(tenant_id=tenant, document_id=record.document_id, state="saved", saved_at=now,
                              changed_at=now, changed_by=by)
                added += insert_ignore(s, EntryRow.__table__, values)
        return added

    def backfilled(self, tenant: str) -> bool:
        with self._db.session() as s:
            return s.get(BackfillRow, tenant) is not None

    def mark_backfilled(self, tenant: str, entries: int) -> None:
        with self._db.session() as s:
            upsert(s, BackfillRow.__table__, {"tenant_id": tenant, "done_at": datetime.now(timezone.utc),
                                              "entries": entries}, keys=["tenant_id"])

    def erase_case(self, tenant: str, case_id: str) -> list[str]:
        """Erase every row of a case (forget): the entries and their audit; return their document ids."""
        with self._db.session() as s:
            ids = list(s.scalars(select(EntryRow.document_id).where(EntryRow.tenant_id == tenant,
                                                                    EntryRow.case_id == case_id)))
            if ids:
                s.execute(delete(EntryAuditRow).where(EntryAuditRow.tenant_id == tenant,
                                                      EntryAuditRow.document_id.in_(ids)))
                s.execute(delete(EntryRow).where(EntryRow.tenant_id == tenant, EntryRow.case_id == case_id))
        return ids
