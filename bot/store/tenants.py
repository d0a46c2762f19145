"""Tenants: each organisation (a distributor, a practice, an AP team) owns its people, registers and memory."""

from datetime import datetime, timezone

from sqlalchemy import DateTime, String, select
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.base import Base
from bot.store.db import Database


class TenantRow(Base):
    __tablename__ = "tenants"

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def ensure_tenant(database: Database, tenant_id: str, name: str | None = None) -> None:
    """Create the tenant if it does not exist yet (idempotent, safe under concurrent callers)."""
    with database.session() as session:
        if session.get(TenantRow, tenant_id) is None:
            session.add(TenantRow(tenant_id=tenant_id, name=name or tenant_id, created_at=datetime.now(timezone.utc)))


def tenant_ids(database: Database) -> list[str]:
    with database.session() as session:
        return list(session.scalars(select(TenantRow.tenant_id).order_by(TenantRow.tenant_id)))
