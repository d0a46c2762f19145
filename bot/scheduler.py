"""Follow-ups the bot asks by itself, weeks later: durable records plus an APScheduler 3 job per follow-up.

Jobs live in a SQLAlchemy job store on SQLite under the state directory, so they survive a restart; a job
missed while the bot was down runs when it comes back, if it is no older than the grace period. A fired
follow-up is composed by the pack that scheduled it and sent through Outbound on the person's transport.

APScheduler 3 cannot share a job store between processes (each would run every job), so only the process
holding the store's lease runs jobs. Others still schedule into the store, and take the lease over when its
holder stops. The holder rescans the store every minute, so it picks up what other processes scheduled.
"""

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Literal

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from pydantic import BaseModel, Field, field_validator

from bot.messages import Reply
from bot.outbound import Outbound
from bot.registry import Registry, User

log = logging.getLogger(__name__)

FollowUpStatus = Literal["pending", "asked", "answered", "cancelled"]
Composer = Callable[["FollowUp", User], list[Reply]]

DEFAULT_GRACE = timedelta(days=3)
RETRY_UNDELIVERED = timedelta(hours=1)
RESCAN_EVERY = timedelta(minutes=1)
LEASE_RETRY_EVERY = timedelta(seconds=30)

# APScheduler persists a job as a module-level callable plus picklable arguments, so the job names its
# store and finds the live scheduler for that store here.
_LIVE: "weakref.WeakValueDictionary[str, FollowUpScheduler]" = weakref.WeakValueDictionary()

_SCHEMA = """
CREATE TABLE IF NOT EXISTS followups (
    followup_id TEXT PRIMARY KEY, pack TEXT NOT NULL, user_id TEXT NOT NULL, due_at TEXT NOT NULL,
    subject TEXT NOT NULL, status TEXT NOT NULL, asked_at TEXT
);
"""


class FollowUp(BaseModel):
    """One question to ask a person later, about something they recorded."""

    followup_id: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,48}$")
    pack: str
    user_id: str
    due_at: datetime
    subject: dict[str, str]
    """What the pack needs to ask and to link the answer (ids, names, dates); plain strings only."""
    status: FollowUpStatus = "pending"
    asked_at: datetime | None = None

    @field_validator("due_at")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("due_at must carry a timezone")
        return value


def rescan_store() -> None:
    """Do nothing: the job exists so that the scheduler wakes up and reads the store again."""


