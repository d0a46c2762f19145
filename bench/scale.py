"""What the scale benchmarks share: a question asked through the running bot and timed (wall, memory calls,
the bot's own time), and the table of accuracy and latency per size, side by side."""

import time
import uuid
from collections.abc import Callable
from datetime import datetime, timezone

from pydantic import BaseModel

from bench.overhead import busy_ms
from bench.stats import p50, p95
from bot.core.app import App
from bot.core.messages import Incoming


class Asked(BaseModel):
    """One question through the bot: its answer, whether it was right, and where the time went."""

    answer: str
    right: bool
    wall_ms: float
    memory_ms: float
    recalls: int


async def ask_timed(app: App, sender: str, question: str, right: Callable[[str], bool]) -> Asked:
    """Send `question` through the conversation core as `sender`; time it and judge the answer."""
    log = app.services.memory.call_log
    since = datetime.now(timezone.utc)
    incoming = Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=question)
    started = time.perf_counter()
    replies = await app.conversation.handle(incoming)
    wall_ms = (time.perf_counter() - started) * 1000
    made = [r for r in log.latest(len(log)) if r.at >= since]
    answer = "\n".join(r.text for r in replies)
    return Asked(answer=answer, right=right(answer), wall_ms=wall_ms, memory_ms=busy_ms(made),
                 recalls=sum(r.operation == "recall" for r in made))


class ScaleRow(BaseModel):
    size: int
    asked: int
    right: int
    wall_p50: float
    wall_p95: float
    memory_p50: float
    memory_p95: float
    overhead_share: float
    """The bot's own time (wall minus memory calls) over wall, totals."""

    @classmethod
    def of(cls, size: int, answers: list[Asked]) -> "ScaleRow":
        wall = [a.wall_ms for a in answers]
        memory = [a.memory_ms for a in answers]
        return cls(size=size, asked=len(answers), right=sum(a.right for a in answers), wall_p50=p50(wall),
                   wall_p95=p95(wall), memory_p50=p50(memory), memory_p95=p95(memory),
                   overhead_share=max(0.0, sum(wall) - sum(memory)) / sum(wall))


def render_rows(heading: str, rows: list[ScaleRow]) -> list[str]:
    first = rows[0]
    out = [heading, f"  {'memories':>9} {'right':>9} {'wall p50/p95 ms':>17} {'memory p50/p95 ms':>19} "
                    f"{'p95 / first':>12} {'bot share':>10}"]
    for r in rows:
        out.append(f"  {r.size:>9} {r.right:>4}/{r.asked:<4} {r.wall_p50:>8.0f}/{r.wall_p95:<8.0f} "
                   f"{r.memory_p50:>9.0f}/{r.memory_p95:<9.0f} {r.wall_p95 / first.wall_p95:>11.2f}x "
                   f"{100 * r.overhead_share:>9.0f}%")
    return out
