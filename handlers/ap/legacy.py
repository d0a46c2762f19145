"""The AP audit trail of the old layout (state/ap_audit.sqlite) moved into the one database, once."""

import sqlite3
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

from bot.store import Database
from bot.store.legacy import copy_into, migrate_file, old_rows, when

OLD_FILE = "ap_audit.sqlite"


def _copy(session: Session, old: sqlite3.Connection) -> int:
    copied = copy_into(session, "ap_audit", ({**r, "at": when(r["at"])}
                                             for r in old_rows(old, "SELECT * FROM audit ORDER BY seq")))
    copied += copy_into(session, "ap_runs", ({**r, "created_at": when(r["created_at"]), "clerk_at": when(r["clerk_at"])}
                                             for r in old_rows(old, "SELECT * FROM runs")))
    if session.get_bind().dialect.name == "postgresql":
        # The old sequence numbers were kept; new entries must number after them.
        session.execute(text("SELECT setval(pg_get_serial_sequence('ap_audit', 'seq'), "
                             "COALESCE((SELECT MAX(seq) FROM ap_audit), 0) + 1, false)"))
    return copied


def import_legacy_audit(database: Database, state_dir: Path) -> int | None:
    """Move the old audit file into the database; None when there is none."""
    return migrate_file(database, state_dir / OLD_FILE, _copy)