class StoreLease:
    """An exclusive, non-blocking lock on a file; the operating system releases it when its process dies."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        if self._fd is not None:
            return True
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


async def fire_followup(store_key: str, followup_id: str) -> None:
    """Run one persisted follow-up job (the APScheduler entry point)."""
    scheduler = _LIVE.get(store_key)
    if scheduler is None:
        log.warning("follow-up %s fired with no live scheduler for its store", followup_id)
        return
    await scheduler.fire(followup_id)


class FollowUpScheduler:
    """Schedules, lists and fires follow-ups; packs register how to word theirs."""

    def __init__(self, state_dir: Path, registry: Registry, outbound: Outbound,
                 grace: timedelta = DEFAULT_GRACE, clock: Callable[[], datetime] | None = None,
                 rescan_every: timedelta = RESCAN_EVERY, lease_retry_every: timedelta = LEASE_RETRY_EVERY) -> None:
        state_dir.mkdir(parents=True, exist_ok=True)
        self._path = state_dir / "followups.sqlite"
        self._key = str(self._path.resolve())
        self._registry = registry
        self._outbound = outbound
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self._composers: dict[str, Composer] = {}
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self._path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._lease = StoreLease(state_dir / "followup-jobs.lock")
        self._rescan_every = rescan_every
        self._lease_retry_every = lease_retry_every
        self._waiting_for_lease: asyncio.Task[None] | None = None
        self._jobs = AsyncIOScheduler(
            jobstores={"default": SQLAlchemyJobStore(url=f"sqlite:///{state_dir / 'followup-jobs.sqlite'}"),
                       "local": MemoryJobStore()},
            job_defaults={"misfire_grace_time": int(grace.total_seconds()), "coalesce": True, "max_instances": 1},
            timezone=timezone.utc,
        )

    def register(self, pack: str, composer: Composer) -> None:
        """Say how `pack` words its follow-ups; register before start so missed jobs find it."""
        self._composers[pack] = composer

    @property
    def runs_jobs(self) -> bool:
        """True in the one process that holds the store's lease and so runs the jobs."""
        return self._lease.held

    async def start(self) -> None:
        """Start running jobs, including any that came due while the bot was down (within the grace).

        When another process runs this store's jobs, only scheduling works here until that process stops."""
        if self._lease.acquire():
            _LIVE[self._key] = self
            self._jobs.start()
            self._rescan_periodically()
            return
        log.info("follow-ups are run by another process on this state directory; this one only schedules")
        self._jobs.start(paused=True)
        self._waiting_for_lease = asyncio.create_task(self._take_over_when_free())

    def _rescan_periodically(self) -> None:
        self._jobs.add_job(rescan_store, "interval", seconds=self._rescan_every.total_seconds(),
                           id="rescan-store", jobstore="local", replace_existing=True)

    async def _take_over_when_free(self) -> None:
        while not self._lease.acquire():
            await asyncio.sleep(self._lease_retry_every.total_seconds())
        log.info("follow-ups: the other process stopped; this one runs them now")
        _LIVE[self._key] = self
        self._rescan_periodically()
        self._jobs.resume()

    async def shutdown(self) -> None:
        if self._waiting_for_lease is not None:
            self._waiting_for_lease.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._waiting_for_lease
            self._waiting_for_lease = None
        if self._jobs.running:
            self._jobs.shutdown(wait=False)
        self._lease.release()
        if _LIVE.get(self._key) is self:
            del _LIVE[self._key]
        with self._lock:
            self._db.close()

    def _save(self, followup: FollowUp) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO followups VALUES (?, ?, ?, ?, ?, ?, ?)",
                (followup.followup_id, followup.pack, followup.user_id, followup.due_at.isoformat(),
                 json.dumps(followup.subject, ensure_ascii=False), followup.status,
                 followup.asked_at.isoformat() if followup.asked_at else None),
            )

    def _add_job(self, followup_id: str, run_at: datetime) -> None:
        self._jobs.add_job(fire_followup, "date", run_date=run_at, args=[self._key, followup_id],
                           id=followup_id, replace_existing=True)

    def schedule(self, followup: FollowUp) -> FollowUp:
        """Store a follow-up and its job; scheduling the same id again replaces both."""
        stored = followup.model_copy(update={"status": "pending", "asked_at": None})
        self._save(stored)
        self._add_job(stored.followup_id, stored.due_at)
        return stored

    def get(self, followup_id: str) -> FollowUp | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM followups WHERE followup_id = ?", (followup_id,)).fetchone()
        return _row(row) if row else None

    def pending(self, user_id: str | None = None, pack: str | None = None) -> list[FollowUp]:
        """Return follow-ups not yet answered (waiting to be asked, or asked), soonest first."""
        query = "SELECT * FROM followups WHERE status IN ('pending', 'asked')"
        args: list[str] = []
        if user_id is not None:
            query += " AND user_id = ?"
            args.append(user_id)
        if pack is not None:
            query += " AND pack = ?"
            args.append(pack)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY due_at", args).fetchall()
        return [_row(r) for r in rows]

    def job_ids(self) -> list[str]:
        return [job.id for job in self._jobs.get_jobs(jobstore="default")]

    def mark(self, followup_id: str, status: FollowUpStatus) -> None:
        """Record a follow-up as answered or cancelled (and drop its job if it has not fired)."""
        with self._lock:
            self._db.execute("UPDATE followups SET status = ? WHERE followup_id = ?", (status, followup_id))
        if status in ("answered", "cancelled") and self._jobs.get_job(followup_id) is not None:
            self._jobs.remove_job(followup_id)

    async def fire(self, followup_id: str) -> bool:
        """Ask one follow-up now; return True when it reached the person."""
        followup = self.get(followup_id)
        if followup is None or followup.status in ("answered", "cancelled"):
            return False
        user = self._registry.by_id(followup.user_id)
        composer = self._composers.get(followup.pack)
        if user is None or composer is None:
            log.warning("follow-up %s has no user or no composer; leaving it pending", followup_id)
            return False
        try:
            replies = composer(followup, user)
        except Exception:
            log.exception("composing follow-up %s failed", followup_id)
            return False
        delivery = await self._outbound.send(user, replies, "followup")
        if not delivery.delivered:
            self._add_job(followup_id, self._clock() + RETRY_UNDELIVERED)
            return False
        self._save(followup.model_copy(update={"status": "asked", "asked_at": self._clock()}))
        return True


def _row(row: tuple[str, ...]) -> FollowUp:
    return FollowUp(followup_id=row[0], pack=row[1], user_id=row[2], due_at=datetime.fromisoformat(row[3]),
                    subject=json.loads(row[4]), status=row[5],  # type: ignore[arg-type]
                    asked_at=datetime.fromisoformat(row[6]) if row[6] else None)
