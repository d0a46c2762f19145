"""`smriti backup create DIR | restore DIR --yes`: the bot's database and the memory store, saved together.

The database: SQLite through its online backup (a consistent copy while the bot runs), PostgreSQL through
pg_dump's custom format. The memory: every document of every bank of this bot (its bank prefix), as the items
that would retain it again (same document ids, content, tags, metadata, event time). Restoring puts the
database back and retains the documents again, which replaces (never duplicates) what a bank still holds.
A restore refuses while a worker or the office page uses the database (each holds a `running:` lease,
bot/store/presence.py): stop them, restore, start them again. A backup can be made while they run.
"""

import argparse
import json
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.settings import Settings

if TYPE_CHECKING:
    from memory import MemoryClient

RETAIN_BATCH = 50


class Manifest(BaseModel):
    made_at: datetime
    dialect: str
    database_file: str
    banks: dict[str, int]
    """Each bank's document count."""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    backup = sub.add_parser("backup", help="save or restore the database and the memory store together")
    backup.add_argument("action", choices=["create", "restore"])
    backup.add_argument("folder", type=Path, help="where the backup is written, or read from")
    backup.add_argument("--yes", action="store_true", help="restore: replace the database without asking")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        if args.action == "create":
            manifest = await create(settings, args.folder)
            print(f"Backup in {args.folder}: database ({manifest.dialect}), "
                  f"{sum(manifest.banks.values())} memory documents in {len(manifest.banks)} banks.")
            return 0
        if not args.yes:
            print("A restore replaces the database: stop the workers, then run it again with --yes.",
                  file=sys.stderr)
            return 2
        live = _running(settings)
        if live:
            print(f"Not restored: {len(live)} bot process(es) use this database now "
                  f"({', '.join(_where(owner) for owner in live)}). A restore under running workers would mix "
                  "what they write with the backup. Stop them first (systemctl stop 'smriti-worker@*' and any "
                  "'smriti web', or docker compose stop worker1 worker2), run the restore again, then start them.",
                  file=sys.stderr)
            return 2
        restored = await restore(settings, args.folder)
        print(f"Restored the database and {restored} memory documents from {args.folder}.")
        return 0

    backup.set_defaults(handler=handler)


def _running(settings: Settings) -> list[str]:
    from bot.store.db import Database
    from bot.store.presence import running

    database = Database(settings.database_url)
    try:
        return running(database)
    finally:
        database.dispose()


def _where(owner: str) -> str:
    """host pid of a lease owner (host:pid:start:nonce)."""
    host, pid, *_ = owner.split(":") + ["?"]
    return f"{host} pid {pid}"


def _memory(settings: Settings) -> "MemoryClient":
    from memory import MemoryClient

    key = settings.hindsight_api_key.get_secret_value() if settings.hindsight_api_key else None
    return MemoryClient(settings.memory_url, api_key=key)


def _libpq(url: str) -> str:
    """pg_dump's form of the URL (no SQLAlchemy driver part)."""
    scheme, rest = url.split("://", 1)
    return f"postgresql://{rest}" if scheme.startswith("postgres") else url


async def create(settings: Settings, folder: Path) -> Manifest:
    from bot.store.db import normalize_database_url

    folder.mkdir(parents=True, exist_ok=True)
    url = normalize_database_url(settings.database_url)
    if url.startswith("sqlite"):
        source = sqlite3.connect(url.split(":///", 1)[1])
        target = sqlite3.connect(folder / "smriti.db")
        with target:
            source.backup(target)
        source.close()
        target.close()
        dialect, database_file = "sqlite", "smriti.db"
    else:
        _pg_tool(["pg_dump", "--format=custom", "--no-owner", f"--file={folder / 'database.dump'}", _libpq(url)])
        dialect, database_file = "postgresql", "database.dump"
    banks: dict[str, int] = {}
    (folder / "memory").mkdir(exist_ok=True)
    async with _memory(settings) as memory:
        for bank in sorted(await memory.bank_ids()):
            if not bank.startswith(f"{settings.bank_prefix}-"):
                continue
            items = await memory.export_bank(bank)
            (folder / "memory" / f"{bank}.jsonl").write_text(
                "".join(i.model_dump_json() + "\n" for i in items), encoding="utf-8")
            banks[bank] = len(items)
    manifest = Manifest(made_at=datetime.now(timezone.utc), dialect=dialect, database_file=database_file,
                        banks=banks)
    (folder / "manifest.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    _owner_only(folder)
    return manifest


def _pg_tool(command: list[str]) -> None:
    """Run pg_dump or pg_restore; a failure is one clear line (SystemExit), not a CalledProcessError."""
    tool = command[0]
    try:
        subprocess.run(command, check=True, capture_output=True, timeout=3600)
    except FileNotFoundError:
        raise SystemExit(f"{tool} is not installed: install the PostgreSQL client of your server's major version "
                         "(postgresql-client-16 for PostgreSQL 16)") from None
    except subprocess.CalledProcessError as exc:
        said = (exc.stderr or b"").decode(errors="replace").strip().splitlines()
        reason = said[-1] if said else f"exit code {exc.returncode}"
        hint = ""
        if "version mismatch" in " ".join(said):
            hint = (f"; {tool} must be of the server's major version or newer: install that PostgreSQL client "
                    "(deploy/Dockerfile's PG_MAJOR matches compose.yaml's server)")
        raise SystemExit(f"{tool} failed: {reason}{hint}") from None


def _owner_only(folder: Path) -> None:
    """A backup holds every tenant's people, registers and memory: readable by its owner only."""
    folder.chmod(0o700)
    for path in folder.rglob("*"):
        path.chmod(0o700 if path.is_dir() else 0o600)


async def restore(settings: Settings, folder: Path) -> int:
    from bot.store.db import normalize_database_url
    from memory import MemoryItem

    manifest = Manifest.model_validate_json((folder / "manifest.json").read_text(encoding="utf-8"))
    url = normalize_database_url(settings.database_url)
    if manifest.dialect == "sqlite":
        if not url.startswith("sqlite"):
            raise SystemExit("this backup is of a SQLite database; SMRITI_DATABASE_URL names another kind")
        target = Path(url.split(":///", 1)[1])
        target.parent.mkdir(parents=True, exist_ok=True)
        for stale in (target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
            stale.unlink(missing_ok=True)
        shutil.copyfile(folder / manifest.database_file, target)
    else:
        _pg_tool(["pg_restore", "--clean", "--if-exists", "--no-owner", f"--dbname={_libpq(url)}",
                  str(folder / manifest.database_file)])
    restored = 0
    async with _memory(settings) as memory:
        for bank in manifest.banks:
            lines = (folder / "memory" / f"{bank}.jsonl").read_text(encoding="utf-8").splitlines()
            items = [MemoryItem.model_validate(json.loads(line)) for line in lines if line.strip()]
            for start in range(0, len(items), RETAIN_BATCH):
                await memory.retain(bank, items[start:start + RETAIN_BATCH])
            restored += len(items)
    return restored
