"""A data directory as the code before the one database left it: seven SQLite files under state/, built with
raw sqlite3 and the schemas of that code (bot/store/state.py, bot/core/intake.py, memory/outbox.py, bot/core/scheduler.py,
bot/store/grants.py, handlers/ap/audit.py at commit 69dcacd)."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path

CONVERSATION = """
CREATE TABLE inbox (channel TEXT NOT NULL, key TEXT NOT NULL, payload TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
    received_at TEXT NOT NULL, PRIMARY KEY (channel, key));
CREATE TABLE cards (card_id TEXT PRIMARY KEY, pack TEXT NOT NULL, user_id TEXT NOT NULL, kind TEXT NOT NULL,
    payload TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE awaiting (user_id TEXT PRIMARY KEY, card_id TEXT NOT NULL, field TEXT NOT NULL);
CREATE TABLE prefs (user_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user_id, key));
"""
INTAKE = """
CREATE TABLE intake_items (intake_id VARCHAR(32) NOT NULL PRIMARY KEY, transport VARCHAR(16) NOT NULL,
    delivery_id VARCHAR(128) NOT NULL, user_id VARCHAR(64) NOT NULL, incoming TEXT NOT NULL, state VARCHAR(16) NOT NULL,
    attempts INTEGER NOT NULL, last_error TEXT, received_at DATETIME NOT NULL, next_attempt_at DATETIME,
    updated_at DATETIME NOT NULL);
CREATE TABLE intake_deliveries (transport VARCHAR(16) NOT NULL, delivery_id VARCHAR(128) NOT NULL,
    intake_id VARCHAR(32) NOT NULL, PRIMARY KEY (transport, delivery_id));
"""
OUTBOX = """
CREATE TABLE outbox (bank_id TEXT NOT NULL, document_id TEXT NOT NULL, item TEXT NOT NULL,
    queued_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, PRIMARY KEY (bank_id, document_id));
"""
FOLLOWUPS = """
CREATE TABLE followups (followup_id TEXT PRIMARY KEY, pack TEXT NOT NULL, user_id TEXT NOT NULL, due_at TEXT NOT NULL,
    subject TEXT NOT NULL, status TEXT NOT NULL, asked_at TEXT);
"""
JOBS = """
CREATE TABLE apscheduler_jobs (id VARCHAR(191) NOT NULL PRIMARY KEY, next_run_time FLOAT, job_state BLOB NOT NULL);
"""
ACCESS = """
CREATE TABLE territory_grants (user_id TEXT NOT NULL, village TEXT NOT NULL, granted_at TEXT NOT NULL,
    PRIMARY KEY (user_id, village));
"""
AUDIT = """
CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, run_id TEXT NOT NULL, bank_id TEXT NOT NULL,
    vendor_id TEXT, invoice_number TEXT, action TEXT NOT NULL, detail TEXT NOT NULL);
CREATE INDEX audit_invoice ON audit (bank_id, invoice_number);
CREATE TABLE runs (run_id TEXT PRIMARY KEY, bank_id TEXT NOT NULL, user_id TEXT NOT NULL, report TEXT NOT NULL,
    created_at TEXT NOT NULL, clerk_action TEXT, clerk_user TEXT, clerk_at TEXT);
