"""The AP audit log: every step of every run, and each clerk's choice, in SQLite under the state directory.

It answers "why did the agent hold this payment?" without memory: the steps, the flags, the memories kept
(by document id) and what was retained. It never holds invoice text or bank numbers, only ids and codes.
"""

import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

Action = Literal[
    "INVOICE_RECEIVED", "INVOICE_REFUSED", "VENDOR_IDENTIFIED", "MATCH_DONE", "MEMORY_DISABLED",
    "MEMORY_SKIPPED_NO_HISTORY", "MEMORY_RECALLED", "MEMORY_ERROR", "RISK_EVALUATED", "DECISION_MADE",
    "AGENT_MEMORY_RETAINED", "AGENT_MEMORY_QUEUED", "AGENT_MEMORY_ALREADY_RETAINED", "AGENT_MEMORY_REJECTED",
    "RETAIN_NOT_NEEDED", "CLERK_ACTION", "RESOLUTION_RETAINED", "RESOLUTION_QUEUED",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, run_id TEXT NOT NULL, bank_id TEXT NOT NULL,
    vendor_id TEXT, invoice_number TEXT, action TEXT NOT NULL, detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_invoice ON audit (bank_id, invoice_number);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, bank_id TEXT NOT NULL, user_id TEXT NOT NULL, report TEXT NOT NULL,
    created_at TEXT NOT NULL, clerk_action TEXT, clerk_user TEXT, clerk_at TEXT
);
"""


class AuditEntry(BaseModel):
    seq: int
    at: datetime
    run_id: str
    bank_id: str
    vendor_id: str | None
    invoice_number: str | None
    action: Action
    detail: dict[str, Any]


class RunRecord(BaseModel):
    """A decision shown to a clerk, waiting for (or holding) their choice."""

    run_id: str
    bank_id: str
    user_id: str
    report: dict[str, Any]
    clerk_action: str | None
    clerk_user: str | None


class AuditLog:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def record(self, run_id: str, bank_id: str, action: Action, /, vendor_id: str | None = None,
               invoice_number: str | None = None, **detail: Any) -> None:
        """Append one step to the log."""
        with self._lock:
            self._db.execute(
                "INSERT INTO audit (at, run_id, bank_id, vendor_id, invoice_number, action, detail) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (datetime.now(timezone.utc).isoformat(), run_id, bank_id, vendor_id, invoice_number, action,
                 json.dumps(detail, default=str, ensure_ascii=False)),
            )

    def entries(self, bank_id: str | None = None, invoice_number: str | None = None, run_id: str | None = None,
                limit: int = 500) -> list[AuditEntry]:
        """Return entries in the order they happened, optionally for one bank, invoice or run."""
        clauses, args = [], []
        for column, value in (("bank_id", bank_id), ("invoice_number", invoice_number), ("run_id", run_id)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, run_id, bank_id, vendor_id, invoice_number, action, detail FROM "
                f"(SELECT * FROM audit{where} ORDER BY seq DESC LIMIT ?) ORDER BY seq", (*args, limit),
            ).fetchall()
        return [AuditEntry(seq=r[0], at=r[1], run_id=r[2], bank_id=r[3], vendor_id=r[4], invoice_number=r[5],
                           action=r[6], detail=json.loads(r[7])) for r in rows]

    def retained_digest(self, bank_id: str, document_id: str) -> str | None:
        """Return the content digest last retained under this document id in this bank, if any."""
        with self._lock:
            rows = self._db.execute(
                "SELECT detail FROM audit WHERE bank_id = ? AND action = 'AGENT_MEMORY_RETAINED' ORDER BY seq DESC",
                (bank_id,),
            ).fetchall()
        for (raw,) in rows:
            detail = json.loads(raw)
            if detail.get("document_id") == document_id:
                return detail.get("digest")
        return None

    def save_run(self, run_id: str, bank_id: str, user_id: str, report: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO runs (run_id, bank_id, user_id, report, created_at) VALUES (?, ?, ?, ?, ?)",
                (run_id, bank_id, user_id, json.dumps(report, default=str, ensure_ascii=False),
                 datetime.now(timezone.utc).isoformat()),
            )

    def run(self, run_id: str) -> RunRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT run_id, bank_id, user_id, report, clerk_action, clerk_user FROM runs WHERE run_id = ?",
                (run_id,),
            ).fetchone()
        if row is None:
            return None
        return RunRecord(run_id=row[0], bank_id=row[1], user_id=row[2], report=json.loads(row[3]),
                         clerk_action=row[4], clerk_user=row[5])

    def claim_clerk_action(self, run_id: str, action: str, user_id: str) -> bool:
        """Record the clerk's choice once: a second tap (or a second clerk) loses harmlessly."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE runs SET clerk_action = ?, clerk_user = ?, clerk_at = ? WHERE run_id = ? AND clerk_action IS NULL",
                (action, user_id, datetime.now(timezone.utc).isoformat(), run_id),
            )
            return cursor.rowcount == 1
