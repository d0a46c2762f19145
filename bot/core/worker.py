"""The intake worker: sends replies a crash or a provider outage left undelivered, retries what could not be
processed, takes over items whose owner is gone (at once when it is a dead process of this host, telling the
person their earlier message is handled now), flushes queued retains, and finishes saves a crash interrupted;
voice notes kept while no speech engine was set up are released once one is. Transports run it in the
background (its first pass at start-up); `smriti queue retry` runs it once."""

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timezone

from pydantic import BaseModel

from bot.core.conversation import Conversation
from bot.core.cards import resume_saving, show_confirmed
from bot.core.errors import is_transient

log = logging.getLogger(__name__)


class WorkerReport(BaseModel):
    processed: int = 0
    delivered: int = 0
    """Replies sent (of items processed now, and left undelivered before)."""
    reply_failures: int = 0
    flushed: int = 0
    still_queued: int = 0
    saving: int = 0
    resumed_cards: int = 0
    released_voice: int = 0


class IntakeWorker:
    def __init__(self, conversation: Conversation, interval_s: float = 15.0) -> None:
        self.conversation = conversation
        self.interval_s = interval_s

    async def run_once(self, now: datetime | None = None) -> WorkerReport:
        """Do one pass: flush the retain outbox, finish interrupted saves, retry due intake items."""
        services = self.conversation.services
        report = WorkerReport()
        sent = await services.replies.flush(now)
        report.delivered, report.reply_failures = sent.sent, sent.failed
        flush = await services.outbox.flush(services.memory)
        report.flushed, report.still_queued, report.saving = flush.stored, flush.still_queued, flush.saving
        await show_confirmed(services, self.conversation.packs, flush.confirmed_origins)
        report.resumed_cards = await resume_saving(services, self.conversation.packs)
        if services.speech is not None:
            report.released_voice = services.intake.release_held()
        for item in services.intake.due(now or datetime.now(timezone.utc)):
            user = services.registry.by_id(item.user_id)
            if user is None:
                services.intake.drop(item.intake_id)
                continue
            recovered = item.state in ("received", "processing")
            answer = await self.conversation.process(item, user, recovered=recovered)
            report.processed += 1
            if answer.key is not None:
                delivery = await services.replies.deliver(answer.key)
                report.delivered += delivery.sent
                report.reply_failures += delivery.failed
        return report

    async def loop(self, beat: Callable[[], None]) -> None:
        """The supervised form (bot.core.loops): passes forever; a failing pass is logged and the next tried."""
        while True:
            beat()
            try:
                await self.run_once()
            except Exception as exc:
                log.warning("intake worker pass failed (%s); the next one in %.0f s", type(exc).__name__,
                            self.interval_s, exc_info=not is_transient(exc))
            beat()
            await asyncio.sleep(self.interval_s)

    async def run_forever(self, stop: asyncio.Event) -> None:
        """Run passes until `stop` is set; a failing pass is logged and the next one tried."""
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:
                log.exception("intake worker pass failed")
            try:
                await asyncio.wait_for(stop.wait(), timeout=self.interval_s)
            except asyncio.TimeoutError:
                pass
