"""The durable intake store: every incoming item is written here before any external call is made.

An item is keyed by (transport, delivery id), so a redelivered Telegram update or Twilio message is one item.
Media is copied into the store's own directory, so a voice note survives the transport's temporary file.
States: received -> processing -> answered (its replies are in the reply outbox, written in the same
transaction) -> done (they were delivered, or given up) | waiting (an external service was down; retried with backoff) |
failed (gave up after the retry limit; still recoverable with `smriti queue retry`) | dropped |
held (a voice note no speech engine could transcribe yet: retried on a capped timer, never given up, or, when
no engine is set up at all, released as soon as one is).
Its tables live in the one database (bot.store). Several processes may share it: a delivery is recorded once
(its key is unique) and an item is claimed by a conditional UPDATE, so only one process processes it.
Leases, not ages: an item being worked on carries its owner (bot.store.leases.ProcessOwner) and a lease expiry
the owner renews while the work runs. Another worker takes it only when the lease has expired, or at once when
the owner is a dead process of this host (then the person is told their earlier message is handled now).
"""

import shutil
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import Column, DateTime, Integer, Row, String, Table, Text, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from bot.core.messages import Incoming, Media
from bot.core.upload_names import inside, stored_name
from bot.store.reply_outbox import OutgoingReply
from bot.store.reply_outbox import add as keep_replies
from bot.store.reply_outbox import mark_shown
from bot.store import Base, Database
from bot.store.leases import ProcessOwner, owner_is_dead
from bot.store.sql import aware

IntakeState = Literal["received", "processing", "answered", "done", "waiting", "failed", "dropped", "held"]
RETRYABLE: tuple[IntakeState, ...] = ("received", "processing", "waiting", "failed", "held")
UNPROCESSED: tuple[IntakeState, ...] = ("received", "processing", "waiting", "failed", "held")