"""

INCOMING = {"transport": "telegram", "sender": "1001", "delivery_id": "update-9001", "text": "note 2026-04-18 wilt",
            "media": None, "callback": None, "received_at": "2026-04-18T09:00:00Z"}
MEMORY = {"content": "Vendor paid on time.", "event_time": "2026-03-01T00:00:00Z", "context": "payment",
          "document_id": "pay:V9:1", "tags": ["kind:payment"], "metadata": {}, "observation_scopes": "per_tag"}


def _write(path: Path, schema: str, rows: list[tuple[str, tuple[object, ...]]]) -> None:
    with closing(sqlite3.connect(str(path))) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(schema)
        for sql, args in rows:
            db.execute(sql, args)
        db.commit()


def build_old_layout(state_dir: Path, followup_due: str) -> None:
    """One of each thing a person could be in the middle of, in the files the old code wrote."""
    state_dir.mkdir(parents=True, exist_ok=True)
    _write(state_dir / "conversation.sqlite", CONVERSATION, [
        ("INSERT INTO inbox VALUES (?, ?, ?, 0, ?)", ("whatsapp", "SM77", '{"MessageSid": "SM77"}', "2026-04-18T09:00:00+00:00")),
        ("INSERT INTO inbox VALUES (?, ?, ?, 1, ?)", ("telegram", "8000", "{}", "2026-04-18T08:00:00+00:00")),
        ("INSERT INTO cards VALUES (?, ?, ?, ?, ?, 'open', ?, ?)",
         ("c0ffee0001", "agri", "srinivas", "visit", json.dumps({"farmer": "Yadagiri", "crop": "మిరప"}),
          "2026-04-18T09:01:00+00:00", "2026-04-18T09:01:00+00:00")),
        ("INSERT INTO cards VALUES (?, ?, ?, ?, ?, 'saved', ?, ?)",
         ("c0ffee0002", "agri", "srinivas", "visit", "{}", "2026-04-17T09:01:00+00:00", "2026-04-17T09:02:00+00:00")),
        ("INSERT INTO awaiting VALUES (?, ?, ?)", ("srinivas", "c0ffee0001", "crop")),
        ("INSERT INTO prefs VALUES (?, ?, ?)", ("srinivas", "lang", "te")),
        ("INSERT INTO prefs VALUES (?, ?, ?)", ("srinivas", "agri.awaiting_outcome", "agri-V42")),
        ("INSERT INTO prefs VALUES (?, ?, ?)", ("telegram:1001", "card:c0ffee0001", "555")),
    ])
    _write(state_dir / "intake.sqlite", INTAKE, [
        ("INSERT INTO intake_items VALUES (?, ?, ?, ?, ?, 'waiting', 2, ?, ?, ?, ?)",
         ("a" * 32, "telegram", "update-9001", "srinivas", json.dumps(INCOMING), "memory down",
          "2026-04-18 09:00:00.000000", "2026-04-18 09:30:00.000000", "2026-04-18 09:05:00.000000")),
        ("INSERT INTO intake_deliveries VALUES (?, ?, ?)", ("telegram", "update-9001", "a" * 32)),
    ])
    _write(state_dir / "outbox.sqlite", OUTBOX, [
        ("INSERT INTO outbox VALUES (?, ?, ?, ?, 1, ?)",
         ("t-ap-demo", "pay:V9:1", json.dumps(MEMORY), "2026-04-18T09:00:00+00:00", "down")),
    ])
    _write(state_dir / "followups.sqlite", FOLLOWUPS, [
        ("INSERT INTO followups VALUES (?, ?, ?, ?, ?, 'pending', NULL)",
         ("agri-V42", "agri", "srinivas", followup_due, json.dumps({"farmer": "Yadagiri"}))),
        ("INSERT INTO followups VALUES (?, ?, ?, ?, ?, 'asked', ?)",
         ("agri-V41", "agri", "srinivas", "2026-03-01T09:00:00+00:00", "{}", "2026-03-01T09:00:05+00:00")),
    ])
    _write(state_dir / "followup-jobs.sqlite", JOBS, [])
    _write(state_dir / "access.sqlite", ACCESS, [
        ("INSERT INTO territory_grants VALUES (?, ?, ?)", ("srinivas", "kandukur", "2026-04-01T10:00:00+00:00")),
    ])
    _write(state_dir / "ap_audit.sqlite", AUDIT, [
        ("INSERT INTO audit (at, run_id, bank_id, vendor_id, invoice_number, action, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
         ("2026-04-18T09:00:00+00:00", "run-1", "t-ap-demo", "V9", "INV-9", "INVOICE_RECEIVED", "{}")),
        ("INSERT INTO audit (at, run_id, bank_id, vendor_id, invoice_number, action, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
         ("2026-04-18T09:00:01+00:00", "run-1", "t-ap-demo", "V9", "INV-9", "DECISION_MADE", '{"decision": "HOLD"}')),
        ("INSERT INTO runs VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL)",
         ("run-1", "t-ap-demo", "asha", '{"decision": "HOLD"}', "2026-04-18T09:00:02+00:00")),
    ])
