"""Follow-ups the bot asks by itself, weeks later: durable records plus an APScheduler 3 job per follow-up.

Follow-ups and their jobs (APScheduler's SQLAlchemy job store) live in the one database, so they survive a
restart; a job missed while the bot was down runs when it comes back, if it is no older than the grace period.
A fired follow-up is composed by the pack that scheduled it and sent through Outbound on the person's transport.

APScheduler 3 cannot share a job store between processes (each would run every job), so only the process
holding the `followup-jobs` lease runs jobs: a database row with an expiry that its holder renews. Others still
schedule into the store, and take the lease over when its holder stops or dies (the expiry passes). The holder
rescans the store every minute, so it picks up what other processes scheduled. On top of that, asking one
follow-up is claimed by a conditional UPDATE, so even two holders could not ask it twice.
"""

import asyncio
import contextlib
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta, timezone
from typing import Literal

from apscheduler.jobstores.memory import MemoryJobStore
from apscheduler.jobstores.sqlalchemy import SQLAlchemyJobStore
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from pydantic import BaseModel, Field, field_validator
from sqlalchemy import DateTime, String, Text, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from bot.core.messages import Reply
from bot.core.outbound import Outbound
from bot.core.registry import Registry, User
from bot.store import Base, Database
from bot.store.leases import StoreLease
from bot.store.sql import aware, rowcount, upsert, utc

log = logging.getLogger(__name__)

FollowUpStatus = Literal["pending", "asking", "asked", "answered", "cancelled"]
Composer = Callable[["FollowUp", User], list[Reply] | None]
"""A pack's wording of its due follow-up; None when the pack has none for it."""

DEFAULT_GRACE = timedelta(days=3)
RETRY_UNDELIVERED = timedelta(hours=1)
RESCAN_EVERY = timedelta(minutes=1)
LEASE_RETRY_EVERY = timedelta(seconds=10)
LEASE_TTL = timedelta(seconds=30)
LEASE_NAME = "followup-jobs"
STOP_WAIT = timedelta(seconds=5)
"""At shutdown, how long a job already running (a lease renewal, a follow-up being sent) may take to finish."""
ASKING_EXPIRES = timedelta(minutes=10)
"""A follow-up claimed for asking by a process that then died is asked again after this long."""

# APScheduler persists a job as a module-level callable plus picklable arguments, so the job names its
# store and finds the live scheduler for that store here.
_LIVE: "weakref.WeakValueDictionary[str, FollowUpScheduler]" = weakref.WeakValueDictionary()



class FollowUpRow(Base):
    __tablename__ = "followups"
    followup_id: Mapped[str] = mapped_column(String(48), primary_key=True)
    pack: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[str] = mapped_column(String(64))
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    subject: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    asked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


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


async def fire_followup(store_key: str, followup_id: str) -> None:
    """Run one persisted follow-up job (the APScheduler entry point)."""
    scheduler = _LIVE.get(store_key)
    if scheduler is None:
        log.warning("follow-up %s fired with no live scheduler for its store", followup_id)
        return
    await scheduler._as_job(lambda: _fire_quietly(scheduler, followup_id))


async def _fire_quietly(scheduler: "FollowUpScheduler", followup_id: str) -> None:
    await scheduler.fire(followup_id)


