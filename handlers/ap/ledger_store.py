"""The tenant's AP ledger in the one database: one entry per invoice, moved through its life (lifecycle.py).

`ap_ledger_entries` holds one entry per (tenant, vendor, folded invoice number): the first decision of an
invoice claims it with an INSERT the unique key refuses a second time; deciding it again (a receipt arrived, a
corrected invoice, a second clerk) moves that same entry, and a paid or rejected one is never moved again.
Every move is a conditional UPDATE on the state it starts from, so two clerks never move one invoice twice.
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
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import rowcount
from handlers.ap.ledgerview import (
    BilledLine,
    LedgerEntry,
    normalise_number,
)
from handlers.ap.reason_asks import ReasonAsks
from handlers.ap.lifecycle import (
    CLOSED,
    OPEN,
    STATE_OF_ACTION,
    ActResult,
    ClerkAction,
    Decided,
    DecisionMemo,
    PayResult,
    RecordedEntry,
    may_act,
    reason_required,
    needs_second_person,
    payable,
    same_person,
    redecided_state,
)

ActionKind = Literal["decision", "approve", "hold", "review", "reject", "release", "override", "paid", "superseded",
                     "account_confirmed", "credit_note", "debit_note", "approval_asked"]


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
    state_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    state_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    state_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    content_key: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """A digest of the invoice as decided: a different one under the same number is a corrected invoice."""
    invoice_account: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The account the document asked to be paid to, as read (never paid to unless a clerk confirms it)."""
    confirmed_account: Mapped[str | None] = mapped_column(String(40), nullable=True)
    confirmed_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    memo: Mapped[str | None] = mapped_column(Text, nullable=True)
    """The decision's summary (lifecycle.DecisionMemo as JSON): what its memory is written from."""
    maker_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    maker_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    """Who asked to approve over a bank-account block and why (the maker); a second person approves it."""
    checker_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The second person who approved over the bank-account block (the checker); the account the invoice asked
    for is then `confirmed_account`, confirmed by both."""


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
    amount: Mapped[str | None] = mapped_column(String(24), nullable=True)
    """A credit or debit note's amount (exact rupees as text), on the log line of the invoice it is against."""


class RecordedAction(BaseModel):
    run_id: str
    vendor_id: str
    invoice_number: str
    action: ActionKind
    agent_status: str
    by_user: str
    at: datetime
    reason: str | None
    amount: Decimal | None = None


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _entry(row: EntryRow) -> LedgerEntry:
    return LedgerEntry(
        vendor_id=row.vendor_id, invoice_number=row.invoice_number, number_key=row.number_key,
        invoice_date=row.invoice_date, total=Decimal(row.total), po_number=row.po_number,
        billed=[BilledLine.model_validate(b) for b in json.loads(row.billed)], status=row.status,  # type: ignore[arg-type]
        decided_at=_utc(row.decided_at), decision_id=row.decision_id, paid_on=row.paid_on,
        paid_to_account=row.paid_to_account,
    )


def _recorded(row: EntryRow) -> RecordedEntry:
    return RecordedEntry(
        entry=_entry(row), agent_status=row.agent_status, decided_by=row.decided_by,
        state_by=row.state_by or row.decided_by, state_at=_utc(row.state_at or row.decided_at),
        state_reason=row.state_reason, content_key=row.content_key, invoice_account=row.invoice_account,
        confirmed_account=row.confirmed_account, confirmed_by=row.confirmed_by,
        memo=DecisionMemo.model_validate_json(row.memo) if row.memo else None, clerk_action=row.clerk_action,
        maker_by=row.maker_by, maker_reason=row.maker_reason, checker_by=row.checker_by)


_NO_APPROVERS: dict[str, object] = dict(maker_by=None, maker_reason=None, checker_by=None, confirmed_account=None,
                                        confirmed_by=None)
"""A move away from an approval ends a two-person approval: approving again takes two people again."""


