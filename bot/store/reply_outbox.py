"""The reply outbox: every reply the bot owes someone, kept until the transport has delivered it.

A row is keyed by what it answers (`intake:<id>` for an intake item, `notice:<id>` for a message the bot
starts) and its position among that answer's replies. Rows are written in the same transaction that finishes
the intake item, and written once: a reply recomputed after a crash finds its position taken and is not kept
again, so it is not sent twice. States: pending -> sent (the provider took it; Telegram and the console count
it delivered) -> delivered (WhatsApp's status callback said so) | failed (a 4xx, or given up after bounded
retries with backoff) | flagged (WhatsApp said undelivered and no template could carry it: for the operator).
A pending row being sent carries its owner and lease, like a claimed intake item, so two senders never both
send it and a sender that died leaves it to the next one at once.
"""

import json
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import Column, DateTime, Integer, String, Table, Text, delete, or_, select, update
from sqlalchemy.engine import Connection

from bot.core.messages import Reply, Transport
from bot.store import Base, Database
from bot.store.leases import owner_is_dead
from bot.store.sql import insert_ignore, utc

ReplyState = Literal["pending", "sent", "delivered", "failed", "flagged"]
SETTLED: tuple[ReplyState, ...] = ("sent", "delivered", "failed", "flagged")
UNDELIVERED: tuple[ReplyState, ...] = ("pending", "failed", "flagged")

