"""Which long-running bot processes (workers, the office page) use the database now.

Each holds a lease named `running:<its owner>` and renews it while it runs; a process that stopped or died lets
it lapse (at once for a dead process of this host). `smriti backup restore` reads them and refuses while one is
live: replacing the database under a worker that is writing to it loses or mixes what either wrote.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from bot.store.db import Database
from bot.store.leases import LeaseRow, Leases, owner_is_dead
from bot.store.sql import aware

log = logging.getLogger(__name__)

PREFIX = "running:"
TTL = timedelta(seconds=45)


def running(database: Database) -> list[str]:
    """The owners (host:pid:...) of the bot processes that use this database now; none when it has no lease
    table yet (an empty database)."""
    now = datetime.now(timezone.utc)
    try:
        with database.session() as s:
            rows = s.execute(select(LeaseRow.holder, LeaseRow.expires_at).where(
                LeaseRow.name.startswith(PREFIX))).all()
    except Exception as exc:
        from bot.core.errors import database_unavailable

        if database_unavailable(exc):
            raise
        return []  # no lease table: nothing was ever started on it
    return sorted(holder for holder, until in rows if aware(until) > now and not owner_is_dead(holder))


def announcer(database: Database) -> Callable[[Callable[[], None]], Awaitable[None]]:
    """A loop body (bot.core.loops) that keeps this process's `running:` lease while it runs, and releases it
    when stopped. The database being down only lets the lease lapse."""
    leases = Leases(database)
    name = f"{PREFIX}{leases.owner}"

    async def announce(beat: Callable[[], None]) -> None:
        try:
            while True:
                beat()
                try:
                    await asyncio.to_thread(leases.acquire, name, TTL)
                except Exception as exc:
                    log.info("could not renew this process's running lease: %s", type(exc).__name__)
                await asyncio.sleep(TTL.total_seconds() / 3)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(leases.release, name)

    return announce
