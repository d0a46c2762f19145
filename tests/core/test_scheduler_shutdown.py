"""Stopping the bot while a scheduler job runs (the lease renewal every few seconds, a follow-up being asked)
lets the job finish or stops it quietly: no traceback reaches the console or the log (walk3 step 23)."""

import asyncio
import logging
import threading
import time
from datetime import timedelta

import pytest

from bot.core.outbound import Outbound
from bot.core.registry import Registry
from bot.core.scheduler import FollowUpScheduler
from bot.store import Database
from bot.store.state import StateStore


def _scheduler(database: Database) -> FollowUpScheduler:
    return FollowUpScheduler(database, Registry([]), Outbound(StateStore(database)),
                             lease_ttl=timedelta(seconds=0.3))


async def _shutdown_while_renewing(scheduler: FollowUpScheduler, monkeypatch: pytest.MonkeyPatch,
                                   renewal_seconds: float) -> None:
    renewing = threading.Event()
    acquire = scheduler._lease.acquire

    def slow_acquire() -> bool:
        renewing.set()
        time.sleep(renewal_seconds)
        return acquire()

    await scheduler.start()
    monkeypatch.setattr(scheduler._lease, "acquire", slow_acquire)
    assert await asyncio.to_thread(renewing.wait, 5), "the lease renewal job never ran"
    await scheduler.shutdown()


@pytest.mark.parametrize("renewal_seconds", [0.2, 3.0])
async def test_stopping_during_a_lease_renewal_prints_no_traceback(
        database: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        renewal_seconds: float) -> None:
    scheduler = _scheduler(database)
    monkeypatch.setattr("bot.core.scheduler.STOP_WAIT", timedelta(seconds=0.5))
    with caplog.at_level(logging.INFO):
        started = time.monotonic()
        await _shutdown_while_renewing(scheduler, monkeypatch, renewal_seconds)
        await asyncio.sleep(0.2)  # let any cancelled task report itself
    assert time.monotonic() - started < 5, "shutdown waited on a stuck job past its bound"
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records]
    assert not scheduler.runs_jobs
