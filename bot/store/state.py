"""Durable conversation state in the one database: a raw inbox for webhook deliveries, open confirmation
cards, pending edits, and each person's (or chat's) conversation as typed columns.

Everything a person is in the middle of survives a restart: a card shown before a crash can still be saved.
Several processes may share it: a delivery is kept once (its key is unique), a card moves from one status to
the next by a conditional UPDATE, so a double tap or a second process loses the race harmlessly.
"""

import hashlib
import json
import secrets
from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import BigInteger, Boolean, DateTime, Integer, String, Text, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.store import Base, Database
from bot.store.sql import aware, insert_ignore, rowcount, upsert

CardStatus = Literal["open", "saving", "saved", "discarded"]


class InboxRow(Base):
    __tablename__ = "inbox"
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    payload: Mapped[str] = mapped_column(Text)
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Set when the transport gave up on it after bounded retries: kept for the operator, not queued again."""
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class InboxEntry(BaseModel):
    """A kept delivery not handled, as the operator sees it (never its payload: a person's message)."""

    channel: str
    key: str
    received_at: datetime
    attempts: int
    failed_at: datetime | None
    last_error: str | None


class CardRow(Base):
    __tablename__ = "cards"
    card_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    pack: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PendingEditRow(Base):
    """The card field a person was asked to correct; their next message is the new value."""

    __tablename__ = "pending_edits"
    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    card_id: Mapped[str] = mapped_column(String(32))
    field: Mapped[str] = mapped_column(String(64))


class ConversationRow(Base):
    """One person's (or one chat's, or one WhatsApp number's) conversation: what the bot must remember."""

    __tablename__ = "conversations"
    subject: Mapped[str] = mapped_column(String(200), primary_key=True)
    language: Mapped[str | None] = mapped_column(String(8))
    last_transport: Mapped[str | None] = mapped_column(String(16))
    whatsapp_number: Mapped[str | None] = mapped_column(String(32))
    last_inbound_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    whatsapp_buttons: Mapped[str | None] = mapped_column(Text)
    awaiting_followup_id: Mapped[str | None] = mapped_column(String(64))
    """The follow-up whose answer the person's next message is."""
    pending_voice: Mapped[str | None] = mapped_column(Text)
    """JSON list of voice notes kept while a follow-up answer is awaited."""


class CardMessageRow(Base):
    """The chat message that shows a card, so a new rendering replaces it."""

    __tablename__ = "card_messages"
    chat: Mapped[str] = mapped_column(String(64), primary_key=True)
    card_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    message_id: Mapped[int] = mapped_column(BigInteger)


# The names callers use for a conversation's typed columns (kept from the old key-value API).
PREF_COLUMNS = {
    "lang": "language",
    "last_transport": "last_transport",
    "whatsapp_number": "whatsapp_number",
    "last_inbound": "last_inbound_at",
    "buttons": "whatsapp_buttons",
    "agri.awaiting_outcome": "awaiting_followup_id",
    "agri.pending_voice": "pending_voice",
}
_DATETIME_COLUMNS = {"last_inbound_at"}


class Card(BaseModel):
    """An extraction shown to a person and not yet confirmed."""

    card_id: str
    pack: str
    user_id: str
    kind: str
    payload: dict[str, Any]
    status: CardStatus


class AwaitingEdit(BaseModel):
    card_id: str
    field: str


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _card(row: CardRow) -> Card:
    return Card(card_id=row.card_id, pack=row.pack, user_id=row.user_id, kind=row.kind,
                payload=json.loads(row.payload), status=row.status)  # type: ignore[arg-type]  # only ours in it


RETRY_ASKED = -1
"""An inbox row's attempts while an operator's retry waits for a worker to take it."""
MAX_INBOX_PAYLOAD = 64 * 1024
"""A Telegram update or a Twilio form is a few kilobytes (a text is at most 4,096 characters)."""


class DeliveryTooLarge(ValueError):
    """A raw delivery too large to keep in the inbox table."""


class StateStore:
    """Conversation state on the one database; safe to call from several threads and processes."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def close(self) -> None:
        """Nothing to close: the Database belongs to the App."""

    def inbox_put(self, channel: str, key: str, payload: str) -> bool:
        """Keep a raw delivery before acknowledging it; return False when the key was seen before.

        A delivery over MAX_INBOX_PAYLOAD is not kept (no real update is that large): it raises, and the
        transport handles it in memory only, where the conversation's own limits refuse it."""
        if len(payload) > MAX_INBOX_PAYLOAD:
            raise DeliveryTooLarge(f"a {channel} delivery of {len(payload):,} characters")
        with self._db.session() as s:
            return insert_ignore(s, InboxRow.__table__, dict(
                channel=channel, key=key, payload=payload, done=False, received_at=_now()))

    def inbox_pending(self, channel: str) -> list[tuple[str, str]]:
        """Return (key, payload) of deliveries kept but not yet handled, oldest first (after a crash)."""
        with self._db.session() as s:
            rows = s.execute(select(InboxRow.key, InboxRow.payload).where(
                InboxRow.channel == channel, InboxRow.done.is_(False), InboxRow.failed_at.is_(None))
                .order_by(InboxRow.received_at)).all()
        return [(r[0], r[1]) for r in rows]

    def inbox_waiting(self) -> list[InboxEntry]:
        """Every kept delivery not handled yet (failed ones too), oldest first: for the operator, without the
        payload (a person's message)."""
        with self._db.session() as s:
            rows = s.execute(select(InboxRow.channel, InboxRow.key, InboxRow.received_at, InboxRow.attempts,
                                    InboxRow.failed_at, InboxRow.last_error).where(
                InboxRow.done.is_(False)).order_by(InboxRow.received_at)).all()
        return [InboxEntry(channel=r[0], key=r[1], received_at=aware(r[2]), attempts=r[3] or 0,
                           failed_at=aware(r[4]) if r[4] else None, last_error=r[5]) for r in rows]

    def inbox_failed(self, channel: str, key: str, attempts: int, error: str) -> None:
        """Give up on a kept delivery the transport could not handle: it stays, for `smriti queue`, and is not
        queued again at the next start."""
        with self._db.session() as s:
            s.execute(update(InboxRow).where(InboxRow.channel == channel, InboxRow.key == key).values(
                attempts=attempts, failed_at=_now(), last_error=error[:500]))

    def inbox_retry(self, key: str) -> int:
        """Ask for failed deliveries with this key (any channel) to be handled again: one running worker takes
        each (`inbox_take_retries`), or the next worker start does."""
        with self._db.session() as s:
            return rowcount(s.execute(update(InboxRow).where(
                InboxRow.key == key, InboxRow.done.is_(False), InboxRow.failed_at.is_not(None)).values(
                failed_at=None, attempts=RETRY_ASKED)))

    def inbox_take_retries(self, channel: str) -> list[tuple[str, str]]:
        """(key, payload) of the deliveries an operator asked to retry that this process takes: a conditional
        UPDATE per row, so one worker of many takes each."""
        with self._db.session() as s:
            asked = s.execute(select(InboxRow.key, InboxRow.payload).where(
                InboxRow.channel == channel, InboxRow.done.is_(False), InboxRow.failed_at.is_(None),
                InboxRow.attempts == RETRY_ASKED)).all()
        taken = []
        for key, payload in asked:
            with self._db.session() as s:
                if rowcount(s.execute(update(InboxRow).where(
                        InboxRow.channel == channel, InboxRow.key == key, InboxRow.attempts == RETRY_ASKED)
                        .values(attempts=0))) == 1:
                    taken.append((key, payload))
        return taken

    def inbox_drop(self, key: str) -> int:
        """Give up on kept deliveries with this key for good (marked handled; the payload stays until forgotten)."""
        with self._db.session() as s:
            return rowcount(s.execute(update(InboxRow).where(InboxRow.key == key, InboxRow.done.is_(False))
                                      .values(done=True)))

    def inbox_done(self, channel: str, key: str) -> None:
        with self._db.session() as s:
            s.execute(update(InboxRow).where(InboxRow.channel == channel, InboxRow.key == key).values(done=True))

    def inbox_forget(self, channel: str, key: str) -> None:
        """Remove a kept delivery altogether (a refused stranger's): nothing of it stays."""
        with self._db.session() as s:
            s.execute(delete(InboxRow).where(InboxRow.channel == channel, InboxRow.key == key))

    def open_card(self, pack: str, user_id: str, kind: str, payload: dict[str, Any], key: str | None = None) -> Card:
        """Store a new open card. With a key (the message that opens it), the same message handled again after
        a crash gets the same card back instead of a second one beside it."""
        card_id = hashlib.sha256(f"{user_id}\n{key}".encode()).hexdigest()[:10] if key else secrets.token_hex(5)
        now = _now()
        values = dict(card_id=card_id, pack=pack, user_id=user_id, kind=kind, status="open",
                      payload=json.dumps(payload, ensure_ascii=False), created_at=now, updated_at=now)
        with self._db.session() as s:
            if not insert_ignore(s, CardRow.__table__, values):
                row = s.get(CardRow, card_id)
                if row is not None:
                    return _card(row)
        return Card(card_id=card_id, pack=pack, user_id=user_id, kind=kind, payload=payload, status="open")

    def card(self, card_id: str) -> Card | None:
        with self._db.session() as s:
            row = s.get(CardRow, card_id)
            return _card(row) if row is not None else None

    def update_payload(self, card_id: str, payload: dict[str, Any], status: CardStatus = "open") -> None:
        """Change a card's payload while it is in `status` (open for edits; saving for what Save registered)."""
        with self._db.session() as s:
            s.execute(update(CardRow).where(CardRow.card_id == card_id, CardRow.status == status).values(
                payload=json.dumps(payload, ensure_ascii=False), updated_at=_now()))

    def move_card(self, card_id: str, expected: CardStatus, new: CardStatus) -> bool:
        """Change a card's status only if it is still `expected`: a double-tap (or another process) loses."""
        with self._db.session() as s:
            result = s.execute(update(CardRow).where(CardRow.card_id == card_id, CardRow.status == expected)
                               .values(status=new, updated_at=_now()))
            return rowcount(result) == 1

    def drop_card(self, card_id: str) -> None:
        """Remove a card altogether (a finished forget request, whose payload names its subject)."""
        with self._db.session() as s:
            s.execute(delete(PendingEditRow).where(PendingEditRow.card_id == card_id))
            s.execute(delete(CardMessageRow).where(CardMessageRow.card_id == card_id))
            s.execute(delete(CardRow).where(CardRow.card_id == card_id))

    def open_cards(self, user_id: str | None = None) -> list[Card]:
        query = select(CardRow).where(CardRow.status.in_(("open", "saving")))
        if user_id is not None:
            query = query.where(CardRow.user_id == user_id)
        with self._db.session() as s:
            return [_card(r) for r in s.scalars(query.order_by(CardRow.created_at, CardRow.card_id))]

    def await_edit(self, user_id: str, card_id: str, field: str) -> None:
        with self._db.session() as s:
            upsert(s, PendingEditRow.__table__, dict(user_id=user_id, card_id=card_id, field=field),
                   ["user_id"])

    def awaiting_edit(self, user_id: str) -> AwaitingEdit | None:
        with self._db.session() as s:
            row = s.get(PendingEditRow, user_id)
            return AwaitingEdit(card_id=row.card_id, field=row.field) if row else None

    def clear_edit(self, user_id: str) -> None:
        with self._db.session() as s:
            s.execute(delete(PendingEditRow).where(PendingEditRow.user_id == user_id))

    def card_message(self, chat: str, card_id: str) -> int | None:
        with self._db.session() as s:
            row = s.get(CardMessageRow, (chat, card_id))
            return row.message_id if row else None

    def remember_card_message(self, chat: str, card_id: str, message_id: int) -> None:
        with self._db.session() as s:
            upsert(s, CardMessageRow.__table__,
                   dict(chat=chat, card_id=card_id, message_id=message_id), ["chat", "card_id"])

    def pref(self, subject: str, key: str) -> str | None:
        """Read one of a conversation's typed columns by its short name (see PREF_COLUMNS)."""
        if key.startswith("card:"):
            message_id = self.card_message(subject, key.removeprefix("card:"))
            return str(message_id) if message_id is not None else None
        column = _column(key)
        with self._db.session() as s:
            row = s.get(ConversationRow, subject)
            value = getattr(row, column) if row is not None else None
        if isinstance(value, datetime):
            return aware(value).isoformat()
        return value

    def set_pref(self, subject: str, key: str, value: str) -> None:
        """Write one of a conversation's typed columns by its short name (see PREF_COLUMNS)."""
        if key.startswith("card:"):
            self.remember_card_message(subject, key.removeprefix("card:"), int(value))
            return
        column = _column(key)
        typed: object = datetime.fromisoformat(value) if column in _DATETIME_COLUMNS and value else value
        with self._db.session() as s:
            upsert(s, ConversationRow.__table__, {"subject": subject, column: typed}, ["subject"])


def _column(key: str) -> str:
    try:
        return PREF_COLUMNS[key]
    except KeyError:
        raise ValueError(f"no conversation column for {key!r}: add a typed column and a migration") from None
