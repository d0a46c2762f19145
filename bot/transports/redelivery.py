"""How a transport retries a delivery it could not handle, when it gives up, and how long its oldest one waits.

A transient failure (the database or a service down, a network error) is retried with a capped backoff for as
long as it lasts: the outage itself shows in readiness, and the delivery is handled once the dependency is back.
Any other failure (a provider's malformed answer, a bug) would fail the same way forever, so it is retried a
bounded number of times with backoff and then given up: the transport marks it failed in the inbox (kept, listed
by `smriti queue list`), tells the sender once, and it no longer counts against the worker's readiness.
"""

import time
from dataclasses import dataclass, field

from bot.core.loops import backoff_s


@dataclass
class Redelivery:
    """One transport's retry counts, per delivery key, in this process."""

    max_failures: int = 3
    """Non-transient failures of one delivery before it is given up."""
    base_s: float = 1.0
    cap_s: float = 5.0
    _failures: dict[str, int] = field(default_factory=dict)
    _transient: dict[str, int] = field(default_factory=dict)

    def next_delay(self, key: str, transient: bool) -> float | None:
        """Count a failed attempt; the seconds to wait before the next one, or None when it is given up."""
        if transient:
            self._transient[key] = self._transient.get(key, 0) + 1
            return backoff_s(self._transient[key], base_s=self.base_s, cap_s=self.cap_s)
        self._failures[key] = self._failures.get(key, 0) + 1
        if self._failures[key] >= self.max_failures:
            return None
        return backoff_s(self._failures[key], base_s=self.base_s, cap_s=self.cap_s)

    def attempts(self, key: str) -> int:
        return self._failures.get(key, 0) + self._transient.get(key, 0)

    def forget(self, key: str) -> None:
        self._failures.pop(key, None)
        self._transient.pop(key, None)


@dataclass
class InFlight:
    """Deliveries this process has taken and not finished (handled or given up): readiness reads the oldest, so
    a worker that stopped handling what it took is taken out of rotation, and only such a worker."""

    _since: dict[str, float] = field(default_factory=dict)

    def taken(self, key: str) -> None:
        self._since.setdefault(key, time.monotonic())

    def finished(self, key: str) -> None:
        self._since.pop(key, None)

    def oldest_age_s(self) -> float:
        return time.monotonic() - min(self._since.values()) if self._since else 0.0

    def __len__(self) -> int:
        return len(self._since)
