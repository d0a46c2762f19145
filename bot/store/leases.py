"""Leases: who is doing a piece of work now, and until when. A lease is a row with its holder and an expiry.

The holder is a `ProcessOwner`: host, process id, the process's start time (so a reused pid is not mistaken for
the dead one) and a random part (so two workers in one process are two holders). The holder renews its lease
while the work runs (`Leases.keep`), so a lease only expires when its holder stopped renewing it: a stalled or
dead process. Another holder takes a lease when it has expired, or at once when its holder is a process of this
host that is no longer alive. Taking it over is a conditional UPDATE on the holder seen, so one taker wins.

`leases` rows name what they guard (`followup-jobs`, `card-save:<id>`, ...); the intake and the reply outbox
keep the same two columns (owner, lease_until) on their own rows and use `owner_is_dead` and `ProcessOwner`.
"""

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sqlalchemy import DateTime, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.base import Base
from bot.store.db import Database
from bot.store.sql import aware, insert_ignore, rowcount

log = logging.getLogger(__name__)

DEFAULT_TTL = timedelta(seconds=30)
RenewFn = Callable[[], bool]


class LeaseRow(Base):
    __tablename__ = "leases"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def _start_ticks(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), or None when it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    return stat.rsplit(")", 1)[1].split()[19]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass(frozen=True)
class ProcessOwner:
    """One holder of leases: this process (host, pid, start time) plus a random part per holder."""

    host: str
    pid: int
    started: str
    nonce: str

    @classmethod
    def here(cls) -> "ProcessOwner":
        pid = os.getpid()
        return cls(host=socket.gethostname()[:20], pid=pid, started=_start_ticks(pid) or "0",
                   nonce=uuid.uuid4().hex[:8])

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.started}:{self.nonce}"


def owner_is_dead(owner: str | None) -> bool:
    """True when `owner` names a process of this host that is gone (its pid is not alive, or is now another
    process started at another time). An owner of another host is never judged dead: its lease must expire."""
    if not owner:
        return False
    parts = owner.split(":")
    if len(parts) != 4 or not parts[1].isdigit() or parts[0] != socket.gethostname()[:20]:
        return False
    pid = int(parts[1])
    if not _pid_alive(pid):
        return True
    started = _start_ticks(pid)
    return started is not None and parts[2] != "0" and started != parts[2]


class Leases:
    """Named leases in the `leases` table, held by one owner."""

    def __init__(self, database: Database, owner: ProcessOwner | None = None) -> None:
        self._db = database
        self.owner = owner or ProcessOwner.here()

    async def wait_and_keep(self, name: str, ttl: timedelta = DEFAULT_TTL,
                            poll_s: float = 0.5) -> contextlib.AbstractAsyncContextManager[bool]:
        """Wait until no live holder has the lease, then hold it for the block (see `keep`)."""
        while await asyncio.to_thread(self.held_by_other, name):
            await asyncio.sleep(poll_s)
        return self.keep(name, ttl)

    def acquire(self, name: str, ttl: timedelta = DEFAULT_TTL) -> bool:
        """Take the lease, or renew it when held; False while a live holder has it."""
        now = datetime.now(timezone.utc)
        me = str(self.owner)
        with self._db.session() as s:
            if insert_ignore(s, LeaseRow.__table__, dict(name=name, holder=me, expires_at=now + ttl)):
                return True
            current = s.execute(select(LeaseRow.holder).where(LeaseRow.name == name)).scalar()
            takeable = (LeaseRow.holder == me) | (LeaseRow.expires_at < now)
            if current is not None and owner_is_dead(current):
                takeable = takeable | (LeaseRow.holder == current)
            result = s.execute(update(LeaseRow).where(LeaseRow.name == name, takeable)
                               .values(holder=me, expires_at=now + ttl))
            return rowcount(result) == 1

    def renew(self, name: str, ttl: timedelta = DEFAULT_TTL) -> bool:
        """Push the expiry on; False when the lease is no longer this owner's."""
        with self._db.session() as s:
            result = s.execute(update(LeaseRow).where(LeaseRow.name == name, LeaseRow.holder == str(self.owner))
                               .values(expires_at=datetime.now(timezone.utc) + ttl))
            return rowcount(result) == 1

    def release(self, name: str) -> None:
        with self._db.session() as s:
            s.execute(delete(LeaseRow).where(LeaseRow.name == name, LeaseRow.holder == str(self.owner)))

    def held_by_other(self, name: str) -> bool:
        """True while another live holder has the lease (not expired, holder not dead)."""
        with self._db.session() as s:
            row = s.execute(select(LeaseRow.holder, LeaseRow.expires_at).where(LeaseRow.name == name)).first()
        if row is None or row.holder == str(self.owner):
            return False
        return aware(row.expires_at) > datetime.now(timezone.utc) and not owner_is_dead(row.holder)

    @contextlib.asynccontextmanager
    async def keep(self, name: str, ttl: timedelta = DEFAULT_TTL) -> AsyncIterator[bool]:
        """Hold the lease for the block, renewing it every third of its ttl; yields False (and holds nothing)
        when a live holder has it. Released when the block ends."""
        if not await asyncio.to_thread(self.acquire, name, ttl):
            yield False
            return
        async with heartbeat(lambda: self.renew(name, ttl), ttl):
            try:
                yield True
            finally:
                await asyncio.to_thread(self.release, name)


@contextlib.asynccontextmanager
async def heartbeat(renew: RenewFn, ttl: timedelta) -> AsyncIterator[None]:
    """Call `renew` (in a thread) every third of `ttl` while the block runs; a lost lease is logged."""

    async def beat() -> None:
        while True:
            await asyncio.sleep(ttl.total_seconds() / 3)
            try:
                if not await asyncio.to_thread(renew):
                    log.warning("a lease was taken over while its work still ran")
                    return
            except Exception as exc:  # the database may be briefly busy; the next beat tries again
                log.warning("could not renew a lease: %s", type(exc).__name__)

    task = asyncio.create_task(beat())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class StoreLease:
    """One named lease its holder keeps by calling acquire() periodically (the follow-up scheduler's)."""

    def __init__(self, database: Database, name: str, ttl: timedelta = DEFAULT_TTL) -> None:
        self._leases = Leases(database)
        self._name = name
        self.ttl = ttl
        self.held = False

    def acquire(self) -> bool:
        self.held = self._leases.acquire(self._name, self.ttl)
        return self.held

    def release(self) -> None:
        if self.held:
            self._leases.release(self._name)
            self.held = False
