"""Background loops that outlive their dependencies: each runs under a supervisor that logs any failure
(its own error handling's included), backs off, and starts the loop again; a loop that ends while the process
runs is started again too. Every loop beats a heart the readiness check reads (`Loops.stalled`).
"""

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

LoopBody = Callable[["Beat"], Awaitable[None]]


@dataclass
class LoopState:
    name: str
    quiet_after_s: float
    """A loop that has not beaten for this long is reported stalled (a loop waiting on a queue beats as it waits)."""
    last_beat: float = field(default_factory=time.monotonic)
    restarts: int = 0
    failures: int = 0
    running: bool = False


class Beat:
    """Handed to a loop body: call it whenever the loop makes progress or waits idle."""

    def __init__(self, state: LoopState) -> None:
        self._state = state

    def __call__(self) -> None:
        self._state.last_beat = time.monotonic()


class Loops:
    """The supervised loops of one process."""

    def __init__(self, base_backoff_s: float = 0.5, max_backoff_s: float = 15.0) -> None:
        self.base_backoff_s = base_backoff_s
        self.max_backoff_s = max_backoff_s
        self.states: dict[str, LoopState] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._stopping = False

    def start(self, name: str, body: LoopBody, quiet_after_s: float = 600.0) -> None:
        """Run `body` under supervision until `stop`."""
        state = LoopState(name=name, quiet_after_s=quiet_after_s)
        self.states[name] = state
        self._tasks[name] = asyncio.create_task(self._supervise(state, body), name=f"loop-{name}")

    async def _supervise(self, state: LoopState, body: LoopBody) -> None:
        failures_in_a_row = 0
        while not self._stopping:
            state.running = True
            Beat(state)()
            try:
                await body(Beat(state))
                if self._stopping:
                    return
                log.warning("loop %s ended by itself; starting it again", state.name)
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # anything at all: the loop must come back
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                state.failures += 1
                failures_in_a_row += 1
                log.error("loop %s failed (%s); starting it again", state.name, type(exc).__name__, exc_info=exc)
            finally:
                state.running = False
            state.restarts += 1
            delay = min(self.base_backoff_s * 2 ** min(failures_in_a_row, 10), self.max_backoff_s)
            await asyncio.sleep(delay)

    def stalled(self) -> list[str]:
        """Names of loops not running, or silent for longer than they may be."""
        now = time.monotonic()
        return sorted(s.name for s in self.states.values()
                      if not self._tasks[s.name].done() and (now - s.last_beat > s.quiet_after_s)
                      or self._tasks[s.name].done())

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()


async def guarded(what: str, call: Callable[[], Awaitable[object]]) -> bool:
    """Await `call`, logging instead of raising any failure; True when it succeeded. For error paths that must
    not end the loop they run in (telling a person about a failure while the database is down)."""
    try:
        await call()
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.warning("%s failed: %s", what, type(exc).__name__)
        return False
    return True


def backoff_s(attempt: int, base_s: float = 0.5, cap_s: float = 15.0) -> float:
    """Exponential backoff for the attempt-th retry (1-based), capped."""
    return float(min(base_s * 2 ** max(attempt - 1, 0), cap_s))
