"""The overrides clerks have asked for and not yet given a reason for, one per person (`ap_pending_reasons`)."""

from datetime import UTC, datetime

from pydantic import BaseModel
from sqlalchemy import DateTime, String, delete
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import rowcount


class PendingReasonRow(Base):
    __tablename__ = "ap_pending_reasons"

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(20))
    action: Mapped[str] = mapped_column(String(16))
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PendingReason(BaseModel):
    run_id: str
    action: str
    asked_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class ReasonAsks:
    """The pending "why?" of each clerk, over the one database."""

    database: Database

    def ask_reason(self, tenant: str, user_id: str, run_id: str, action: str) -> None:
        """Keep the override this person asked for until their reason arrives (a newer ask replaces it)."""
        with self.database.session() as session:
            session.execute(delete(PendingReasonRow).where(PendingReasonRow.tenant_id == tenant,
                                                           PendingReasonRow.user_id == user_id))
            session.add(PendingReasonRow(tenant_id=tenant, user_id=user_id, run_id=run_id, action=action,
                                         asked_at=_now()))

    def pending_reason(self, tenant: str, user_id: str) -> PendingReason | None:
        with self.database.session() as session:
            row = session.get(PendingReasonRow, (tenant, user_id))
            if row is None:
                return None
            return PendingReason(run_id=row.run_id, action=row.action, asked_at=_utc(row.asked_at))

    def take_reason(self, tenant: str, user_id: str, run_id: str) -> bool:
        """Remove the pending ask for this run; True for the one caller that removed it."""
        with self.database.session() as session:
            result = session.execute(delete(PendingReasonRow).where(
                PendingReasonRow.tenant_id == tenant, PendingReasonRow.user_id == user_id,
                PendingReasonRow.run_id == run_id))
            return rowcount(result) == 1