def _digits(account: str) -> str:
    return "".join(ch for ch in account if ch.isdigit())


class DecisionBook(ReasonAsks):
    """The tenant ledger of decisions and payments, over the one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def record_decision(self, tenant: str, entry: LedgerEntry, agent_status: str, by_user: str, memo: DecisionMemo,
                        content_key: str, invoice_account: str | None, same_keys: tuple[str, ...] = ()) -> Decided:
        """Record a decision of this invoice: a new entry, or the same entry moved (decided again, corrected);
        a paid or rejected entry is left as it is (the decision is then its duplicate). `same_keys` are the keys
        an entry of this same invoice may carry (content_key's, and those of entries recorded before it)."""
        same = (None, content_key, *same_keys)
        for _ in range(3):
            with self.database.session() as session:
                row = self._row(session, tenant, entry.vendor_id, entry.number_key)
                if row is None:
                    fresh = self._new_row(tenant, entry, agent_status, by_user, memo, content_key, invoice_account)
                    try:
                        with self.database.session() as claim:
                            claim.add(fresh)
                    except IntegrityError:
                        continue  # another process recorded it a moment ago: move that entry instead
                    found = self._row(session, tenant, entry.vendor_id, entry.number_key)
                    assert found is not None
                    return Decided(outcome="new", record=_recorded(found))
                before = _recorded(row)
                state, outcome = redecided_state(row.status, row.agent_status, agent_status,
                                                 row.content_key in same)
                if outcome == "closed":
                    return Decided(outcome="closed", record=before, before=before)
                moved = self._redecide(session, row, entry, state, agent_status, by_user, memo, content_key,
                                       invoice_account, row.content_key in same)
                if not moved:
                    continue
                if outcome == "corrected":
                    session.add(ActionRow(
                        tenant_id=tenant, run_id=before.entry.decision_id or "-", vendor_id=row.vendor_id,
                        invoice_number=before.entry.invoice_number, action="superseded",
                        agent_status=before.agent_status, by_user=by_user, at=_now(),
                        reason=f"replaced by a changed invoice under its number; was {before.entry.total:f} dated "
                               f"{before.entry.invoice_date.isoformat()}, {before.state}"))
                session.flush()
                found = self._row(session, tenant, entry.vendor_id, entry.number_key)
                assert found is not None
                return Decided(outcome=outcome, record=_recorded(found), before=before)
        raise RuntimeError("the ledger entry kept changing under this decision")

    @staticmethod
    def _new_row(tenant: str, entry: LedgerEntry, agent_status: str, by_user: str, memo: DecisionMemo,
                 content_key: str, invoice_account: str | None) -> EntryRow:
        at = entry.decided_at or _now()
        return EntryRow(
            tenant_id=tenant, vendor_id=entry.vendor_id, number_key=entry.number_key,
            invoice_number=entry.invoice_number, invoice_date=entry.invoice_date, total=f"{entry.total:f}",
            po_number=entry.po_number, billed=json.dumps([b.model_dump(mode="json") for b in entry.billed]),
            status="decided", agent_status=agent_status, decision_id=entry.decision_id or "-", decided_at=at,
            decided_by=by_user, state_by=by_user, state_at=at, content_key=content_key,
            invoice_account=invoice_account, memo=memo.model_dump_json())

    @staticmethod
    def _redecide(session: Session, row: EntryRow, entry: LedgerEntry, state: str, agent_status: str,
                  by_user: str, memo: DecisionMemo, content_key: str, invoice_account: str | None,
                  same: bool) -> bool:
        at = entry.decided_at or _now()
        values: dict[str, object] = dict(
            billed=json.dumps([b.model_dump(mode="json") for b in entry.billed]), status=state,
            agent_status=agent_status, decision_id=entry.decision_id or "-", decided_at=at, decided_by=by_user,
            content_key=content_key, memo=memo.model_dump_json())
        if state != row.status or (state == "decided" and agent_status != row.agent_status):
            values.update(state_by=by_user, state_at=at, state_reason=None, clerk_action=None, **_NO_APPROVERS)
        if not same:
            # A corrected invoice: its own figures and account replace the earlier version's.
            values.update(invoice_number=entry.invoice_number, invoice_date=entry.invoice_date,
                          total=f"{entry.total:f}", po_number=entry.po_number, invoice_account=invoice_account,
                          state_by=by_user, state_at=at, state_reason=None, clerk_action=None, **_NO_APPROVERS)
        result = session.execute(update(EntryRow).where(
            EntryRow.id == row.id, EntryRow.status == row.status, EntryRow.decision_id == row.decision_id)
            .values(**values))
        return rowcount(result) == 1

    @staticmethod
    def _row(session: Session, tenant: str, vendor_id: str, number_key: str) -> EntryRow | None:
        session.expire_all()
        return session.scalars(select(EntryRow).where(
            EntryRow.tenant_id == tenant, EntryRow.vendor_id == vendor_id,
            EntryRow.number_key == number_key)).first()

    def _rows(self, session: Session, tenant: str, invoice_number: str, vendor_id: str | None) -> list[EntryRow]:
        where = [EntryRow.tenant_id == tenant, EntryRow.number_key == normalise_number(invoice_number)]
        if vendor_id is not None:
            where.append(EntryRow.vendor_id == vendor_id)
        return list(session.scalars(select(EntryRow).where(*where)))

    def entry(self, tenant: str, vendor_id: str, invoice_number: str) -> LedgerEntry | None:
        found = self.recorded(tenant, vendor_id, invoice_number)
        return found.entry if found else None

    def recorded(self, tenant: str, vendor_id: str, invoice_number: str) -> RecordedEntry | None:
        with self.database.session() as session:
            row = self._row(session, tenant, vendor_id, normalise_number(invoice_number))
            return _recorded(row) if row is not None else None

    def entries(self, tenant: str) -> list[LedgerEntry]:
        """The tenant's recorded entries, oldest decision first."""
        return [r.entry for r in self.recorded_entries(tenant)]

    def recorded_entries(self, tenant: str) -> list[RecordedEntry]:
        with self.database.session() as session:
            rows = session.scalars(select(EntryRow).where(EntryRow.tenant_id == tenant).order_by(EntryRow.id))
            return [_recorded(r) for r in rows]

    def act(self, tenant: str, invoice_number: str, vendor_id: str | None, action: ClerkAction, by_user: str,
            reason: str | None = None, run: tuple[str, str | None] | None = None) -> ActResult:
        """Move an open invoice by a clerk's choice: approve, hold, send to review or reject, by a named person,
        with the reason an override needs. `run` is (agent status, content key) of the card the choice was made
        on: a card the invoice has since been decided again past is stale and moves nothing."""
        with self.database.session() as session:
            rows = self._rows(session, tenant, invoice_number, vendor_id)
            if not rows:
                return ActResult(outcome="not_found")
            if len(rows) > 1:
                return ActResult(outcome="ambiguous", candidates=[r.vendor_id for r in rows])
            row = rows[0]
            before = _recorded(row)
            if row.status in CLOSED:
                return ActResult(outcome="closed", record=before, before_state=row.status)
            if run is not None and (run[0] != row.agent_status or run[1] not in (None, row.content_key)):
                return ActResult(outcome="stale", record=before, before_state=row.status)
            if not may_act(row.status, action):
                return ActResult(outcome="same", record=before, before_state=row.status)
            two = needs_second_person(row.agent_status, before.memo.flags if before.memo else [], action)
            if two and row.maker_by is not None and same_person(row.maker_by, by_user):
                return ActResult(outcome="same_person", record=before, before_state=row.status)
            if reason_required(before, action, by_user) and not (reason or "").strip():
                return ActResult(outcome="reason_needed", record=before, before_state=row.status)
            if two and row.maker_by is None:
                return self._ask_approval(session, tenant, row, by_user, reason or "")
            # The checker's approval confirms the account the invoice asked for: the one both people approved.
            approvers: dict[str, object] = (
                dict(checker_by=by_user, confirmed_account=row.invoice_account, confirmed_by=by_user) if two
                else {} if action == "approve" else _NO_APPROVERS)
            result = session.execute(update(EntryRow).where(
                EntryRow.id == row.id, EntryRow.status == row.status, EntryRow.decision_id == row.decision_id)
                .values(status=STATE_OF_ACTION[action], clerk_action=action, state_by=by_user, state_at=_now(),
                        state_reason=reason, **approvers))
            if rowcount(result) != 1:
                return ActResult(outcome="stale", record=before, before_state=row.status)
            if two and row.invoice_account:
                session.add(ActionRow(tenant_id=tenant, run_id=row.decision_id, vendor_id=row.vendor_id,
                                      invoice_number=row.invoice_number, action="account_confirmed",
                                      agent_status=row.agent_status, by_user=by_user, at=_now(),
                                      reason=f"approved by {row.maker_by} and {by_user} to be paid to "
                                             f"{row.invoice_account}, the account the invoice asked for"))
            session.flush()
            session.expire_all()
            found = session.get(EntryRow, row.id)
            assert found is not None
            return ActResult(outcome="moved", record=_recorded(found), before_state=before.state)

    def supersede(self, tenant: str, vendor_id: str, number_key: str, by_user: str, reason: str) -> RecordedEntry | None:
        """Close an open invoice a replacement invoice named: superseded (never paid), with who and why logged;
        None when it is no longer open (paid or rejected meanwhile: the replacement is then a bill of its own)."""
        with self.database.session() as session:
            row = self._row(session, tenant, vendor_id, number_key)
            if row is None or row.status not in OPEN:
                return None
            result = session.execute(update(EntryRow).where(EntryRow.id == row.id, EntryRow.status == row.status)
                                     .values(status="superseded", state_by=by_user, state_at=_now(),
                                             state_reason=reason, clerk_action=None, **_NO_APPROVERS))
            if rowcount(result) != 1:
                return None
            session.add(ActionRow(tenant_id=tenant, run_id=row.decision_id, vendor_id=row.vendor_id,
                                  invoice_number=row.invoice_number, action="superseded",
                                  agent_status=row.agent_status, by_user=by_user, at=_now(), reason=reason))
            session.flush()
            session.expire_all()
            found = session.get(EntryRow, row.id)
            assert found is not None
            return _recorded(found)

    @staticmethod
    def _ask_approval(session: Session, tenant: str, row: EntryRow, by_user: str, reason: str) -> ActResult:
        """The maker's half of an approval over a bank block: who asked and why, kept on the entry (its state
        unchanged, so it stays unpayable) until a second person approves."""
        before = _recorded(row)
        result = session.execute(update(EntryRow).where(
            EntryRow.id == row.id, EntryRow.status == row.status, EntryRow.decision_id == row.decision_id,
            EntryRow.maker_by.is_(None)).values(maker_by=by_user, maker_reason=reason))
        if rowcount(result) != 1:
            return ActResult(outcome="stale", record=before, before_state=row.status)
        session.add(ActionRow(tenant_id=tenant, run_id=row.decision_id, vendor_id=row.vendor_id,
                              invoice_number=row.invoice_number, action="approval_asked",
                              agent_status=row.agent_status, by_user=by_user, at=_now(), reason=reason))
        session.flush()
        session.expire_all()
        found = session.get(EntryRow, row.id)
        assert found is not None
        return ActResult(outcome="second_needed", record=_recorded(found), before_state=row.status)

    def log(self, tenant: str, run_id: str, vendor_id: str, invoice_number: str, action: ActionKind,
            agent_status: str, by_user: str, reason: str | None = None, amount: Decimal | None = None) -> None:
        """Append who did what to which invoice, when, and why (and a note's amount)."""
        with self.database.session() as session:
            session.add(ActionRow(tenant_id=tenant, run_id=run_id, vendor_id=vendor_id, invoice_number=invoice_number,
                                  action=action, agent_status=agent_status, by_user=by_user, at=_now(),
                                  reason=reason, amount=f"{amount:f}" if amount is not None else None))

    def notes_on(self, tenant: str, vendor_id: str, invoice_number: str) -> list[RecordedAction]:
        """The credit and debit notes recorded against one invoice (its number folded), oldest first."""
        key = normalise_number(invoice_number)
        return [a for a in self.actions(tenant, vendor_id) if a.action in ("credit_note", "debit_note")
                and normalise_number(a.invoice_number) == key]

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
                                   at=_utc(r.at), reason=r.reason,
                                   amount=Decimal(r.amount) if r.amount else None) for r in rows]

    def mark_paid(self, tenant: str, invoice_number: str, vendor_id: str | None, paid_on: date, by_user: str,
                  master_account: str | None, account: str | None = None) -> PayResult:
        """Mark an approved invoice paid: to the account two people approved over a bank-account block, else to
        the master's account; a typed account must be one of those two. Never to a reading nobody confirmed."""
        with self.database.session() as session:
            rows = self._rows(session, tenant, invoice_number, vendor_id)
            if not rows:
                return PayResult(outcome="not_found")
            if len(rows) > 1:
                return PayResult(outcome="ambiguous", candidates=[r.vendor_id for r in rows])
            row = rows[0]
            if row.status == "paid":
                return PayResult(outcome="already_paid", entry=_entry(row), record=_recorded(row))
            if not payable(row.status, row.agent_status):
                return PayResult(outcome="not_approved", entry=_entry(row), record=_recorded(row))
            if paid_on < row.invoice_date:
                return PayResult(outcome="before_invoice", entry=_entry(row), record=_recorded(row))
            typed = _digits(account) if account else None
            approved = _recorded(row).two_person_account
            if typed is None:
                to = approved or master_account
            elif typed in (master_account, approved):
                to = typed
            else:
                return PayResult(outcome="account_unverified", entry=_entry(row), record=_recorded(row))
            if not to:
                return PayResult(outcome="no_account", entry=_entry(row), record=_recorded(row))
            values: dict[str, object] = dict(status="paid", paid_on=paid_on, paid_to_account=to, state_by=by_user,
                                             state_at=_now(), state_reason=None)
            result = session.execute(update(EntryRow).where(EntryRow.id == row.id, EntryRow.status == row.status)
                                     .values(**values))
            if rowcount(result) != 1:
                session.expire_all()
                return PayResult(outcome="already_paid", entry=_entry(row))
            session.add(ActionRow(tenant_id=tenant, run_id=row.decision_id, vendor_id=row.vendor_id,
                                  invoice_number=row.invoice_number, action="paid", agent_status=row.agent_status,
                                  by_user=by_user, at=_now(), reason=None))
            session.flush()
            session.expire_all()
            found = session.get(EntryRow, row.id)
            assert found is not None
            return PayResult(outcome="paid", entry=_entry(found), record=_recorded(found))


def owed(total: Decimal, notes: list[RecordedAction]) -> Decimal:
    """What is owed on an invoice: its total less its credit notes, plus its debit notes (amounts read)."""
    change = sum(((a.amount if a.action == "debit_note" else -a.amount) for a in notes if a.amount is not None),
                 Decimal(0))
    return total + change


class RecordedView:
    """The ledger view a decision reads: the seeded/imported history plus everything recorded for the tenant."""

    def __init__(self, book: DecisionBook, history: list[LedgerEntry]) -> None:
        self.book = book
        self._history = list(history)

    def entries(self, tenant: str) -> list[LedgerEntry]:
        return [*self._history, *self.book.entries(tenant)]
