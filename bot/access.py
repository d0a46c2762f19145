"""Territory grants: villages an officer is given on top of the registry's, e.g. when inheriting a colleague's.

Grants live in a small SQLite table under the state directory, so a grant made with `smriti access grant`
reaches a running bot on its next message. The core hands packs the effective user: the registry's
territories plus the grants. A grant never changes a person's tenant, pack or role.
"""

import sqlite3
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel

from bot.registry import User

_SCHEMA = """
CREATE TABLE IF NOT EXISTS territory_grants (
    user_id TEXT NOT NULL, village TEXT NOT NULL, granted_at TEXT NOT NULL,
    PRIMARY KEY (user_id, village)
)
"""


class Grant(BaseModel):
    user_id: str
    village: str
    granted_at: datetime


class TerritoryGrants:
    """The grant table. Each call opens its own connection: the CLI and the bot may both hold it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
        db.execute(_SCHEMA)
        return db

    def grant(self, user_id: str, village: str) -> bool:
        """Grant a village; return False when it was already granted."""
        with closing(self._connect()) as db:
            cursor = db.execute("INSERT OR IGNORE INTO territory_grants VALUES (?, ?, ?)",
                                (user_id, village, datetime.now(timezone.utc).isoformat()))
            return cursor.rowcount == 1

    def revoke(self, user_id: str, village: str) -> bool:
        """Take a granted village back; return False when there was no such grant."""
        with closing(self._connect()) as db:
            cursor = db.execute("DELETE FROM territory_grants WHERE user_id = ? AND village = ?", (user_id, village))
            return cursor.rowcount == 1

    def grants(self, user_id: str | None = None) -> list[Grant]:
        query, args = "SELECT user_id, village, granted_at FROM territory_grants", ()
        if user_id is not None:
            query, args = query + " WHERE user_id = ?", (user_id,)
        with closing(self._connect()) as db:
            rows = db.execute(query + " ORDER BY user_id, village", args).fetchall()
        return [Grant(user_id=r[0], village=r[1], granted_at=datetime.fromisoformat(r[2])) for r in rows]

    def effective(self, user: User) -> User:
        """Return the user with granted villages added to the registry's territories (same object if none)."""
        granted = [g.village for g in self.grants(user.user_id) if g.village not in user.territories]
        if not granted:
            return user
        return user.model_copy(update={"territories": [*user.territories, *granted]})


def grants_for(state_dir: Path) -> TerritoryGrants:
    """Return the grant table of a bot whose state lives in `state_dir`."""
    return TerritoryGrants(state_dir / "access.sqlite")
