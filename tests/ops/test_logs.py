"""Logs an operator can use: one line per message handled at the default level (ids, tenant, pack, kind,
outcome, ms; never the text or the number), JSON with SMRITI_LOG_FORMAT=json, SMRITI_LOG_LEVEL, a time with its
zone; a delivery stuck in the inbox is shown by `smriti queue list`."""

import argparse
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.cli import queue as queue_cli
from bot.core.app import App
from bot.store.state import InboxRow

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import logging
from bot.core.metrics import handling
from bot.log_hygiene import configure_logging
configure_logging(verbose=False)
with handling("whatsapp", "SM123", "voice") as outcome:
    outcome.pack, outcome.tenant, outcome.user_id, outcome.outcome = "agri", "demo", "srinivas", "answered"
logging.getLogger("bot.other").info("an ordinary info line")
"""


def _run(**env: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert result.returncode == 0, result.stderr
    return result.stderr.strip().splitlines()


def test_one_line_per_message_at_the_default_level_with_a_zoned_time() -> None:
    lines = _run(SMRITI_LOG_FORMAT="", SMRITI_LOG_LEVEL="")
    [handled] = [line for line in lines if "message handled" in line]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d INFO smriti.messages", handled)
    for field in ("transport=whatsapp", "delivery_id=SM123", "tenant=demo", "pack=agri", "kind=voice",
                  "outcome=answered", "ms="):
        assert field in handled
    assert not any("ordinary info" in line for line in lines)  # other INFO stays quiet by default


def test_json_lines_and_the_level_setting() -> None:
    lines = [json.loads(line) for line in _run(SMRITI_LOG_FORMAT="json", SMRITI_LOG_LEVEL="")]
    [handled] = [line for line in lines if line["message"] == "message handled"]
    assert handled["pack"] == "agri" and handled["outcome"] == "answered" and handled["delivery_id"] == "SM123"
    assert datetime.fromisoformat(handled["ts"]).tzinfo is not None
    assert handled["level"] == "INFO" and isinstance(handled["ms"], int)
    quiet = _run(SMRITI_LOG_FORMAT="json", SMRITI_LOG_LEVEL="ERROR")
    assert quiet == []
    chatty = [json.loads(line)["message"] for line in _run(SMRITI_LOG_FORMAT="json", SMRITI_LOG_LEVEL="info")]
    assert "an ordinary info line" in chatty


@pytest.mark.hindsight
async def test_queue_list_shows_a_stuck_inbox_delivery(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    state = app.services.state
    state.inbox_put("whatsapp", "SM" + "5" * 32, json.dumps({"body": "a private note"}))
    state.inbox_put("telegram", "777", "{}")
    with app.services.database.session() as s:
        s.execute(update(InboxRow).where(InboxRow.key == "SM" + "5" * 32).values(
            received_at=datetime.now(timezone.utc) - timedelta(minutes=12)))
    await queue_cli._run(app, argparse.Namespace(action="list", all=False, intake_id=None))
    out = capsys.readouterr().out
    assert re.search(r"inbox whatsapp\s+SM5{32} received .* not handled for 12 min", out)
    assert "777" not in out  # just arrived: not stuck
    assert "private note" not in out


LIBRARIES_SCRIPT = """
import logging
from bot.core.metrics import handling
from bot.log_hygiene import configure_logging
configure_logging(verbose=False)
for name in ("twilio.http_client", "alembic.runtime.plugins", "apscheduler.executors.default", "httpx",
             "telegram.ext.Application", "httpcore.connection"):
    logging.getLogger(name).info("library chatter from %s", name)
    logging.getLogger(name).warning("library trouble from %s", name)
with handling("whatsapp", "SM9", "text") as outcome:
    outcome.outcome = "answered"
"""


def _lines(script: str, **env: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **env})
    assert result.returncode == 0, result.stderr
    return result.stderr.strip().splitlines()


def test_libraries_are_quiet_at_info_and_speak_at_debug() -> None:
    info = _lines(LIBRARIES_SCRIPT, SMRITI_LOG_LEVEL="INFO", SMRITI_LOG_FORMAT="")
    assert [line for line in info if "chatter" in line] == []
    assert len([line for line in info if "trouble" in line]) == 6  # their warnings still show
    assert len([line for line in info if "message handled" in line]) == 1
    debug = _lines(LIBRARIES_SCRIPT, SMRITI_LOG_LEVEL="DEBUG", SMRITI_LOG_FORMAT="")
    chatter = [line for line in debug if "chatter" in line]
    assert any("twilio.http_client" in line for line in chatter) and any("alembic" in line for line in chatter)
    assert not any("httpx" in line for line in chatter)  # its URLs hold the bot's token, even at DEBUG
    errors_only = _lines(LIBRARIES_SCRIPT, SMRITI_LOG_LEVEL="ERROR", SMRITI_LOG_FORMAT="")
    assert errors_only == []


def test_a_database_command_at_info_prints_no_migration_chatter(tmp_path: Path) -> None:
    command = "import sys, handlers; sys.exit(handlers.main(sys.argv[1:]))"
    result = subprocess.run([sys.executable, "-c", command, "db", "upgrade"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                         "SMRITI_HOME": str(tmp_path), "SMRITI_LOG_LEVEL": "INFO",
                                                         "SMRITI_DATABASE_URL": ""})
    assert result.returncode == 0, result.stderr
    assert "Database up to date" in result.stdout and "alembic" not in result.stderr, result.stderr
