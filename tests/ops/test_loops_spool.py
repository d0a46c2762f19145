"""The supervisor restarts a loop that fails or ends, its failure handling included; the spool keeps a delivery
on disk while the database is down and hands it over once, when it is back."""

import asyncio
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from bot.core.errors import database_unavailable, is_transient
from bot.core.loops import Beat, Loops
from bot.store.leases import ProcessOwner
from bot.transports.spool import Spool, Spooled


def down() -> OperationalError:
    return OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))


async def test_a_loop_that_fails_or_ends_is_started_again() -> None:
    runs: list[str] = []

    async def flaky(beat: Beat) -> None:
        runs.append("run")
        beat()
        if len(runs) == 1:
            raise down()
        if len(runs) == 2:
            raise RuntimeError("a bug in the error handler itself")
        if len(runs) == 3:
            return  # ended by itself
        await asyncio.sleep(3600)

    loops = Loops(base_backoff_s=0.01, max_backoff_s=0.02)
    loops.start("flaky", flaky)
    for _ in range(200):
        if len(runs) >= 4:
            break
        await asyncio.sleep(0.01)
    assert len(runs) == 4
    assert loops.states["flaky"].restarts == 3 and loops.states["flaky"].failures == 2
    assert loops.stalled() == []
    await loops.stop()


async def test_a_silent_loop_is_reported_stalled() -> None:
    async def stuck(beat: Beat) -> None:
        await asyncio.sleep(3600)

    loops = Loops()
    loops.start("stuck", stuck, quiet_after_s=0.05)
    await asyncio.sleep(0.1)
    assert loops.stalled() == ["stuck"]
    await loops.stop()


def test_database_errors_are_transient() -> None:
    assert database_unavailable(down()) and is_transient(down())
    assert not database_unavailable(ValueError("x"))


def test_the_spool_keeps_deliveries_until_the_database_takes_them(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool")
    spool.append("SM1", '{"a": 1}')
    spool.append("SM2", '{"a": 2}')
    assert spool.pending() == 2
    kept: list[str] = []
    database_up = False

    def keep(entry: Spooled) -> None:
        if not database_up:
            raise down()
        kept.append(entry.key)

    assert spool.replay(keep) == 0 and spool.pending() == 2  # still down: nothing lost
    spool.append("SM3", '{"a": 3}')  # arrives after a failed replay: goes to a new file
    database_up = True
    assert spool.replay(keep) == 3
    assert kept == ["SM1", "SM2", "SM3"] and spool.pending() == 0
    assert spool.replay(keep) == 0 and kept == ["SM1", "SM2", "SM3"]


def test_a_dead_process_spool_is_replayed_by_another(tmp_path: Path) -> None:
    dead = ProcessOwner(host=ProcessOwner.here().host, pid=999_999_999, started="1", nonce="dead")
    Spool(tmp_path, str(dead)).append("SM9", "{}")
    live = Spool(tmp_path, "otherhost:1:1:live")
    Spool(tmp_path, "otherhost:1:1:live").append("SM8", "{}")
    mine = Spool(tmp_path)
    kept: list[str] = []
    mine.replay(lambda entry: kept.append(entry.key))
    assert kept == ["SM9"]  # not the live process's file
    assert live.pending() == 1


@pytest.mark.parametrize("torn", [b'{"key": "SM2", "payl', b"\xff\xfe"])
def test_a_torn_last_line_does_not_stop_the_replay(tmp_path: Path, torn: bytes) -> None:
    spool = Spool(tmp_path)
    spool.append("SM1", "{}")
    with open(next(tmp_path.glob("*.jsonl")), "ab") as f:
        f.write(torn)
    kept: list[str] = []
    assert spool.replay(lambda entry: kept.append(entry.key)) == 1 and kept == ["SM1"]
