"""A local append-only spool for webhook deliveries that arrive while the database is down.

A webhook is answered only after its delivery is kept somewhere durable: the database's inbox, or, when the
database cannot be reached, a line appended to a file under SMRITI_HOME and fsync'd. When the database is back
the transport's replay loop moves every spooled delivery into the inbox (idempotent by the provider's message
id: a key seen before is not queued again) and then deletes the file.

Each process appends to files of its own (`<owner>.jsonl`), so two workers sharing a home never interleave.
A replay first renames the current file (`<owner>.<n>.batch`): appends after that go to a new file. Files of
a process that died are replayed by whichever process finds them.
"""

import logging
import os
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from bot.core.errors import database_unavailable
from bot.store.leases import ProcessOwner, owner_is_dead

log = logging.getLogger(__name__)


class Spooled(BaseModel):
    key: str
    payload: str


Replay = Callable[[Spooled], object]
"""Keep one spooled delivery in the database (and queue it); raises while the database is still down."""


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Spool:
    """One channel's spool folder, as seen by one process."""

    def __init__(self, folder: Path, owner: str | None = None) -> None:
        self.folder = folder
        self.owner = owner or str(ProcessOwner.here())
        self._stem = self.owner.replace(":", "+")
        self._batches = 0

    @property
    def _current(self) -> Path:
        return self.folder / f"{self._stem}.jsonl"

    def append(self, key: str, payload: str) -> None:
        """Keep one delivery on disk before it is acknowledged: written and fsync'd when this returns."""
        self.folder.mkdir(parents=True, exist_ok=True)
        new = not self._current.exists()
        line = Spooled(key=key, payload=payload).model_dump_json() + "\n"
        with open(self._current, "ab") as spool:
            spool.write(line.encode("utf-8"))
            spool.flush()
            os.fsync(spool.fileno())
        if new:
            _fsync_dir(self.folder)
        log.warning("database unavailable: delivery kept in the local spool until it is back")

    def pending(self) -> int:
        """How many deliveries wait in this folder (every process's files)."""
        if not self.folder.is_dir():
            return 0
        count = 0
        for path in self.folder.iterdir():
            if path.suffix in (".jsonl", ".batch"):
                with open(path, "rb") as spool:
                    count += sum(1 for line in spool if line.strip())
        return count

    def _mine_or_orphaned(self, path: Path) -> bool:
        owner = path.name.split(".", 1)[0].replace("+", ":")
        return owner == self.owner or owner_is_dead(owner)

    def replay(self, keep: Replay) -> int:
        """Move spooled deliveries into the database, oldest file first; stop at the first that cannot be kept
        yet (the database is still down). Returns how many were kept."""
        if not self.folder.is_dir():
            return 0
        if self._current.exists():
            self._batches += 1
            self._current.rename(self.folder / f"{self._stem}.{self._batches:06d}.batch")
        kept = 0
        batches = sorted((p for p in self.folder.iterdir() if p.suffix in (".batch", ".jsonl")
                          and p != self._current and self._mine_or_orphaned(p)), key=lambda p: p.stat().st_mtime)
        for batch in batches:
            done, finished = self._replay_file(batch, keep)
            kept += done
            if not finished:
                break
            batch.unlink(missing_ok=True)
        if kept:
            log.info("replayed %s spooled deliveries into the database", kept)
        return kept

    def _replay_file(self, path: Path, keep: Replay) -> tuple[int, bool]:
        kept = 0
        try:
            lines = path.read_bytes().decode("utf-8", "replace").splitlines()
        except FileNotFoundError:  # another process replayed an orphaned file first
            return 0, True
        for line in lines:
            if not line.strip():
                continue
            try:
                entry = Spooled.model_validate_json(line)
            except ValueError:
                log.error("skipped an unreadable line in spool %s", path.name)  # a torn last write
                continue
            try:
                keep(entry)
            except Exception as exc:
                if database_unavailable(exc):
                    return kept, False
                log.error("a spooled delivery could not be kept: %s", type(exc).__name__, exc_info=exc)
                continue
            kept += 1
        return kept, True
