"""Durable conversation state in SQLite: a raw inbox for webhook deliveries, open confirmation cards, pending
edits, preferences.

Everything a person is in the middle of survives a restart: a card shown before a crash can still be saved.
"""

import json
import secrets
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

CardStatus = Literal["open", "saving", "saved", "discarded"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inbox (
    channel TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
    received_at TEXT NOT NULL, PRIMARY KEY (channel, key)
);
CREATE TABLE IF NOT EXISTS cards (
    card_id TEXT PRIMARY KEY, pack TEXT NOT NULL, user_id TEXT NOT NULL, kind TEXT NOT NULL,
    payload TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS awaiting (
    user_id TEXT PRIMARY KEY, card_id TEXT NOT NULL, field TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS prefs (
    user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key)
);
"""


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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class StateStore:
    """A small SQLite store shared by every transport; safe to call from several threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def inbox_put(self, channel: str, key: str, payload: str) -> bool:
        """Keep a raw delivery before acknowledging it; return False when the key was seen before."""
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO inbox (channel, key, payload, received_at) VALUES (?, ?, ?, ?)",
                (channel, key, payload, _now()),
            )
            return cursor.rowcount == 1

    def inbox_pending(self, channel: str) -> list[tuple[str, str]]:
        """Return (key, payload) of deliveries kept but not yet handled, oldest first (after a crash)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT key, payload FROM inbox WHERE channel = ? AND done = 0 ORDER BY received_at", (channel,)
            ).fetchall()
        return [(r[0], r[1]) for r in rows]

    def inbox_done(self, channel: str, key: str) -> None:
        with self._lock:
            self._db.execute("UPDATE inbox SET done = 1 WHERE channel = ? AND key = ?", (channel, key))

    def inbox_forget(self, channel: str, key: str) -> None:
        """Remove a kept delivery altogether (a refused stranger's): nothing of it stays."""
        with self._lock:
            self._db.execute("DELETE FROM inbox WHERE channel = ? AND key = ?", (channel, key))

    def open_card(self, pack: str, user_id: str, kind: str, payload: dict[str, Any]) -> Card:
        card_id = secrets.token_hex(5)
        now = _now()
        with self._lock:
            self._db.execute(
                "INSERT INTO cards VALUES (?, ?, ?, ?, ?, 'open', ?, ?)",
                (card_id, pack, user_id, kind, json.dumps(payload, ensure_ascii=False), now, now),
            )
        return Card(card_id=card_id, pack=pack, user_id=user_id, kind=kind, payload=payload, status="open")

    def card(self, card_id: str) -> Card | None:
        with self._lock:
            row = self._db.execute(
                "SELECT card_id, pack, user_id, kind, payload, status FROM cards WHERE card_id = ?", (card_id,)
            ).fetchone()
        if row is None:
            return None
        return Card(card_id=row[0], pack=row[1], user_id=row[2], kind=row[3], payload=json.loads(row[4]), status=row[5])

    def update_payload(self, card_id: str, payload: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE cards SET payload = ?, updated_at = ? WHERE card_id = ? AND status = 'open'",
                (json.dumps(payload, ensure_ascii=False), _now(), card_id),
            )

    def move_card(self, card_id: str, expected: CardStatus, new: CardStatus) -> bool:
        """Change a card's status only if it is still `expected`: a double-tap loses the race harmlessly."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE cards SET status = ?, updated_at = ? WHERE card_id = ? AND status = ?",
                (new, _now(), card_id, expected),
            )
            return cursor.rowcount == 1

    def open_cards(self, user_id: str | None = None) -> list[Card]:
        query = "SELECT card_id FROM cards WHERE status IN ('open', 'saving')"
        args: tuple[str, ...] = ()
        if user_id is not None:
            query += " AND user_id = ?"
            args = (user_id,)
        with self._lock:
            ids = [r[0] for r in self._db.execute(query + " ORDER BY created_at", args).fetchall()]
        return [c for c in (self.card(i) for i in ids) if c is not None]

    def await_edit(self, user_id: str, card_id: str, field: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO awaiting VALUES (?, ?, ?)", (user_id, card_id, field))

    def awaiting_edit(self, user_id: str) -> AwaitingEdit | None:
        with self._lock:
            row = self._db.execute("SELECT card_id, field FROM awaiting WHERE user_id = ?", (user_id,)).fetchone()
        return AwaitingEdit(card_id=row[0], field=row[1]) if row else None

    def clear_edit(self, user_id: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM awaiting WHERE user_id = ?", (user_id,))

    def pref(self, user_id: str, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM prefs WHERE user_id = ? AND key = ?", (user_id, key)).fetchone()
        return row[0] if row else None

    def set_pref(self, user_id: str, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO prefs VALUES (?, ?, ?)", (user_id, key, value))
