"""Backup and restore of the database and the memory store together: after a loss, the restored bot knows the
same people and its memory answers the same recall with the same documents and dates."""

import argparse
import asyncio
import os
import socket
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.cli import backup
from bot.core.app import App
from bot.core.loops import Loops
from bot.store.leases import LeaseRow
from bot.store.presence import announcer, running
from bot.store.people import load_people
from memory import MemoryItem, RecallRequest
from memory.asof import IST
from tests.conftest import make_settings

pytestmark = pytest.mark.hindsight

NOTES = [("2026-03-02", "Ramesh Goud's cotton showed pink bollworm in the lower canopy"),
         ("2026-03-09", "Lakshmi Devi ordered two litres of Amistar Top for the chilli plot"),
         ("2026-03-16", "Venkat Rao refused the copper spray, saying rain would wash it off")]


async def _answers(app: App, bank: str) -> list[tuple[str | None, str | None]]:
    answers = set()
    for query in ("pink bollworm in cotton", "Amistar Top order", "copper spray refused"):
        found = await app.services.memory.recall(bank, RecallRequest(query=query, tags=["kind:note"]))
        answers |= {(r.document_id, r.event_date.isoformat() if r.event_date else None) for r in found}
    return sorted(answers, key=str)


async def test_a_restore_answers_the_same(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    prefix = f"{bank_prefix}b"
    settings = make_settings(tmp_path / "home", hindsight_url, prefix)
    app = await App.start(settings)
    bank = app.services.bank_of("demo", "agri")
    await app.services.memory.retain(bank, [
        MemoryItem(content=text, event_time=datetime.fromisoformat(f"{day}T10:30:00").replace(tzinfo=IST),
                   context="visit note", document_id=f"note:srinivas:{day}", tags=["kind:note"],
                   metadata={"author": "srinivas"}) for day, text in NOTES])
    before = await _answers(app, bank)
    people = sorted(u.user_id for u in load_people(app.services.database))
    assert len(before) == 3 and len(people) >= 3
    manifest = await backup.create(settings, tmp_path / "backup")
    assert manifest.banks[bank] == 3
    written = [tmp_path / "backup", *(tmp_path / "backup").rglob("*")]
    assert all(path.stat().st_mode & 0o077 == 0 for path in written), "a backup is readable by its owner only"
    await app.services.memory.delete_bank(bank)  # the loss: the memory store and the machine are gone
    await app.aclose()

    fresh = make_settings(tmp_path / "new-home", hindsight_url, prefix)
    assert await backup.restore(fresh, tmp_path / "backup") == 3
    restored = await App.start(fresh)
    try:
        assert sorted(u.user_id for u in load_people(restored.services.database)) == people
        assert await _answers(restored, bank) == before
        [item] = [i for i in await restored.services.memory.export_bank(bank) if i.document_id.endswith("03-09")]
        assert item.metadata == {"author": "srinivas"} and item.event_time.date().isoformat() == "2026-03-09"
    finally:
        await restored.services.memory.delete_bank(bank)
        await restored.aclose()


async def test_a_restore_refuses_while_a_worker_uses_the_database(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, capsys: pytest.CaptureFixture[str]) -> None:
    settings = make_settings(tmp_path / "home", hindsight_url, f"{bank_prefix}r")
    app = await App.start(settings)
    parser = argparse.ArgumentParser()
    backup.register(parser.add_subparsers())
    args = parser.parse_args(["backup", "restore", str(tmp_path / "no-backup-needed"), "--yes"])
    loops = Loops()
    try:
        loops.start("running-lease", announcer(app.services.database))  # what `smriti run` and `smriti web` hold
        for _ in range(100):
            if running(app.services.database):
                break
            await asyncio.sleep(0.05)
        assert await args.handler(args, settings) == 2
        said = capsys.readouterr().err
        assert f"Not restored: 1 bot process(es) use this database now ({socket.gethostname()[:20]} pid " \
               f"{os.getpid()})" in said and "Stop them first" in said
    finally:
        await loops.stop()
    assert running(app.services.database) == []  # a stopped worker lets go at once
    with app.services.database.session() as s:  # one that died elsewhere and never let go: its lease lapses
        s.add(LeaseRow(name="running:otherhost:1:2:3", holder="otherhost:1:2:3",
                       expires_at=datetime.now(timezone.utc) - timedelta(seconds=1)))
    assert running(app.services.database) == []
    await app.aclose()


async def test_a_pg_dump_of_another_major_version_is_one_clear_line(
        tmp_path: Path, hindsight_url: str, bank_prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    fake = tools / "pg_dump"
    fake.write_text("#!/bin/sh\necho 'pg_dump: error: aborting because of server version mismatch' >&2\n"
                    "echo 'pg_dump: detail: server version: 16.4; pg_dump version: 15.8' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    settings = make_settings(tmp_path / "home", hindsight_url, f"{bank_prefix}v").model_copy(
        update={"database_url_override": "postgresql://smriti:x@127.0.0.1:1/smriti"})
    with pytest.raises(SystemExit) as stopped:
        await backup.create(settings, tmp_path / "backup")
    said = str(stopped.value)
    assert said.startswith("pg_dump failed: pg_dump: detail: server version: 16.4; pg_dump version: 15.8")
    assert "must be of the server's major version or newer" in said
