"""The AP audit log: every step of every run, and each clerk's choice, in the one database (ap_0002_audit).

It answers "why did the agent hold this payment?" without memory: the steps, the flags, the memories kept
(by document id) and what was retained. It never holds invoice text or bank numbers, only ids and codes.
"""

import json
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import DateTime, Integer, String, Text, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from bot.store.sql import rowcount, utc

Action = Literal[
    "INVOICE_RECEIVED", "INVOICE_REFUSED", "VENDOR_IDENTIFIED", "MATCH_DONE", "MEMORY_DISABLED",
    "MEMORY_SKIPPED_NO_HISTORY", "MEMORY_RECALLED", "MEMORY_ERROR", "RISK_EVALUATED", "DECISION_MADE",
    "AGENT_MEMORY_RETAINED", "AGENT_MEMORY_QUEUED", "AGENT_MEMORY_ALREADY_RETAINED", "AGENT_MEMORY_REJECTED",
    "RETAIN_NOT_NEEDED", "CLERK_ACTION", "RESOLUTION_RETAINED", "RESOLUTION_QUEUED", "LEDGER_RECORDED",
    "PAID", "LEDGER_SUPERSEDED", "NOTE_RECORDED",
]



class AuditRow(Base):
    __tablename__ = "ap_audit"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    run_id: Mapped[str] = mapped_column(String(64))
    bank_id: Mapped[str] = mapped_column(String(128))
    vendor_id: Mapped[str | None] = mapped_column(String(64))
    invoice_number: Mapped[str | None] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[str] = mapped_column(Text)


class RunRow(Base):
    __tablename__ = "ap_runs"
    run_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    bank_id: Mapped[str] = mapped_column(String(128))
    user_id: Mapped[str] = mapped_column(String(64))
    report: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    clerk_action: Mapped[str | None] = mapped_column(String(32))
    clerk_user: Mapped[str | None] = mapped_column(String(64))
    clerk_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuditEntry(BaseModel):
    seq: int
    at: datetime
    run_id: str
    bank_id: str
    vendor_id: str | None
    invoice_number: str | None
    action: Action
    detail: dict[str, Any]


class RunRecord(BaseModel):
    """A decision shown to a clerk, waiting for (or holding) their choice."""

    run_id: str
    bank_id: str
    user_id: str
    report: dict[str, Any]
    clerk_action: str | None
    clerk_user: str | None


class AuditLog:
    def __init__(self, database: Database) -> None:
        self._db = database

    def close(self) -> None:
        """Nothing to close: the Database belongs to the App."""

    def record(self, run_id: str, bank_id: str, action: Action, /, vendor_id: str | None = None,
               invoice_number: str | None = None, **detail: Any) -> None:
        """Append one step to the log."""
        with self._db.session() as s:
            s.add(AuditRow(at=datetime.now(timezone.utc), run_id=run_id, bank_id=bank_id, vendor_id=vendor_id,
                           invoice_number=invoice_number, action=action,
                           detail=json.dumps(detail, default=str, ensure_ascii=False)))

    def entries(self, bank_id: str | None = None, invoice_number: str | None = None, run_id: str | None = None,
                limit: int = 500) -> list[AuditEntry]:
        """Return entries in the order they happened, optionally for one bank, invoice or run."""
        query = select(AuditRow)
        for column, value in ((AuditRow.bank_id, bank_id), (AuditRow.invoice_number, invoice_number),
                              (AuditRow.run_id, run_id)):
            if value is not None:
                query = query.where(column == value)
        with self._db.session() as s:
            rows = list(s.scalars(query.order_by(AuditRow.seq.desc()).limit(limit)))
        return [AuditEntry(seq=r.seq, at=utc(r.at), run_id=r.run_id, bank_id=r.bank_id,  # type: ignore[arg-type]
                           vendor_id=r.vendor_id, invoice_number=r.invoice_number, action=r.action,  # type: ignore[arg-type]
                           detail=json.loads(r.detail)) for r in reversed(rows)]

    def retained_digest(self, bank_id: str, document_id: str) -> str | None:
        """Return the content digest last retained under this document id in this bank, if any."""
        with self._db.session() as s:
            details = list(s.scalars(select(AuditRow.detail).where(
                AuditRow.bank_id == bank_id, AuditRow.action == "AGENT_MEMORY_RETAINED").order_by(AuditRow.seq.desc())))
        for raw in details:
            detail = json.loads(raw)
            if detail.get("document_id") == document_id:
                return detail.get("digest")
        return None

    def save_run(self, run_id: str, bank_id: str, user_id: str, report: dict[str, Any]) -> None:
        with self._db.session() as s:
            s.add(RunRow(run_id=run_id, bank_id=bank_id, user_id=user_id, created_at=datetime.now(timezone.utc),
                         report=json.dumps(report, default=str, ensure_ascii=False)))

    def run(self, run_id: str) -> RunRecord | None:
        with self._db.session() as s:
            row = s.get(RunRow, run_id)
            if row is None:
                return None
            return RunRecord(run_id=row.run_id, bank_id=row.bank_id, user_id=row.user_id,
                             report=json.loads(row.report), clerk_action=row.clerk_action, clerk_user=row.clerk_user)

    def claim_clerk_action(self, run_id: str, action: str, user_id: str) -> bool:
        """Record the clerk's choice once: a second tap (or a second clerk, or process) loses harmlessly."""
        with self._db.session() as s:
            result = s.execute(update(RunRow).where(RunRow.run_id == run_id, RunRow.clerk_action.is_(None)).values(
                clerk_action=action, clerk_user=user_id, clerk_at=datetime.now(timezone.utc)))
            return rowcount(result) == 1
