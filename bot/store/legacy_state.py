"""The core's old state files (conversation, intake, outbox, follow-ups, grants) moved into the one database.

Open cards, pending edits, queued deliveries and intake items, retains waiting for Hindsight, follow-ups and
territory grants survive; follow-up jobs are made again from the follow-ups (the old job store named its
scheduler by the old file's path, so its pickled jobs could not fire here).
"""

import json
import logging
import sqlite3
from pathlib import Path

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from bot.store.state import PREF_COLUMNS, ConversationRow
from bot.store import Database
from bot.store.legacy import copy_into, migrate_file, old_rows, retire, when
from bot.store.sql import upsert
from memory.outbox import outbox_table

log = logging.getLogger(__name__)


class LegacyReport(BaseModel):
    copied: dict[str, int] = Field(default_factory=dict)
    """Rows moved, per old file name."""
    followups_to_schedule: list[str] = Field(default_factory=list)
    """Follow-ups still waiting to be asked: their jobs must be made again."""


def _conversation(session: Session, old: sqlite3.Connection) -> int:
    copied = copy_into(session, "inbox", ({**r, "done": bool(r["done"]), "received_at": when(r["received_at"])}
                                          for r in old_rows(old, "SELECT * FROM inbox")))
    copied += copy_into(session, "cards", ({**r, "created_at": when(r["created_at"]),
                                            "updated_at": when(r["updated_at"])}
                                           for r in old_rows(old, "SELECT * FROM cards")))
    copied += copy_into(session, "pending_edits", old_rows(old, "SELECT user_id, card_id, field FROM awaiting"))
    for pref in old_rows(old, "SELECT user_id, key, value FROM prefs"):
        subject, key, value = pref["user_id"], pref["key"], pref["value"]
        if key.startswith("card:") and value.isdigit():
            copied += copy_into(session, "card_messages",
                                [{"chat": subject, "card_id": key.removeprefix("card:"), "message_id": int(value)}])
            continue
        column = PREF_COLUMNS.get(key)
        if column is None:
            log.warning("an old preference of an unknown kind was not moved")
            continue
        typed = when(value) if column == "last_inbound_at" else value
        upsert(session, ConversationRow.__table__, {"subject": subject, column: typed}, ["subject"])
        copied += 1
    return copied


def _intake(session: Session, old: sqlite3.Connection) -> int:
    items = old_rows(old, "SELECT * FROM intake_items")
    stamps = ("received_at", "next_attempt_at", "updated_at")
    copied = copy_into(session, "intake_items", ({**r, **{k: when(r[k]) for k in stamps}} for r in items))
    return copied + copy_into(session, "intake_deliveries", old_rows(old, "SELECT * FROM intake_deliveries"))


def _outbox(session: Session, old: sqlite3.Connection) -> int:
    return copy_into(session, outbox_table, ({**r, "queued_at": when(r["queued_at"])}
                                         for r in old_rows(old, "SELECT * FROM outbox")))


def _grants(session: Session, old: sqlite3.Connection) -> int:
    return copy_into(session, "territory_grants", ({**r, "granted_at": when(r["granted_at"])}
                                                   for r in old_rows(old, "SELECT * FROM territory_grants")))


def import_legacy_state(database: Database, state_dir: Path) -> LegacyReport:
    """Move every old core state file found in `state_dir` into the database (once; files kept renamed)."""
    report = LegacyReport()
    followups: list[dict[str, object]] = []

    def _followups(session: Session, old: sqlite3.Connection) -> int:
        rows = [{**r, "due_at": when(r["due_at"]), "asked_at": when(r["asked_at"])}
                for r in old_rows(old, "SELECT * FROM followups")]
        followups.extend(rows)
        return copy_into(session, "followups", rows)

    for name, copier in (("conversation.sqlite", _conversation), ("intake.sqlite", _intake),
                         ("outbox.sqlite", _outbox), ("followups.sqlite", _followups),
                         ("access.sqlite", _grants)):
        copied = migrate_file(database, state_dir / name, copier)
        if copied is not None:
            report.copied[name] = copied
    if "followups.sqlite" in report.copied:
        retire(state_dir / "followup-jobs.sqlite")
    report.followups_to_schedule = [str(f["followup_id"]) for f in followups if f["status"] == "pending"]
    if report.copied:
        log.info("moved the old state files into the database: %s", json.dumps(report.copied))
    return report
