"""Moving a data directory of the old layout (one SQLite file per store under state/) into the one database.

Run at start-up, before anything reads the stores. Each old file is copied in one transaction, then renamed
to `*.sqlite.migrated` (never deleted), so a second start finds nothing to do. Rows are inserted only where
their key is absent, so a start interrupted between the copy and the rename repeats the copy harmlessly.
"""

import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import Table
from sqlalchemy.orm import Session

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import insert_ignore

log = logging.getLogger(__name__)

Row = Mapping[str, Any]
Copier = Callable[[Session, sqlite3.Connection], int]


def when(value: str | None) -> datetime | None:
    """An old file's timestamp (ISO text, with or without a zone; SQLAlchemy's own layout) as UTC."""
    if not value:
        return None
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def old_rows(connection: sqlite3.Connection, query: str) -> list[Row]:
    """Rows of an old table as mappings; none when the old file never made that table."""
    connection.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in connection.execute(query).fetchall()]
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return []
        raise


def copy_into(session: Session, table: str | Table, rows: Iterable[Row]) -> int:
    """Insert rows whose key is absent (a table of Base by name, or a Table); return how many were new."""
    if isinstance(table, str):
        table = Base.metadata.tables[table]
    return sum(insert_ignore(session, table, row) for row in rows)


def retire(path: Path) -> None:
    """Rename an old file (and its WAL companions) out of the way, keeping it."""
    for companion in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if companion.exists():
            companion.rename(companion.with_name(companion.name + ".migrated"))


def migrate_file(database: Database, path: Path, copier: Copier) -> int | None:
    """Copy one old file into the database and retire it; None when there is no such file."""
    if not path.exists():
        return None
    with closing(sqlite3.connect(str(path))) as old, database.session() as session:
        copied = copier(session, old)
    retire(path)
    log.info("moved %s rows from %s into the database; the old file is kept as %s.migrated",
             copied, path.name, path.name)
    return copied
