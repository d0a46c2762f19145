"""The audit of forget and export requests, in the one database: who asked, when, about whom, how much was held,
kept or erased, and the outcome; never the content. An old audit/subjects.jsonl is moved in once."""

import json
import logging
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Integer, String, Text, select
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from bot.store.sql import utc

log = logging.getLogger(__name__)

Outcome = Literal["done", "declined", "nothing held", "failed"]
LEGACY_FILE = Path("audit") / "subjects.jsonl"


class SubjectAuditRow(Base):
    __tablename__ = "subject_audit"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    action: Mapped[str] = mapped_column(String(16))
    by_user: Mapped[str] = mapped_column(String(80))
    via: Mapped[str] = mapped_column(String(16))
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    subject_id: Mapped[str] = mapped_column(String(200))
    held: Mapped[str] = mapped_column(Text)
    """JSON {"store:kind": count} of what was held (kept items included, under their own kinds)."""
    kept: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str] = mapped_column(String(16))


class AuditEntry(BaseModel):
    at: datetime
    action: Literal["forget", "export"]
    by: str
    via: str = "cli"
    tenant: str
    kind: str
    subject_id: str
    held: dict[str, int] = Field(default_factory=dict)
    kept: int = 0
    outcome: Outcome


class SubjectAudit:
    def __init__(self, database: Database) -> None:
        self._db = database

    def record(self, entry: AuditEntry) -> None:
        with self._db.session() as s:
            s.add(SubjectAuditRow(at=entry.at, action=entry.action, by_user=entry.by, via=entry.via,
                                  tenant_id=entry.tenant, kind=entry.kind, subject_id=entry.subject_id,
                                  held=json.dumps(entry.held, sort_keys=True), kept=entry.kept,
                                  outcome=entry.outcome))

    def entries(self, tenant: str | None = None) -> list[AuditEntry]:
        query = select(SubjectAuditRow).order_by(SubjectAuditRow.seq)
        if tenant is not None:
            query = query.where(SubjectAuditRow.tenant_id == tenant)
        with self._db.session() as s:
            return [AuditEntry(at=utc(r.at), action=r.action, by=r.by_user, via=r.via,  # type: ignore[arg-type]
                               tenant=r.tenant_id, kind=r.kind, subject_id=r.subject_id, held=json.loads(r.held),
                               kept=r.kept, outcome=r.outcome) for r in s.scalars(query)]  # type: ignore[arg-type]


def import_legacy_audit(database: Database, state_dir: Path) -> int:
    """Move an audit/subjects.jsonl left by an older version into the table; the file is renamed, not lost."""
    path = state_dir / LEGACY_FILE
    if not path.exists():
        return 0
    audit = SubjectAudit(database)
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for line in lines:
        audit.record(AuditEntry.model_validate_json(line))
    path.rename(path.with_name(path.name + ".imported"))
    log.info("moved %s subject audit entries into the database", len(lines))
    return len(lines)
