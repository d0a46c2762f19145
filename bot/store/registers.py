"""A pack's registers in the one database: rows keyed by (tenant, kind, natural key), and a version per tenant.

Each pack declares its own two tables on `Base` with the mixins below (so the core never imports a pack).
A row keeps the record as the pack validated it (`data`) and the id as the person wrote it (`label`).
Every write bumps the tenant's version in the same transaction, so a cached repository notices with one
primary-key read.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from threading import Lock
from typing import Any, Generic, TypeVar

from sqlalchemy import JSON, DateTime, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from bot.store.db import Database

Record = dict[str, Any]


class RegisterRowMixin:
    """One register record: a farmer, a case, a vendor, ... of one tenant."""

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    label: Mapped[str] = mapped_column(String(300))
    data: Mapped[Record] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RegisterVersionMixin:
    """How many times a tenant's registers of this pack have changed; caches compare it."""

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class StoredRecord:
    key: str
    label: str
    data: Record


class RegisterStore:
    """Reads and writes one pack's register tables."""

    def __init__(self, database: Database, rows: type[RegisterRowMixin], versions: type[RegisterVersionMixin]) -> None:
        self.database = database
        self._rows: Any = rows
        self._versions: Any = versions

    def version(self, tenant: str) -> int:
        # Asked several times per message by every cached repository: one indexed read on a pooled
        # connection, without an ORM session's identity map and commit around it.
        table = self._versions.__table__
        with self.database.engine.connect() as connection:
            found = connection.execute(select(table.c.version).where(table.c.tenant_id == tenant)).scalar()
        return int(found) if found is not None else 0

    def records(self, tenant: str, kind: str | None = None) -> dict[str, dict[str, StoredRecord]]:
        """Every record of the tenant, by kind then key (one query)."""
        query = select(self._rows).where(self._rows.tenant_id == tenant)
        if kind is not None:
            query = query.where(self._rows.kind == kind)
        found: dict[str, dict[str, StoredRecord]] = {}
        with self.database.session() as session:
            for row in session.scalars(query.order_by(self._rows.kind, self._rows.key)):
                found.setdefault(row.kind, {})[row.key] = StoredRecord(key=row.key, label=row.label, data=row.data)
        return found

    def write(self, tenant: str, kind: str, upserts: Mapping[str, StoredRecord], replace: bool = False) -> None:
        """Insert or update the given records; with replace, records of this kind not given are removed."""
        now = datetime.now(timezone.utc)
        with self.database.session() as session:
            if replace:
                session.execute(delete(self._rows).where(
                    self._rows.tenant_id == tenant, self._rows.kind == kind,
                    self._rows.key.not_in(list(upserts)) if upserts else self._rows.key.is_not(None)))
            current = {row.key: row for row in session.scalars(select(self._rows).where(
                self._rows.tenant_id == tenant, self._rows.kind == kind, self._rows.key.in_(list(upserts))))}
            for key, record in upserts.items():
                row = current.get(key)
                if row is None:
                    session.add(self._rows(tenant_id=tenant, kind=kind, key=key, label=record.label,
                                           data=record.data, updated_at=now))
                else:
                    row.label, row.data, row.updated_at = record.label, record.data, now
            self._bump(session, tenant)

    def erase(self, tenant: str, keys: list[tuple[str, str]]) -> int:
        """Remove the given (kind, key) records of the tenant; return how many there were."""
        if not keys:
            return 0
        removed = 0
        with self.database.session() as session:
            for kind, key in keys:
                result = session.execute(delete(self._rows).where(
                    self._rows.tenant_id == tenant, self._rows.kind == kind, self._rows.key == key))
                removed += int(result.rowcount)  # type: ignore[attr-defined]
            self._bump(session, tenant)
        return removed

    def _bump(self, session: Session, tenant: str) -> None:
        row = session.get(self._versions, tenant, with_for_update=True)
        if row is None:
            session.add(self._versions(tenant_id=tenant, version=1))
        else:
            row.version += 1


Built = TypeVar("Built")


class TenantCache(Generic[Built]):
    """A pack's domain object per tenant, rebuilt only when the tenant's register version moved."""

    def __init__(self, store: RegisterStore, build: Callable[[dict[str, dict[str, StoredRecord]]], Built]) -> None:
        self.store = store
        self._build = build
        self._cached: dict[str, tuple[int, Built]] = {}
        self._lock = Lock()

    def for_tenant(self, tenant: str) -> Built:
        version = self.store.version(tenant)
        with self._lock:
            hit = self._cached.get(tenant)
            if hit is not None and hit[0] == version:
                return hit[1]
        built = self._build(self.store.records(tenant))
        with self._lock:
            self._cached[tenant] = (version, built)
        return built


def create_register_tables(rows_table: str, versions_table: str) -> None:
    """For a pack's migration: its records table and its per-tenant version table."""
    import sqlalchemy as sa
    from alembic import op

    op.create_table(
        rows_table,
        sa.Column("tenant_id", sa.String(41), primary_key=True),
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("label", sa.String(300), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        versions_table,
        sa.Column("tenant_id", sa.String(41), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
