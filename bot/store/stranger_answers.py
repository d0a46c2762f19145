"""When each stranger was last answered, shared by every worker on the database: so a stranger is refused in
words at most once per window in all, not once per worker. A row holds a keyed hash of (transport, sender),
never the sender; the key is random, made once and kept in the database; rows older than the window are
deleted as new ones come."""

import secrets
from datetime import datetime, timedelta, timezone

from sqlalchemy import Column, DateTime, String, Table, delete, select, update

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import insert_ignore

_keys = Table("shared_keys", Base.metadata,
              Column("name", String(32), primary_key=True),
              Column("secret", String(64), nullable=False))
_answers = Table("stranger_answers", Base.metadata,
                 Column("digest", String(64), primary_key=True),
                 Column("answered_at", DateTime(timezone=True), nullable=False, index=True))

KEY_NAME = "stranger-gate"
PRUNE_EVERY = 200


class StrangerAnswers:
    """The shared record behind bot.core.strangers.StrangerGate."""

    def __init__(self, database: Database) -> None:
        self._engine = database.engine
        self._key: bytes | None = None
        self._claims = 0

    def key(self) -> bytes:
        """The hash key every worker uses (made by whichever asks first)."""
        if self._key is None:
            with self._engine.begin() as db:
                insert_ignore(db, _keys, {"name": KEY_NAME, "secret": secrets.token_hex(32)})
                secret = db.execute(select(_keys.c.secret).where(_keys.c.name == KEY_NAME)).scalar_one()
            self._key = bytes.fromhex(secret)
        return self._key

    def claim(self, digest: str, window_s: float) -> bool:
        """True when nobody answered this digest within the window: then this caller answers (one wins)."""
        now = datetime.now(timezone.utc)
        since = now - timedelta(seconds=window_s)
        with self._engine.begin() as db:
            self._claims += 1
            if self._claims % PRUNE_EVERY == 0:
                db.execute(delete(_answers).where(_answers.c.answered_at <= since))
            if insert_ignore(db, _answers, {"digest": digest, "answered_at": now}):
                return True
            taken = db.execute(update(_answers).where(_answers.c.digest == digest, _answers.c.answered_at <= since)
                               .values(answered_at=now))
            return taken.rowcount == 1
