"""A bounded, in-process record of every Hindsight call, so a user can see memory working (/memory)."""

from collections import deque
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Literal

from pydantic import BaseModel, Field

Operation = Literal[
    "ensure_bank", "retain", "recall", "reflect", "count", "list", "health", "delete", "operations", "mental_model",
    "export",
]


class CallRecord(BaseModel):
    """One timed call to Hindsight."""

    operation: Operation
    bank_id: str
    tags: list[str] = Field(default_factory=list)
    duration_ms: float
    hits: int = 0
    ok: bool = True
    error: str | None = None
    at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))


class CallLog:
    """A ring buffer of the latest calls, oldest dropped first."""

    def __init__(self, capacity: int = 200) -> None:
        self._records: deque[CallRecord] = deque(maxlen=capacity)
        self.listeners: list[Callable[[CallRecord], None]] = []
        """Called with every record (the bot's metrics count them)."""

    def push(self, record: CallRecord) -> None:
        self._records.append(record)
        for listener in self.listeners:
            listener(record)

    def latest(self, count: int = 10, bank_id: str | None = None) -> list[CallRecord]:
        """Return up to `count` most recent records, newest first, optionally for one bank."""
        picked = [r for r in reversed(self._records) if bank_id is None or r.bank_id == bank_id]
        return picked[:count]

    def __len__(self) -> int:
        return len(self._records)

    def render(self, count: int = 10, bank_id: str | None = None) -> str:
        """Return the latest calls as short lines a chat can show."""
        rows = self.latest(count, bank_id)
        if not rows:
            return "No memory calls yet."
        lines = []
        for r in rows:
            status = "ok" if r.ok else f"ERROR {r.error or ''}".strip()
            tag_text = f" [{', '.join(r.tags)}]" if r.tags else ""
            lines.append(
                f"{r.at:%H:%M:%S} {r.operation} {r.bank_id}{tag_text} "
                f"{r.duration_ms:.0f} ms, {r.hits} hit(s), {status}"
            )
        return "\n".join(lines)