class FollowUpScheduler:
    """Schedules, lists and fires follow-ups; the app registers how each pack words its own."""

    def __init__(self, database: Database, registry: Registry, outbound: Outbound,
                 grace: timedelta = DEFAULT_GRACE, clock: Callable[[], datetime] | None = None,
                 rescan_every: timedelta = RESCAN_EVERY, lease_retry_every: timedelta = LEASE_RETRY_EVERY,
                 lease_ttl: timedelta = LEASE_TTL) -> None:
        self._db = database
        self._key = database.url
        self._registry = registry
        self._outbound = outbound
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self._composers: dict[str, Composer] = {}
        self._lease = StoreLease(database, LEASE_NAME, ttl=lease_ttl)
        self._rescan_every = rescan_every
        self._lease_retry_every = lease_retry_every
        self._waiting_for_lease: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[object]] = set()
        self._jobs = AsyncIOScheduler(
            jobstores={"default": SQLAlchemyJobStore(engine=database.engine),
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

    async def start(self, run_jobs: bool = True) -> None:
        """Start running jobs, including any that came due while the bot was down (within the grace).

        When another process runs this store's jobs, only scheduling works here until that process stops.
        `run_jobs=False` (a one-shot command: a brief, insights, an export) only schedules: answering never
        sends a due follow-up as a side effect."""
        if not run_jobs:
            self._jobs.start(paused=True)
            return
        if self._lease.acquire():
            _LIVE[self._key] = self
            self._jobs.start()
            self._rescan_periodically()
            self._renew_periodically()
            return
        log.info("follow-ups are run by another process on this state directory; this one only schedules")
        self._jobs.start(paused=True)
        self._waiting_for_lease = asyncio.create_task(self._take_over_when_free())

    def _rescan_periodically(self) -> None:
        self._jobs.add_job(rescan_store, "interval", seconds=self._rescan_every.total_seconds(),
                           id="rescan-store", jobstore="local", replace_existing=True)

    def _renew_periodically(self) -> None:
        self._jobs.add_job(self._renew_lease, "interval", seconds=self._lease.ttl.total_seconds() / 3,
                           id="renew-lease", jobstore="local", replace_existing=True)

    async def _try_lease(self) -> bool:
        """Take or renew the lease; False (logged) while the database cannot be reached, so no loop ends."""
        try:
            return await asyncio.to_thread(self._lease.acquire)
        except Exception as exc:
            log.warning("follow-ups: could not check the lease (%s); trying again", type(exc).__name__)
            return False

    async def _as_job(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run a scheduler job so shutdown can wait for it; a job stopped by shutdown ends quietly.

        APScheduler logs a cancelled coroutine job as an error with its traceback, and the console prints the
        log to the person at the terminal (walk3 step 23)."""
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        try:
            await work()
        except asyncio.CancelledError:
            log.info("follow-ups: a running job was stopped by shutdown")
        finally:
            if task is not None:
                self._running.discard(task)

    async def _renew_lease(self) -> None:
        await self._as_job(self._renew_lease_now)

    async def _renew_lease_now(self) -> None:
        if await self._try_lease():
            return
        # Another process took the lease (this one stalled past its expiry): stop running jobs here.
        log.warning("follow-ups: lost the lease; another process runs them now")
        self._jobs.pause()
        self._waiting_for_lease = asyncio.create_task(self._take_over_when_free())

    async def _take_over_when_free(self) -> None:
        while not await self._try_lease():
            await asyncio.sleep(self._lease_retry_every.total_seconds())
        log.info("follow-ups: the other process stopped; this one runs them now")
        _LIVE[self._key] = self
        self._rescan_periodically()
        self._renew_periodically()
        self._jobs.resume()

    async def shutdown(self) -> None:
        if self._waiting_for_lease is not None:
            self._waiting_for_lease.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._waiting_for_lease
            self._waiting_for_lease = None
        if self._jobs.running:
            self._jobs.pause()  # nothing new starts while the running jobs finish
            await self._finish_running_jobs()
            self._jobs.shutdown(wait=False)
        await asyncio.to_thread(self._lease.release)
        if _LIVE.get(self._key) is self:
            del _LIVE[self._key]

    async def _finish_running_jobs(self) -> None:
        """Wait a bounded time for running jobs, then stop the rest (they end quietly, see `_as_job`)."""
        running = set(self._running)
        if not running:
            return
        _, late = await asyncio.wait(running, timeout=STOP_WAIT.total_seconds())
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)

    def _save(self, followup: FollowUp) -> None:
        row = dict(followup_id=followup.followup_id, pack=followup.pack, user_id=followup.user_id,
                   # Stored in UTC: SQLite keeps no offset, and rows are read back as UTC.
                   due_at=followup.due_at.astimezone(timezone.utc),
                   subject=json.dumps(followup.subject, ensure_ascii=False),
                   status=followup.status, asked_at=followup.asked_at)
        with self._db.session() as s:
            upsert(s, FollowUpRow.__table__, row, ["followup_id"])

    def _add_job(self, followup_id: str, run_at: datetime) -> None:
        self._jobs.add_job(fire_followup, "date", run_date=run_at, args=[self._key, followup_id],
                           id=followup_id, replace_existing=True)

    def schedule(self, followup: FollowUp) -> FollowUp:
        """Store a follow-up and its job; scheduling the same id again replaces both."""
        stored = followup.model_copy(update={"status": "pending", "asked_at": None})
        self._save(stored)
        self._add_job(stored.followup_id, stored.due_at)
        return stored

    def reschedule(self, followup_id: str) -> bool:
        """Make the job of a follow-up still waiting to be asked (e.g. one moved from an old data directory)."""
        followup = self.get(followup_id)
        if followup is None or followup.status != "pending":
            return False
        self._add_job(followup.followup_id, followup.due_at)
        return True

    def get(self, followup_id: str) -> FollowUp | None:
        with self._db.session() as s:
            row = s.get(FollowUpRow, followup_id)
            return _row(row) if row else None

    def pending(self, user_id: str | None = None, pack: str | None = None) -> list[FollowUp]:
        """Return follow-ups not yet answered (waiting to be asked, or asked), soonest first."""
        query = select(FollowUpRow).where(FollowUpRow.status.in_(("pending", "asking", "asked")))
        if user_id is not None:
            query = query.where(FollowUpRow.user_id == user_id)
        if pack is not None:
            query = query.where(FollowUpRow.pack == pack)
        with self._db.session() as s:
            return [_row(r) for r in s.scalars(query.order_by(FollowUpRow.due_at, FollowUpRow.followup_id))]

    def job_ids(self) -> list[str]:
        return [job.id for job in self._jobs.get_jobs(jobstore="default")]

    def mark(self, followup_id: str, status: FollowUpStatus) -> None:
        """Record a follow-up as answered or cancelled (and drop its job if it has not fired)."""
        with self._db.session() as s:
            s.execute(update(FollowUpRow).where(FollowUpRow.followup_id == followup_id).values(status=status))
        if status in ("answered", "cancelled") and self._jobs.get_job(followup_id) is not None:
            self._jobs.remove_job(followup_id)

    def all_of(self, user_ids: list[str]) -> list[FollowUp]:
        """Every follow-up (any status) of these people."""
        with self._db.session() as s:
            rows = s.scalars(select(FollowUpRow).where(FollowUpRow.user_id.in_(user_ids)).order_by(FollowUpRow.due_at))
            return [_row(r) for r in rows]

    def forget(self, followup_ids: list[str]) -> None:
        """Remove follow-ups and their jobs for good (forget): they are never asked."""
        if not followup_ids:
            return
        with self._db.session() as s:
            s.execute(delete(FollowUpRow).where(FollowUpRow.followup_id.in_(followup_ids)))
        for followup_id in followup_ids:
            if self._jobs.get_job(followup_id) is not None:
                self._jobs.remove_job(followup_id)

    async def fire(self, followup_id: str) -> bool:
        """Ask one follow-up now; return True when it reached the person."""
        followup = self.get(followup_id)
        if followup is None or followup.status not in ("pending", "asking"):
            return False
        user = self._registry.by_id(followup.user_id)
        composer = self._composers.get(followup.pack)
        if user is None or composer is None:
            log.warning("follow-up %s has no user or no composer; leaving it pending", followup_id)
            return False
        if not self._claim(followup_id):
            return False  # another process is asking it
        try:
            replies = composer(followup, user)
        except Exception:
            log.exception("composing follow-up %s failed", followup_id)
            self._move(followup_id, "asking", "pending")
            return False
        if replies is None:
            log.warning("pack %s has no wording for follow-up %s; leaving it pending", followup.pack, followup_id)
            self._move(followup_id, "asking", "pending")
            return False
        delivery = await self._outbound.send(user, replies, "followup")
        if not delivery.delivered:
            self._move(followup_id, "asking", "pending")
            self._add_job(followup_id, self._clock() + RETRY_UNDELIVERED)
            return False
        with self._db.session() as s:
            s.execute(update(FollowUpRow).where(FollowUpRow.followup_id == followup_id,
                                                FollowUpRow.status == "asking")
                      .values(status="asked", asked_at=self._clock()))
        return True

    def _claim(self, followup_id: str) -> bool:
        """Take a follow-up to ask it: one process wins; a claim left by a crash mid-send expires."""
        now = self._clock()
        with self._db.session() as s:
            result = s.execute(update(FollowUpRow).where(
                FollowUpRow.followup_id == followup_id,
                (FollowUpRow.status == "pending")
                | ((FollowUpRow.status == "asking") & (FollowUpRow.asked_at < now - ASKING_EXPIRES)),
            ).values(status="asking", asked_at=now))
            return rowcount(result) == 1

    def _move(self, followup_id: str, expected: FollowUpStatus, new: FollowUpStatus) -> bool:
        """Change a follow-up's status only if it is still `expected` (one process wins)."""
        with self._db.session() as s:
            result = s.execute(update(FollowUpRow).where(FollowUpRow.followup_id == followup_id,
                                                         FollowUpRow.status == expected).values(status=new))
            return rowcount(result) == 1


def _row(row: FollowUpRow) -> FollowUp:
    return FollowUp(followup_id=row.followup_id, pack=row.pack, user_id=row.user_id, due_at=aware(row.due_at),
                    subject=json.loads(row.subject), status=row.status,  # type: ignore[arg-type]  # only ours in it
                    asked_at=utc(row.asked_at))
