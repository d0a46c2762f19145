"""What every listening port serves besides its webhook: `/health/live`, `/health/ready` and `/metrics`.

Live: the process answers. Ready: the database answers, Hindsight answers, every background loop runs, and no
delivery this process took has waited longer than a bound for its handling (a worker that stopped working). Only
this process's own state counts: a delivery the transport gave up on (kept as failed, bot/transports/redelivery.py)
or one another worker left behind never takes this one out of rotation, and readiness comes back by itself when
the dependency does. Metrics: Prometheus text, the process's counters plus depths and ages read from the database
at each scrape.
A webhook body is read with a cap (`read_capped`): a sender cannot make the process hold more than that.
"""

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, select, text
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.core.intake import UNPROCESSED
from bot.core.loops import Loops
from bot.core.metrics import GAUGES
from bot.core.pack import Services
from bot.store.reply_outbox import ReplyOutbox
from bot.store.state import InboxRow
from bot.store.sql import aware

log = logging.getLogger(__name__)

MAX_WEBHOOK_BYTES = 1024 * 1024
"""Twilio's forms and Telegram's updates are a few KB; a megabyte leaves room and bounds what a caller costs."""
CHECK_TIMEOUT_S = 5.0
MEMORY_CHECK_TIMEOUT_S = 15.0
"""The memory client bounds its own health call (5 s); the first call also loads the SDK."""


class BodyTooLarge(Exception):
    """The request body is over the cap; nothing more of it is read."""


async def read_capped(request: Request, limit: int = MAX_WEBHOOK_BYTES) -> bytes:
    """The request body, refusing (BodyTooLarge) as soon as it is known to be over `limit`: by its declared
    length before reading anything, or while reading a body sent without one."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BodyTooLarge(declared)
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise BodyTooLarge(str(len(body)))
    return bytes(body)


def too_large() -> Response:
    return PlainTextResponse("request body too large", status_code=413)


@dataclass
class Queued:
    """A transport's in-process queue and spool, as the health checks see them."""

    transport: str
    depth: Callable[[], int]
    spooled: Callable[[], int]
    oldest_s: Callable[[], float] = lambda: 0.0
    """Age of the oldest delivery this process took and has not handled or given up yet."""


@dataclass
class Health:
    """The checks of one process; every transport's app mounts `routes()`."""

    services: Services
    loops: list[Loops] = field(default_factory=list)
    queues: list[Queued] = field(default_factory=list)
    max_inbox_age_s: float = 300.0

    def routes(self) -> list[Route]:
        return [Route("/health", self._live, methods=["GET"]), Route("/health/live", self._live, methods=["GET"]),
                Route("/health/ready", self._ready, methods=["GET"]),
                Route("/metrics", self._metrics, methods=["GET"])]

    async def _live(self, request: Request) -> Response:
        return PlainTextResponse("ok")

    async def _ready(self, request: Request) -> Response:
        checks = await self.checks()
        ready = all(c == "ok" for c in checks.values())
        return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)

    async def checks(self) -> dict[str, str]:
        """Each check's verdict: "ok", or what is wrong in a few words."""
        database, memory = await asyncio.gather(self._database(), self._memory())
        checks = {"database": database, "memory": memory}
        stalled = [name for loops in self.loops for name in loops.stalled()]
        checks["loops"] = "ok" if not stalled else f"not running: {', '.join(stalled)}"
        age = max((queued.oldest_s() for queued in self.queues), default=0.0)
        checks["inbox"] = "ok" if age <= self.max_inbox_age_s else \
            f"a delivery has waited {age:.0f} s (bound {self.max_inbox_age_s:.0f} s)"
        GAUGES["database_up"].set(1 if database == "ok" else 0)
        GAUGES["memory_up"].set(1 if memory == "ok" else 0)
        GAUGES["loops_stalled"].set(len(stalled))
        return checks

    async def _database(self) -> str:
        def ping() -> None:
            with self.services.database.engine.connect() as db:
                db.execute(text("SELECT 1"))
        try:
            await asyncio.wait_for(asyncio.to_thread(ping), CHECK_TIMEOUT_S)
        except Exception as exc:
            return f"unreachable ({type(exc).__name__})"
        return "ok"

    async def _memory(self) -> str:
        try:
            answering = await asyncio.wait_for(self.services.memory.health(), MEMORY_CHECK_TIMEOUT_S)
        except Exception as exc:
            return f"unreachable ({type(exc).__name__})"
        return "ok" if answering else "not answering"

    async def _metrics(self, request: Request) -> Response:
        for queued in self.queues:
            GAUGES["queue_depth"].labels(queued.transport).set(queued.depth())
            GAUGES["spool_depth"].labels(queued.transport).set(queued.spooled())
        try:
            await asyncio.wait_for(asyncio.to_thread(self._read_depths), CHECK_TIMEOUT_S)
            GAUGES["database_up"].set(1)
        except Exception as exc:
            log.info("metrics: depths not read: %s", type(exc).__name__)
            GAUGES["database_up"].set(0)
        GAUGES["loops_stalled"].set(sum(len(loops.stalled()) for loops in self.loops))
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    def _read_depths(self) -> None:
        now = datetime.now(timezone.utc)
        with self.services.database.session() as s:
            rows = s.execute(select(InboxRow.channel, func.count(), func.min(InboxRow.received_at))
                             .where(InboxRow.done.is_(False), InboxRow.failed_at.is_(None))
                             .group_by(InboxRow.channel)).all()
            failed = s.execute(select(func.count()).select_from(InboxRow).where(
                InboxRow.done.is_(False), InboxRow.failed_at.is_not(None))).scalar()
        GAUGES["inbox_failed"].set(failed or 0)
        for channel in {q.transport for q in self.queues} | {r[0] for r in rows}:
            GAUGES["inbox_depth"].labels(channel).set(0)
            GAUGES["inbox_oldest_age_seconds"].labels(channel).set(0)
        for channel, count, oldest in rows:
            GAUGES["inbox_depth"].labels(channel).set(count)
            GAUGES["inbox_oldest_age_seconds"].labels(channel).set((now - aware(oldest)).total_seconds())
        items = self.services.intake.listing(UNPROCESSED)
        GAUGES["intake_unprocessed"].set(len(items))
        GAUGES["intake_oldest_age_seconds"].set(
            max(((now - i.received_at).total_seconds() for i in items), default=0.0))
        outbox: ReplyOutbox = self.services.replies.outbox
        GAUGES["replies_pending"].set(len(outbox.listing(("pending",))))
        GAUGES["replies_given_up"].set(len(outbox.listing(("failed", "flagged"))))
        GAUGES["memory_outbox_size"].set(len(self.services.outbox.pending()))


def all_routes(health: Health | None, routes: Iterable[Route]) -> list[Route]:
    """A transport's own routes plus the health routes (or a bare /health when run without them)."""
    if health is not None:
        return [*routes, *health.routes()]

    async def live(request: Request) -> Response:
        return PlainTextResponse("ok")

    return [*routes, Route("/health", live, methods=["GET"]), Route("/health/live", live, methods=["GET"])]