_replies = Table(
    "reply_outbox", Base.metadata,
    Column("key", String(64), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("user_id", String(64), nullable=False),
    Column("transport", String(16), nullable=False),
    Column("address", String(64), nullable=False),
    Column("purpose", String(16), nullable=False),
    Column("reply", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Column("next_attempt_at", DateTime(timezone=True)),
    Column("owner", String(64)),
    Column("lease_until", DateTime(timezone=True)),
    Column("provider_ids", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
_receipts = Table(
    "reply_receipts", Base.metadata,
    Column("provider_id", String(64), primary_key=True),
    Column("key", String(64), nullable=False),
    Column("position", Integer, nullable=False),
)


def intake_key(intake_id: str) -> str:
    return f"intake:{intake_id}"


class OutgoingReply(BaseModel):
    key: str
    position: int
    user_id: str
    transport: Transport
    address: str
    """Where the transport sends it: a Telegram chat id, a WhatsApp number, the console's person."""
    purpose: str
    reply: Reply
    state: ReplyState = "pending"
    attempts: int = 0
    last_error: str | None = None
    next_attempt_at: datetime | None = None
    owner: str | None = None
    lease_until: datetime | None = None
    provider_ids: list[str] = []
    created_at: datetime | None = None


def outgoing(key: str, user_id: str, transport: Transport, address: str, replies: Sequence[Reply],
             purpose: str = "reply") -> list[OutgoingReply]:
    return [OutgoingReply(key=key, position=i, user_id=user_id, transport=transport, address=address,
                          purpose=purpose, reply=r) for i, r in enumerate(replies)]


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _row(row: object) -> OutgoingReply:
    m = row._mapping  # type: ignore[attr-defined]
    return OutgoingReply(key=m["key"], position=m["position"], user_id=m["user_id"], transport=m["transport"],
                         address=m["address"], purpose=m["purpose"], reply=Reply.model_validate_json(m["reply"]),
                         state=m["state"], attempts=m["attempts"], last_error=m["last_error"],
                         next_attempt_at=utc(m["next_attempt_at"]), owner=m["owner"],
                         lease_until=utc(m["lease_until"]),
                         provider_ids=json.loads(m["provider_ids"] or "[]"), created_at=utc(m["created_at"]))


def add(db: Connection, rows: Sequence[OutgoingReply], owner: str, lease: timedelta) -> None:
    """Keep the rows (in the caller's transaction), leased to `owner` who is about to send them; a position
    already kept is left as it is."""
    now = _now()
    for r in rows:
        insert_ignore(db, _replies, dict(
            key=r.key, position=r.position, user_id=r.user_id, transport=r.transport, address=r.address,
            purpose=r.purpose, reply=r.reply.model_dump_json(), state="pending", attempts=0, owner=owner,
            lease_until=now + lease, created_at=now, updated_at=now))


def mark_shown(db: Connection, key: str) -> None:
    """Record every pending reply of an answer as sent (in the caller's transaction): the caller showed them
    itself (the console prints them), so there is no provider and no send to wait for."""
    db.execute(update(_replies).where(_replies.c.key == key, _replies.c.state == "pending").values(
        state="sent", provider_ids="[]", last_error=None, owner=None, lease_until=None, next_attempt_at=None,
        attempts=_replies.c.attempts + 1, updated_at=_now()))


class ReplyOutbox:
    """Reads and moves reply rows; sending is bot.core.reply_delivery's."""

    def __init__(self, database: Database) -> None:
        self._engine = database.engine

    def keep(self, rows: Sequence[OutgoingReply], owner: str, lease: timedelta) -> None:
        with self._engine.begin() as db:
            add(db, rows, owner, lease)

    def rows(self, key: str) -> list[OutgoingReply]:
        with self._engine.connect() as db:
            return [_row(r) for r in db.execute(
                select(_replies).where(_replies.c.key == key).order_by(_replies.c.position)).all()]

    def listing(self, states: tuple[ReplyState, ...] | None = None) -> list[OutgoingReply]:
        query = select(_replies).order_by(_replies.c.created_at, _replies.c.key, _replies.c.position)
        if states:
            query = query.where(_replies.c.state.in_(states))
        with self._engine.connect() as db:
            return [_row(r) for r in db.execute(query).all()]

    def of_people(self, user_ids: Sequence[str]) -> list[OutgoingReply]:
        """Every reply kept for these people, in any state."""
        with self._engine.connect() as db:
            return [_row(r) for r in db.execute(select(_replies).where(_replies.c.user_id.in_(list(user_ids)))
                                                .order_by(_replies.c.created_at, _replies.c.position)).all()]

    def erase(self, rows: Sequence[OutgoingReply]) -> None:
        """Delete these rows and their provider receipts (forget)."""
        with self._engine.begin() as db:
            for r in rows:
                where = (_receipts.c.key == r.key, _receipts.c.position == r.position)
                db.execute(delete(_receipts).where(*where))
                db.execute(delete(_replies).where(_replies.c.key == r.key, _replies.c.position == r.position))

    def rewrite(self, row: OutgoingReply, reply: Reply) -> None:
        """Replace a kept reply's content (forget takes one subject's lines out of a reply about many)."""
        with self._engine.begin() as db:
            db.execute(update(_replies).where(_replies.c.key == row.key, _replies.c.position == row.position)
                       .values(reply=reply.model_dump_json()))

    def due_keys(self, now: datetime, mine: str | None = None) -> list[str]:
        """Keys with a pending row whose time has come and whose sender is gone (lease expired, or dead), or is
        `mine` (the caller knows which of its own it is sending now)."""
        query = select(_replies.c.key, _replies.c.owner, _replies.c.lease_until).where(
            _replies.c.state == "pending",
            or_(_replies.c.next_attempt_at.is_(None), _replies.c.next_attempt_at <= now))
        with self._engine.connect() as db:
            found = db.execute(query.order_by(_replies.c.created_at)).all()
        keys: list[str] = []
        for key, owner, until in found:
            expiry = utc(until)
            free = owner is None or owner == mine or expiry is None or expiry <= now or owner_is_dead(owner)
            if free and key not in keys:
                keys.append(key)
        return keys

    def claim(self, row: OutgoingReply, owner: str, lease: timedelta) -> bool:
        """Take a pending row to send it: it is this owner's already, or its lease expired, or its owner died."""
        now = _now()
        if row.owner == owner and row.lease_until is not None and row.lease_until > now + lease / 2:
            return True  # just kept by this owner, who sends it now: no write needed
        takeable = or_(_replies.c.owner.is_(None), _replies.c.owner == owner, _replies.c.lease_until <= now)
        if row.owner and row.owner != owner and owner_is_dead(row.owner):
            takeable = or_(takeable, _replies.c.owner == row.owner)
        with self._engine.begin() as db:
            result = db.execute(update(_replies).where(
                _replies.c.key == row.key, _replies.c.position == row.position, _replies.c.state == "pending",
                takeable).values(owner=owner, lease_until=now + lease, updated_at=now))
            return result.rowcount == 1

    def renew(self, row: OutgoingReply, owner: str, lease: timedelta) -> bool:
        with self._engine.begin() as db:
            result = db.execute(update(_replies).where(
                _replies.c.key == row.key, _replies.c.position == row.position, _replies.c.owner == owner)
                .values(lease_until=_now() + lease))
            return result.rowcount == 1

    def shown(self, key: str) -> None:
        with self._engine.begin() as db:
            mark_shown(db, key)

    def mark_sent(self, row: OutgoingReply, provider_ids: list[str], state: ReplyState = "sent") -> None:
        with self._engine.begin() as db:
            self._set(db, row, state=state, provider_ids=json.dumps(provider_ids), last_error=None, owner=None,
                      lease_until=None, next_attempt_at=None, attempts=row.attempts + 1)
            for provider_id in provider_ids:
                insert_ignore(db, _receipts, dict(provider_id=provider_id, key=row.key, position=row.position))

    def retry_later(self, row: OutgoingReply, error: str, max_attempts: int, base_backoff_s: float) -> ReplyState:
        """Record a failed attempt: pending again after a backoff, or failed at the limit. Returns the state."""
        attempts = row.attempts + 1
        state: ReplyState = "failed" if attempts >= max_attempts else "pending"
        when = None if state == "failed" else _now() + timedelta(seconds=base_backoff_s * 2 ** (attempts - 1))
        with self._engine.begin() as db:
            self._set(db, row, state=state, attempts=attempts, last_error=error[:500], owner=None,
                      lease_until=None, next_attempt_at=when)
        return state

    def give_up(self, row: OutgoingReply, error: str, state: ReplyState = "failed") -> None:
        with self._engine.begin() as db:
            self._set(db, row, state=state, attempts=row.attempts + 1, last_error=error[:500], owner=None,
                      lease_until=None, next_attempt_at=None)

    def by_provider_id(self, provider_id: str) -> OutgoingReply | None:
        with self._engine.connect() as db:
            found = db.execute(select(_receipts.c.key, _receipts.c.position).where(
                _receipts.c.provider_id == provider_id)).first()
            if found is None:
                return None
            row = db.execute(select(_replies).where(_replies.c.key == found.key,
                                                    _replies.c.position == found.position)).first()
        return _row(row) if row else None

    def send_again(self, row: OutgoingReply) -> None:
        """Put a failed or flagged reply back to be sent at the next pass, with its tries counted afresh (an
        operator's retry: the office page's Retry)."""
        with self._engine.begin() as db:
            self._set(db, row, state="pending", attempts=0, owner=None, lease_until=None, next_attempt_at=_now())

    def set_state(self, row: OutgoingReply, state: ReplyState, error: str | None = None) -> None:
        with self._engine.begin() as db:
            self._set(db, row, state=state, last_error=error)

    def settled(self, key: str) -> bool:
        return all(r.state in SETTLED for r in self.rows(key))

    def _set(self, db: Connection, row: OutgoingReply, **values: object) -> None:
        db.execute(update(_replies).where(_replies.c.key == row.key, _replies.c.position == row.position)
                   .values(updated_at=_now(), **values))