_items = Table(
    "intake_items", Base.metadata,
    Column("intake_id", String(32), primary_key=True),
    Column("transport", String(16), nullable=False),
    Column("delivery_id", String(128), nullable=False),
    Column("user_id", String(64), nullable=False),
    Column("incoming", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("next_attempt_at", DateTime(timezone=True)),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("owner", String(64)),
    Column("lease_until", DateTime(timezone=True)),
)
_deliveries = Table(
    "intake_deliveries", Base.metadata,
    Column("transport", String(16), primary_key=True),
    Column("delivery_id", String(128), primary_key=True),
    Column("intake_id", String(32), nullable=False),
)


class IntakeItem(BaseModel):
    intake_id: str
    user_id: str
    incoming: Incoming
    state: IntakeState
    attempts: int
    last_error: str | None
    received_at: datetime
    next_attempt_at: datetime | None
    updated_at: datetime
    owner: str | None = None
    lease_until: datetime | None = None

    def lease_free(self, now: datetime, me: str) -> bool:
        """Whether `me` may take it: nobody holds it, or `me` does, or the lease expired, or its owner died."""
        return (self.owner is None or self.owner == me or self.lease_until is None or self.lease_until <= now
                or owner_is_dead(self.owner))


class Recorded(BaseModel):
    item: IntakeItem
    is_new: bool


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


class IntakeStore:
    def __init__(self, database: Database, media_dir: Path, max_attempts: int = 6,
                 base_backoff_s: float = 15.0, lease: timedelta = timedelta(minutes=5),
                 owner: ProcessOwner | None = None) -> None:
        self.max_attempts = max_attempts
        self.lease = lease
        """Longer than the longest call the work makes (a Hindsight write may take 180 s); renewed while it runs."""
        self.owner = str(owner or ProcessOwner.here())
        self.base_backoff_s = base_backoff_s
        self._media_dir = media_dir
        self._engine = database.engine

    def close(self) -> None:
        """Nothing to close: the Database belongs to the App."""

    def _keep_media(self, intake_id: str, media: Media) -> Media:
        target_dir = self._media_dir / intake_id
        target_dir.mkdir(parents=True, exist_ok=True)
        # The sender's file name stays in media.file_name as data; the copy gets a name the bot makes.
        target = inside(target_dir, stored_name(media.file_name, media.path.name, mime_type=media.mime_type))
        shutil.copyfile(media.path, target)
        return media.model_copy(update={"path": target})

    def record(self, incoming: Incoming, user_id: str) -> Recorded:
        """Store an incoming item durably; a delivery seen before returns the existing item, not a new one."""
        existing = self.by_delivery(incoming.transport, incoming.delivery_id)
        if existing is not None:
            return Recorded(item=existing, is_new=False)
        intake_id = uuid.uuid4().hex
        kept = incoming
        if incoming.media is not None and incoming.media.path.exists():
            kept = incoming.model_copy(update={"media": self._keep_media(intake_id, incoming.media)})
        now = datetime.now(timezone.utc)
        try:
            with self._engine.begin() as db:
                db.execute(_deliveries.insert().values(
                    transport=incoming.transport, delivery_id=incoming.delivery_id, intake_id=intake_id))
                db.execute(_items.insert().values(
                    intake_id=intake_id, transport=incoming.transport, delivery_id=incoming.delivery_id,
                    user_id=user_id, incoming=kept.model_dump_json(), state="received", attempts=0,
                    received_at=incoming.received_at, updated_at=now, owner=self.owner,
                    lease_until=now + self.lease))
        except IntegrityError:
            # Two deliveries of the same message raced; the other one won.
            raced = self.by_delivery(incoming.transport, incoming.delivery_id)
            if raced is None:
                raise
            return Recorded(item=raced, is_new=False)
        item = self.get(intake_id)
        assert item is not None
        return Recorded(item=item, is_new=True)

    def _row_to_item(self, row: Row[Any]) -> IntakeItem:
        m = row._mapping
        return IntakeItem(
            intake_id=m["intake_id"], user_id=m["user_id"], incoming=Incoming.model_validate_json(m["incoming"]),
            state=m["state"], attempts=m["attempts"], last_error=m["last_error"],
            received_at=aware(m["received_at"]), next_attempt_at=_utc(m["next_attempt_at"]),
            updated_at=aware(m["updated_at"]), owner=m["owner"], lease_until=_utc(m["lease_until"]),
        )

    def get(self, intake_id: str) -> IntakeItem | None:
        with self._engine.connect() as db:
            row = db.execute(select(_items).where(_items.c.intake_id == intake_id)).first()
        return self._row_to_item(row) if row else None

    def by_delivery(self, transport: str, delivery_id: str) -> IntakeItem | None:
        with self._engine.connect() as db:
            row = db.execute(select(_deliveries.c.intake_id).where(
                _deliveries.c.transport == transport, _deliveries.c.delivery_id == delivery_id)).first()
        return self.get(row[0]) if row else None

    def claim(self, item: IntakeItem) -> bool:
        """Take an item to process it (state processing, owner this process, a fresh lease); one worker wins.

        It is taken only when its lease is free as the caller saw it (`IntakeItem.lease_free`): held by nobody
        or by this owner, expired, or held by a dead process (then on the condition that it still is)."""
        now = datetime.now(timezone.utc)
        free = or_(_items.c.owner.is_(None), _items.c.owner == self.owner, _items.c.lease_until <= now)
        if item.owner and item.owner != self.owner and owner_is_dead(item.owner):
            free = or_(free, _items.c.owner == item.owner)
        with self._engine.begin() as db:
            result = db.execute(update(_items).where(
                _items.c.intake_id == item.intake_id, _items.c.state.in_(RETRYABLE), free,
            ).values(state="processing", owner=self.owner, lease_until=now + self.lease, updated_at=now))
            return result.rowcount == 1

    def renew(self, intake_id: str) -> bool:
        """Push this owner's lease on (the heartbeat while the work runs); False when it is no longer ours."""
        with self._engine.begin() as db:
            result = db.execute(update(_items).where(
                _items.c.intake_id == intake_id, _items.c.owner == self.owner, _items.c.state == "processing",
            ).values(lease_until=datetime.now(timezone.utc) + self.lease))
            return result.rowcount == 1

    def finish(self, intake_id: str, replies: Sequence[OutgoingReply] = (),
               reply_lease: timedelta | None = None, shown: bool = False) -> None:
        """Finish processing: keep the replies in the reply outbox and mark the item answered (done when there
        is nothing to send), in one transaction. The replies are leased to this process, which sends them next;
        `shown`: the caller shows them itself (the console), so they are kept as sent and the item is done."""
        with self._engine.begin() as db:
            db.execute(update(_items).where(_items.c.intake_id == intake_id).values(
                state="answered" if replies and not shown else "done", last_error=None, next_attempt_at=None,
                owner=None, lease_until=None, updated_at=datetime.now(timezone.utc)))
            keep_replies(db, replies, self.owner, reply_lease or self.lease)
            for key in dict.fromkeys(r.key for r in replies) if shown else ():
                mark_shown(db, key)

    def shown(self, intake_id: str, key: str) -> None:
        """The caller showed an answer's replies itself (the console): they are sent and the item is done, in one
        transaction (one durable write, where marking each reply and then the item took several)."""
        with self._engine.begin() as db:
            mark_shown(db, key)
            db.execute(update(_items).where(_items.c.intake_id == intake_id, _items.c.state == "answered")
                       .values(state="done", updated_at=datetime.now(timezone.utc)))

    def delivered(self, intake_id: str) -> bool:
        """An answered item whose replies are all settled (delivered or given up) is done."""
        with self._engine.begin() as db:
            result = db.execute(update(_items).where(_items.c.intake_id == intake_id, _items.c.state == "answered")
                                .values(state="done", updated_at=datetime.now(timezone.utc)))
            return result.rowcount == 1

    def postpone(self, intake_id: str, error: str) -> IntakeItem:
        """Record a failed attempt; schedule the next with exponential backoff, or give up at the limit."""
        item = self.get(intake_id)
        assert item is not None
        attempts = item.attempts + 1
        if attempts >= self.max_attempts:
            self._set(intake_id, state="failed", attempts=attempts, last_error=error, next_attempt_at=None,
                      owner=None, lease_until=None)
        else:
            delay = timedelta(seconds=self.base_backoff_s * (2 ** (attempts - 1)))
            self._set(intake_id, state="waiting", attempts=attempts, last_error=error,
                      next_attempt_at=datetime.now(timezone.utc) + delay, owner=None, lease_until=None)
        updated = self.get(intake_id)
        assert updated is not None
        return updated

    def fail(self, intake_id: str, error: str) -> None:
        """Give up on an item at once (a permanent failure); `smriti queue retry` can still run it again."""
        item = self.get(intake_id)
        attempts = (item.attempts if item else 0) + 1
        self._set(intake_id, state="failed", attempts=attempts, last_error=error, next_attempt_at=None)

    def drop(self, intake_id: str) -> bool:
        item = self.get(intake_id)
        if item is None or item.state == "done":
            return False
        self._set(intake_id, state="dropped")
        return True

    def make_due(self, intake_id: str) -> bool:
        """Ask for an immediate retry of an item that is waiting or has failed."""
        item = self.get(intake_id)
        if item is None or item.state not in ("waiting", "failed", "held"):
            return False
        self._set(intake_id, state="waiting", next_attempt_at=datetime.now(timezone.utc))
        return True

    def _set(self, intake_id: str, **values: object) -> None:
        with self._engine.begin() as db:
            db.execute(update(_items).where(_items.c.intake_id == intake_id).values(
                updated_at=datetime.now(timezone.utc), **values))

    def listing(self, states: tuple[IntakeState, ...] | None = None) -> list[IntakeItem]:
        query = select(_items).order_by(_items.c.received_at)
        if states:
            query = query.where(_items.c.state.in_(states))
        with self._engine.connect() as db:
            return [self._row_to_item(r) for r in db.execute(query).all()]

    def due(self, now: datetime) -> list[IntakeItem]:
        """Return items to process now: waiting ones whose time has come, and ones whose owner is gone (its
        lease expired, or it is a dead process of this host)."""
        picked = []
        for item in self.listing(("received", "processing", "waiting", "held")):
            if item.state in ("waiting", "held") and item.next_attempt_at and item.next_attempt_at <= now:
                picked.append(item)
            elif item.state in ("received", "processing") and item.lease_free(now, ""):
                picked.append(item)
        return picked

    def hold(self, intake_id: str, reason: str, retry: bool, max_delay_s: float = 3600.0) -> IntakeItem:
        """Keep an item that needs an engine not available now; it keeps its received time and is never given
        up. With `retry` it comes due again after a backoff capped at `max_delay_s`; without, it waits for
        release_held (an engine was set up)."""
        item = self.get(intake_id)
        assert item is not None
        attempts = item.attempts + 1
        delay = min(self.base_backoff_s * (2 ** (attempts - 1)), max_delay_s)
        self._set(intake_id, state="held", attempts=attempts, last_error=reason, owner=None, lease_until=None,
                  next_attempt_at=datetime.now(timezone.utc) + timedelta(seconds=delay) if retry else None)
        held = self.get(intake_id)
        assert held is not None
        return held

    def release_held(self) -> int:
        """Make every item held for want of an engine due now; return how many."""
        with self._engine.begin() as db:
            result = db.execute(update(_items).where(
                _items.c.state == "held", _items.c.next_attempt_at.is_(None)
            ).values(next_attempt_at=datetime.now(timezone.utc), updated_at=datetime.now(timezone.utc)))
            return int(result.rowcount)

    def items_of(self, user_ids: list[str]) -> list[IntakeItem]:
        """Every item (any state) these people sent, oldest first."""
        query = select(_items).where(_items.c.user_id.in_(user_ids)).order_by(_items.c.received_at)
        with self._engine.connect() as db:
            return [self._row_to_item(r) for r in db.execute(query).all()]

    def erase(self, intake_ids: list[str]) -> None:
        """Remove items and their kept media for good (forget). The delivery keys stay: they hold no content
        and keep a redelivered message from being taken as new."""
        if not intake_ids:
            return
        with self._engine.begin() as db:
            db.execute(delete(_items).where(_items.c.intake_id.in_(intake_ids)))
        for intake_id in intake_ids:
            shutil.rmtree(self._media_dir / intake_id, ignore_errors=True)

    def unprocessed_for(self, user_id: str) -> list[IntakeItem]:
        """One person's items not processed yet (kept, waiting or failed), oldest first."""
        query = select(_items).where(_items.c.user_id == user_id, _items.c.state.in_(
            ("waiting", "failed", "held"))).order_by(_items.c.received_at)
        with self._engine.connect() as db:
            return [self._row_to_item(r) for r in db.execute(query).all()]
