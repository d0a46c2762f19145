"""Sending what the reply outbox holds, through one channel per transport, and marking each reply sent.

A transport answers a message by asking the core for its answer (kept in the outbox with the finished intake
item) and then calling `deliver(key)`; the intake worker calls `flush()` for replies whose sender is gone (a
crash mid-send, a 5xx). A channel says whether a failure is worth retrying: a 5xx or a timeout is (with
backoff, up to a bound, then the reply is recorded as failed, visible in `smriti queue`); a 4xx is not. Replies
of one answer go out in order: a reply waiting for a retry holds back the ones after it.
"""

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Protocol

from pydantic import BaseModel

from bot.core.intake import IntakeStore
from bot.core.messages import Reply, Transport
from bot.core.metrics import REPLIES_FAILED, RETRIES
from bot.core.outbound import Outbound
from bot.core.registry import Registry, User
from bot.store.reply_outbox import OutgoingReply, ReplyOutbox
from bot.store.leases import heartbeat

log = logging.getLogger(__name__)

INTAKE_PREFIX = "intake:"


class SendFailed(Exception):
    """A channel could not send; `transient` when trying again later may succeed (5xx, timeout, no network)."""

    def __init__(self, detail: str, transient: bool) -> None:
        super().__init__(detail)
        self.transient = transient


class ReplyChannel(Protocol):
    async def send_reply(self, user: User | None, address: str, reply: Reply, batch: Sequence[Reply]) -> list[str]:
        """Send one reply of `batch` (the answer it belongs to); return the provider's message ids, or raise
        SendFailed."""
        ...


class DeliveryReport(BaseModel):
    sent: int = 0
    retrying: int = 0
    failed: int = 0


class ReplyDelivery:
    """Owns the channels of the transports running in this process and sends outbox rows through them."""

    def __init__(self, outbox: ReplyOutbox, intake: IntakeStore, registry: Registry, outbound: Outbound,
                 lease: timedelta = timedelta(minutes=2), max_attempts: int = 5, base_backoff_s: float = 5.0) -> None:
        self.outbox = outbox
        self._intake = intake
        self._registry = registry
        self._outbound = outbound
        self._channels: dict[Transport, ReplyChannel] = {}
        self.lease = lease
        self.max_attempts = max_attempts
        self.base_backoff_s = base_backoff_s
        self._sending: set[str] = set()
        """Keys being delivered in this process now."""
        self._sent_unrecorded: dict[tuple[str, int], list[str]] = {}
        """Replies the provider took while the database could not record it: recorded, never sent again."""

    @property
    def owner(self) -> str:
        return self._intake.owner

    def register(self, transport: Transport, channel: ReplyChannel) -> None:
        self._channels[transport] = channel

    def can_send(self, transport: Transport) -> bool:
        return transport in self._channels or self._outbound.reaches(transport)

    async def deliver(self, key: str) -> DeliveryReport:
        """Send the pending replies of one answer, in order; return what happened to them."""
        if key in self._sending:
            return DeliveryReport()
        self._sending.add(key)
        try:
            return await self._deliver(key)
        finally:
            self._sending.discard(key)

    async def _deliver(self, key: str) -> DeliveryReport:
        report = DeliveryReport()
        rows = self.outbox.rows(key)
        batch = [r.reply for r in rows]
        settled = 0
        for row in rows:
            if row.state != "pending":
                settled += 1
                continue
            if not self.can_send(row.transport) or not self.outbox.claim(row, self.owner, self.lease):
                break  # another sender has it, or no transport here can send it: the bot's worker will
            claimed = row.model_copy(update={"owner": self.owner})
            if not await self._send(claimed, batch, report):
                break
            settled += 1
        if key.startswith(INTAKE_PREFIX) and settled == len(rows):
            self._intake.delivered(key[len(INTAKE_PREFIX):])
        return report

    async def flush(self, now: datetime | None = None) -> DeliveryReport:
        """Send every answer with a pending reply that is due and has no live sender."""
        total = DeliveryReport()
        due = self.outbox.due_keys(now or datetime.now(timezone.utc), mine=self.owner)
        for key in [k for k in due if k not in self._sending]:
            report = await self.deliver(key)
            total = DeliveryReport(sent=total.sent + report.sent, retrying=total.retrying + report.retrying,
                                   failed=total.failed + report.failed)
        return total

    def settle_shown(self, key: str) -> None:
        """Record replies the caller has shown itself (the console prints them) as sent."""
        if key.startswith(INTAKE_PREFIX):
            self._intake.shown(key[len(INTAKE_PREFIX):], key)
        else:
            self.outbox.shown(key)

    async def _send(self, row: OutgoingReply, batch: list[Reply], report: DeliveryReport) -> bool:
        """Send one claimed row; True when the next row of the answer may go."""
        unrecorded = self._sent_unrecorded.get((row.key, row.position))
        if unrecorded is not None:
            self.outbox.mark_sent(row, unrecorded)
            del self._sent_unrecorded[(row.key, row.position)]
            report.sent += 1
            return True
        user = self._registry.by_id(row.user_id)
        try:
            async with heartbeat(lambda: self.outbox.renew(row, self.owner, self.lease), self.lease):
                try:
                    ids = await self._through_channel(row, user, batch)
                except SendFailed:
                    raise
                except Exception as exc:  # a transport not started yet, a library's surprise: bounded retries
                    raise SendFailed(f"{type(exc).__name__}: {exc}", transient=True) from exc
        except SendFailed as exc:
            if not exc.transient:
                log.warning("reply %s#%s refused by %s, not retried: %s", row.key, row.position, row.transport, exc)
                self.outbox.give_up(row, f"refused: {exc}")
                REPLIES_FAILED.labels(row.transport).inc()
                report.failed += 1
                return True
            state = self.outbox.retry_later(row, f"transient: {exc}", self.max_attempts, self.base_backoff_s)
            log.warning("reply %s#%s not sent on %s (%s); %s", row.key, row.position, row.transport, exc,
                        "given up" if state == "failed" else "will retry")
            if state == "failed":
                REPLIES_FAILED.labels(row.transport).inc()
                report.failed += 1
                return True
            report.retrying += 1
            RETRIES.labels("reply").inc()
            return False
        try:
            self.outbox.mark_sent(row, ids)
        except Exception:
            # Sent, but not recorded (the database went away): recorded later by this process, never resent.
            self._sent_unrecorded[(row.key, row.position)] = ids
            raise
        report.sent += 1
        return True

    async def _through_channel(self, row: OutgoingReply, user: User | None, batch: list[Reply]) -> list[str]:
        channel = self._channels.get(row.transport)
        if channel is not None:
            return await channel.send_reply(user, row.address, row.reply, batch)
        if user is None:
            raise SendFailed("no such person any more", transient=False)
        delivery = await self._outbound.send(user, [row.reply], "notice")
        if not delivery.delivered:
            raise SendFailed("no running transport reached them", transient=True)
        return []
