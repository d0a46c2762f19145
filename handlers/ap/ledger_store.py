"""The tenant's AP ledger in the one database: the invoices decided and paid, every decision and clerk action.

`ap_ledger_entries` holds one live entry per (tenant, vendor, folded invoice number): the first decision of an
invoice claims it with an INSERT the unique key refuses a second time, so two clerks deciding the same invoice
at once record one entry and the later one is decided again against it (and blocked as a duplicate).
`ap_ledger_actions` is the log of who did what, when and why. `ap_pending_reasons` holds the override a clerk
has asked for and not yet given a reason for.
"""

import json
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import (
    Date,
    DateTime,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import rowcount
from handlers.ap.ledgerview import (
    BilledLine,
    LedgerEntry,
    normalise_number,
)

ActionKind = Literal["decision", "approve", "hold", "review", "override", "paid"]


class EntryRow(Base):
    __tablename__ = "ap_ledger_entries"
    __table_args__ = (UniqueConstraint("tenant_id", "vendor_id", "number_key", name="uq_ap_ledger_entries_live"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    vendor_id: Mapped[str] = mapped_column(String(40))
    number_key: Mapped[str] = mapped_column(String(80))
    invoice_number: Mapped[str] = mapped_column(String(80))
    invoice_date: Mapped[date] = mapped_column(Date)
    total: Mapped[str] = mapped_column(String(24))
    """Exact rupees as text: SQLite has no decimal type and a float would lose paise."""
    po_number: Mapped[str | None] = mapped_column(String(200), nullable=True)
    billed: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    agent_status: Mapped[str] = mapped_column(String(20))
    clerk_action: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The clerk's choice on the run that holds this entry (approve, hold, review), once made."""
    decision_id: Mapped[str] = mapped_column(String(20))
    decided_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_by: Mapped[str] = mapped_column(String(80))
    pay_to_account: Mapped[str | None] = mapped_column(String(40), nullable=True)
    paid_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    paid_to_account: Mapped[str | None] = mapped_column(String(40), nullable=True)


class ActionRow(Base):
    __tablename__ = "ap_ledger_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(String(41), index=True)
    run_id: Mapped[str] = mapped_column(String(20))
    vendor_id: Mapped[str] = mapped_column(String(40))
    invoice_number: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(16))
    agent_status: Mapped[str] = mapped_column(String(20))
    by_user: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)


class PendingReasonRow(Base):
    __tablename__ = "ap_pending_reasons"

    tenant_id: Mapped[str] = mapped_column(String(41), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    run_id: Mapped[str] = mapped_column(String(20))
    action: Mapped[str] = mapped_column(String(16))
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RecordedAction(BaseModel):
    run_id: str
    vendor_id: str
    invoice_number: str
    action: ActionKind
    agent_status: str
    by_user: str
    at: datetime
    reason: str | None


class PendingReason(BaseModel):
    run_id: str
    action: str
    asked_at: datetime


class RecordedEntry(BaseModel):
    """A live ledger entry with what the ledger view does not carry: the agent's status and who decided."""

    entry: LedgerEntry
    agent_status: str
    decided_by: str
    pay_to_account: str | None


class PayResult(BaseModel):
    outcome: Literal["paid", "not_found", "ambiguous", "already_paid", "not_approved"]
    entry: LedgerEntry | None = None
    candidates: list[str] = []


def _now() -> datetime:
    return datetime.now(UTC)


def _entry(row: EntryRow) -> LedgerEntry:
    decided_at = row.decided_at if row.decided_at.tzinfo else row.decided_at.replace(tzinfo=UTC)
    return LedgerEntry(
        vendor_id=row.vendor_id, invoice_number=row.invoice_number, number_key=row.number_key,
        invoice_date=row.invoice_date, total=Decimal(row.total), po_number=row.po_number,
        billed=[BilledLine.model_validate(b) for b in json.loads(row.billed)], status=row.status,  # type: ignore[arg-type]
        decided_at=decided_at, decision_id=row.decision_id, paid_on=row.paid_on, paid_to_account=row.paid_to_account,
    )


class DecisionBook:
    """The tenant ledger of decisions and payments, over the one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def claim(self, tenant: str, entry: LedgerEntry, agent_status: str, by_user: str,
              pay_to_account: str | None) -> LedgerEntry | None:
        """Insert the live entry for this invoice; None when claimed, else the entry that was there first."""
        row = EntryRow(
            tenant_id=tenant, vendor_id=entry.vendor_id, number_key=entry.number_key,
            invoice_number=entry.invoice_number, invoice_date=entry.invoice_date, total=f"{entry.total:f}",
            po_number=entry.po_number, billed=json.dumps([b.model_dump(mode="json") for b in entry.billed]),
            status=entry.status, agent_status=agent_status, decision_id=entry.decision_id or "-",
            decided_at=entry.decided_at or _now(), decided_by=by_user, pay_to_account=pay_to_account,
        )
        try:
            with self.database.session() as session:
                session.add(row)
        except IntegrityError:
            return self.entry(tenant, entry.vendor_id, entry.invoice_number)
        return None

    def entry(self, tenant: str, vendor_id: str, invoice_number: str) -> LedgerEntry | None:
        found = self.recorded(tenant, vendor_id, invoice_number)
        return found.entry if found else None

    def recorded(self, tenant: str, vendor_id: str, invoice_number: str) -> RecordedEntry | None:
        with self.database.session() as session:
            row = session.scalars(select(EntryRow).where(
                EntryRow.tenant_id == tenant, EntryRow.vendor_id == vendor_id,
                EntryRow.number_key == normalise_number(invoice_number))).first()
            if row is None:
                return None
            return RecordedEntry(entry=_entry(row), agent_status=row.agent_status, decided_by=row.decided_by,
                                 pay_to_account=row.pay_to_account)

    def entries(self, tenant: str) -> list[LedgerEntry]:
        """The tenant's recorded entries, oldest decision first."""
        with self.database.session() as session:
            rows = session.scalars(select(EntryRow).where(EntryRow.tenant_id == tenant).order_by(EntryRow.id))
            return [_entry(r) for r in rows]

    def recorded_entries(self, tenant: str) -> list[RecordedEntry]:
        with self.database.session() as session:
            rows = session.scalars(select(EntryRow).where(EntryRow.tenant_id == tenant).order_by(EntryRow.id))
            return [RecordedEntry(entry=_entry(r), agent_status=r.agent_status, decided_by=r.decided_by,
                                  pay_to_account=r.pay_to_account) for r in rows]

    def set_clerk_action(self, tenant: str, vendor_id: str, invoice_number: str, action: str,
                         decision_id: str) -> bool:
        """Note the clerk's choice on the live entry (approve moves it to approved); only the run that holds the
        entry moves it, so approving a blocked duplicate never touches the first invoice's entry."""
        values: dict[str, str] = {"clerk_action": action}
        if action == "approve":
            values["status"] = "approved"
        with self.database.session() as session:
            result = session.execute(update(EntryRow).where(
                EntryRow.tenant_id == tenant, EntryRow.vendor_id == vendor_id,
                EntryRow.number_key == normalise_number(invoice_number), EntryRow.status != "paid",
                EntryRow.decision_id == decision_id).values(**values))
            return rowcount(result) == 1

    def log(self, tenant: str, run_id: str, vendor_id: str, invoice_number: str, action: ActionKind,
            agent_status: str, by_user: str, reason: str | None = None) -> None:
        """Append who did what to which invoice, when, and why."""
        with self.database.session() as session:
            session.add(ActionRow(tenant_id=tenant, run_id=run_id, vendor_id=vendor_id, invoice_number=invoice_number,
                                  action=action, agent_status=agent_status, by_user=by_user, at=_now(),
                                  reason=reason))

    def actions(self, tenant: str, vendor_id: str | None = None, action: ActionKind | None = None) -> list[RecordedAction]:
        where = [ActionRow.tenant_id == tenant]
        if vendor_id is not None:
            where.append(ActionRow.vendor_id == vendor_id)
        if action is not None:
            where.append(ActionRow.action == action)
        with self.database.session() as session:
            rows = session.scalars(select(ActionRow).where(*where).order_by(ActionRow.id))
            return [RecordedAction(run_id=r.run_id, vendor_id=r.vendor_id, invoice_number=r.invoice_number,
                                   action=r.action, agent_status=r.agent_status, by_user=r.by_user,  # type: ignore[arg-type]
                                   at=r.at, reason=r.reason) for r in rows]

    def mark_paid(self, tenant: str, invoice_number: str, vendor_id: str | None, paid_on: date,
                  by_user: str) -> PayResult:
        """Mark an approved invoice paid, to the account it was decided with; it then counts in the history."""
        key = normalise_number(invoice_number)
        with self.database.session() as session:
            where = [EntryRow.tenant_id == tenant, EntryRow.number_key == key]
            if vendor_id is not None:
                where.append(EntryRow.vendor_id == vendor_id)
            rows = list(session.scalars(select(EntryRow).where(*where).with_for_update()))
            if not rows:
                return PayResult(outcome="not_found")
            if len(rows) > 1:
                return PayResult(outcome="ambiguous", candidates=[r.vendor_id for r in rows])
            row = rows[0]
            if row.status == "paid":
                return PayResult(outcome="already_paid", entry=_entry(row))
            agent_approved = row.status == "decided" and row.agent_status == "APPROVE" and row.clerk_action is None
            if row.status != "approved" and not agent_approved:
                return PayResult(outcome="not_approved", entry=_entry(row))
            row.status, row.paid_on, row.paid_to_account = "paid", paid_on, row.pay_to_account
            session.add(ActionRow(tenant_id=tenant, run_id=row.decision_id, vendor_id=row.vendor_id,
                                  invoice_number=row.invoice_number, action="paid", agent_status=row.agent_status,
                                  by_user=by_user, at=_now(), reason=None))
            session.flush()
            return PayResult(outcome="paid", entry=_entry(row))

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
            asked = row.asked_at if row.asked_at.tzinfo else row.asked_at.replace(tzinfo=UTC)
            return PendingReason(run_id=row.run_id, action=row.action, asked_at=asked)

    def take_reason(self, tenant: str, user_id: str, run_id: str) -> bool:
        """Remove the pending ask for this run; True for the one caller that removed it."""
        with self.database.session() as session:
            result = session.execute(delete(PendingReasonRow).where(
                PendingReasonRow.tenant_id == tenant, PendingReasonRow.user_id == user_id,
                PendingReasonRow.run_id == run_id))
            return rowcount(result) == 1


class RecordedView:
    """The ledger view a decision reads: the seeded/imported history plus everything recorded for the tenant."""

    def __init__(self, book: DecisionBook, history: list[LedgerEntry]) -> None:
        self.book = book
        self._history = list(history)

    def entries(self, tenant: str) -> list[LedgerEntry]:
        return [*self._history, *self.book.entries(tenant)]
