"""Refusing people who are not registered, without keeping anything about them.

A stranger's number or id is never stored: the gate remembers only a keyed hash. Alone, the key is random per
process and the hashes stay in memory; with a shared record (bot.store.stranger_answers: several workers on
one database), the key is random per deployment and the hashes of the last window are in the database, so a
stranger is answered at most once per window by all the workers together. Each stranger is answered at most
once per window, so the bot cannot be used to spam a number; refusals are counted and logged as one line per
interval, never with the sender or the text. While the shared record cannot be reached, the process decides
alone.
"""

import hashlib
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.stranger_answers import StrangerAnswers

log = logging.getLogger(__name__)


class StrangerGate:
    """Decides whether a refused sender gets the refusal text; one instance per running conversation."""

    def __init__(self, answer_every_s: float = 3600.0, log_every_s: float = 60.0, max_tracked: int = 10_000,
                 clock: Callable[[], float] = time.monotonic, shared: "StrangerAnswers | None" = None) -> None:
        self.shared = shared
        self.answer_every_s = answer_every_s
        self.log_every_s = log_every_s
        self.max_tracked = max_tracked
        self._clock = clock
        self._key = secrets.token_bytes(16)
        self._answered: OrderedDict[bytes, float] = OrderedDict()
        self._refused_since_log = 0
        self._answered_since_log = 0
        self._last_log: float | None = None
        self.refused_total = 0

    def _digest(self, transport: str, sender: str) -> bytes:
        return hashlib.blake2b(f"{transport}\x00{sender}".encode(), key=self._key, digest_size=16).digest()

    def refuse(self, transport: str, sender: str) -> bool:
        """Count a refused delivery; True when this sender should be told (not told within the window)."""
        now = self._clock()
        self.refused_total += 1
        self._refused_since_log += 1
        digest = self._digest(transport, sender)
        last = self._answered.get(digest)
        answer = last is None or now - last >= self.answer_every_s
        if self.shared is not None:
            try:
                shared_digest = hashlib.blake2b(f"{transport}\x00{sender}".encode(), key=self.shared.key(),
                                                digest_size=32).hexdigest()
                answer = self.shared.claim(shared_digest, self.answer_every_s)
            except Exception as exc:  # the database is down: this process decides alone
                log.warning("stranger gate: shared record unavailable (%s)", type(exc).__name__)
        if answer:
            self._answered[digest] = now
            self._answered.move_to_end(digest)
            while len(self._answered) > self.max_tracked:
                self._answered.popitem(last=False)
            self._answered_since_log += 1
        self._maybe_log(now)
        return answer

    def _maybe_log(self, now: float) -> None:
        if self._last_log is not None and now - self._last_log < self.log_every_s:
            return
        log.info("refused %s deliveries from unregistered senders (%s answered) since the last count",
                 self._refused_since_log, self._answered_since_log)
        self._last_log = now
        self._refused_since_log = self._answered_since_log = 0


class AttemptLimiter:
    """Bounds how often something is tried (a join code): per sender and across all senders, in a sliding window.

    Senders are remembered as keyed hashes in memory only, like StrangerGate; the oldest are dropped past
    `max_tracked`. An attempt over a bound is not checked at all, so guessing codes costs the guesser time."""

    def __init__(self, per_sender: int = 5, overall: int = 200, window_s: float = 900.0, max_tracked: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_sender, self.overall, self.window_s, self.max_tracked = per_sender, overall, window_s, max_tracked
        self._clock = clock
        self._key = secrets.token_bytes(16)
        self._senders: OrderedDict[bytes, deque[float]] = OrderedDict()
        self._all: deque[float] = deque()

    def allow(self, transport: str, sender: str) -> bool:
        """Count an attempt; False when this sender, or everyone together, tried too often in the window."""
        now = self._clock()
        digest = hashlib.blake2b(f"{transport}\x00{sender}".encode(), key=self._key, digest_size=16).digest()
        mine = self._senders.setdefault(digest, deque())
        self._senders.move_to_end(digest)
        for times in (mine, self._all):
            while times and now - times[0] >= self.window_s:
                times.popleft()
        while len(self._senders) > self.max_tracked:
            self._senders.popitem(last=False)
        if len(mine) >= self.per_sender or len(self._all) >= self.overall:
            return False
        mine.append(now)
        self._all.append(now)
        return True
