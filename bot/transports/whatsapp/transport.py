"""The WhatsApp transport behind the webhook: queued inbound messages become Incoming messages for the core.

The web layer (bot/transports/whatsapp/webhook.py) only validates, parses and queues. Workers here fetch
media, map a numbered reply to the button it names, run the conversation core and send the replies through
the Twilio REST API.
One number's messages are handled in order; different numbers concurrently. A delivery is kept in the state
store before Twilio is answered, so a crash between the two loses nothing. A stranger's delivery is never
kept: it is only refused (bot/core/conversation.py), and nothing of it is fetched or written.
"""

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from bot.core.conversation import Conversation
from bot.core.errors import database_unavailable, is_transient, new_reference
from bot.core.loops import Beat, Loops, guarded
from bot.core.metrics import GAVE_UP, REPLIES_FAILED, RETRIES, SPOOLED
from bot.transports.redelivery import InFlight, Redelivery
from bot.transports.spool import Spool
from bot.services.i18n import text
from bot.core.invite_chat import offers_code
from bot.core.messages import CleanText, Incoming, Reply
from bot.store.state import DeliveryTooLarge
from bot.transports.chat_text import too_large
from bot.transports.whatsapp.media import InboundMedia, MediaFetcher, MediaFetchFailed, MediaTooLarge, kind_of
from bot.transports.whatsapp.send import OUTSIDE_WINDOW, SessionWindow, TwilioConfig, TwilioSender, WhatsAppNotifier, \
    WhatsAppReplyChannel, send_failed

log = logging.getLogger(__name__)

_OPTION = re.compile(r"^\s*(\d{1,2})\s*\.?\s*$")
INBOX = "whatsapp"
IDLE_BEAT_S = 5.0
RETRY_CHECK_EVERY = 5
"""Spool rounds (a second each) between looks for deliveries an operator asked to retry."""


MAX_NUM_MEDIA = 10


class TwilioInbound(BaseModel):
    """The parts of Twilio's inbound-message webhook form that the bot uses."""

    model_config = ConfigDict(frozen=True)

    message_sid: str = Field(min_length=1)
    sender: str = Field(min_length=1)
    body: CleanText = ""
    media: list[InboundMedia] = Field(default_factory=list)
    button_payload: str | None = None
    """Set when the person tapped a quick-reply button of a content template."""

    @property
    def number(self) -> str:
        return self.sender.removeprefix("whatsapp:")

    @classmethod
    def from_form(cls, form: dict[str, str]) -> "TwilioInbound":
        try:
            count = int(form.get("NumMedia") or 0)
        except ValueError:
            count = 0
        # Twilio sends at most MAX_NUM_MEDIA files with one message; a larger count is not looped over.
        media = [InboundMedia(url=form[f"MediaUrl{i}"], content_type=form.get(f"MediaContentType{i}", ""))
                 for i in range(max(0, min(count, MAX_NUM_MEDIA))) if form.get(f"MediaUrl{i}")]
        return cls(message_sid=form.get("MessageSid") or form.get("SmsMessageSid") or "",
                   sender=form.get("From", ""), body=form.get("Body", ""), media=media,
                   button_payload=form.get("ButtonPayload") or None)


class TwilioStatus(BaseModel):
    """The parts of Twilio's message status callback that the bot uses."""

    message_sid: str = Field(min_length=1)
    status: str = Field(min_length=1)
    error_code: str | None = None

    @classmethod
    def from_form(cls, form: dict[str, str]) -> "TwilioStatus":
        return cls(message_sid=form.get("MessageSid") or form.get("SmsSid") or "",
                   status=(form.get("MessageStatus") or form.get("SmsStatus") or "").lower(),
                   error_code=form.get("ErrorCode") or None)


class WhatsAppTransport:
    """Owns the inbound queue, its workers, the media fetcher and the Twilio sender."""

    def __init__(self, conversation: Conversation, workers: int = 4,
                 clock: Callable[[], datetime] | None = None) -> None:
        services = conversation.services
        settings = services.settings
        self.conversation = conversation
        self.config = TwilioConfig.from_settings(settings)
        media_dir = settings.state_dir / "media"
        self.sender = TwilioSender(self.config, services.state, media_dir / "whatsapp-out")
        self.fetcher = MediaFetcher(self.config.account_sid, self.config.auth_token, settings.max_media_bytes,
                                    media_dir / "whatsapp", base_url=self.config.base_url)
        self.window = SessionWindow(services.state, clock or services.clock)
        self.workers = workers
        self._queue: asyncio.Queue[TwilioInbound] = asyncio.Queue()
        self._retries: set[asyncio.Task[None]] = set()
        self.redelivery = Redelivery()
        self.in_flight = InFlight()
        """Deliveries taken and not yet handled or given up (readiness reads the oldest)."""
        self.loops = Loops()
        self.spool = Spool(settings.state_dir / "spool" / INBOX, services.intake.owner)
        self.spool_every_s = 1.0
        self._number_locks: dict[str, asyncio.Lock] = {}
        services.outbound.register("whatsapp", WhatsAppNotifier(self.sender, self.window, conversation.language_of,
                                                                services.replies.outbox, services.replies.owner))
        services.replies.register("whatsapp", WhatsAppReplyChannel(self.sender, self.window,
                                                                   conversation.language_of))

    # --- lifecycle -----------------------------------------------------------------------------------------

    async def start(self) -> None:
        # Deliveries acknowledged to Twilio but not handled before a crash or stop are picked up again.
        state = self.conversation.services.state
        for key, payload in state.inbox_pending(INBOX):
            try:
                self._queue.put_nowait(TwilioInbound.model_validate_json(payload))
                self.in_flight.taken(key)
            except (ValueError, RecursionError) as exc:  # pydantic's ValidationError is a ValueError
                # A kept delivery that cannot be read would fail at every start: removed, said in the log.
                log.error("whatsapp: removed kept message %s that cannot be read (%s)", key, type(exc).__name__)
                state.inbox_forget(INBOX, key)
        for i in range(self.workers):
            self.loops.start(f"whatsapp-worker-{i}", self._work)
        self.loops.start("whatsapp-spool", self._replay_spool)

    async def stop(self, drain_timeout_s: float = 10.0) -> None:
        """Finish what is queued (Twilio was already told it arrived), within a bound, then stop the workers."""
        try:
            await asyncio.wait_for(self._queue.join(), timeout=drain_timeout_s)
        except asyncio.TimeoutError:
            log.warning("stopping with %s whatsapp messages still queued", self._queue.qsize())
        await self.loops.stop()
        for retry in self._retries:
            retry.cancel()
        await self.fetcher.aclose()

    def queue_depth(self) -> int:
        return self._queue.qsize() + len(self._retries)

    async def drain(self) -> None:
        """Wait until every queued message has been handled (for tests and graceful shutdown)."""
        await self._queue.join()

    # --- inbound -------------------------------------------------------------------------------------------

    def accept(self, inbound: TwilioInbound) -> bool:
        """Keep a validated delivery durably, then queue it; False for a MessageSid seen before (a retry).
        A stranger's delivery, and an invite code offered, are queued in memory only. While the database is
        down the delivery is kept in the local spool instead, and queued when it is back."""
        try:
            return self._keep(inbound)
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            self.spool.append(inbound.message_sid, inbound.model_dump_json())
            SPOOLED.labels(INBOX).inc()
            return True

    def _keep(self, inbound: TwilioInbound) -> bool:
        state = self.conversation.services.state
        if not self._is_registered(inbound) or offers_code(inbound.body):
            self._queue.put_nowait(inbound)
            self.in_flight.taken(inbound.message_sid)
            return True
        try:
            if not state.inbox_put(INBOX, inbound.message_sid, inbound.model_dump_json()):
                log.info("dropped replayed whatsapp message %s", inbound.message_sid)
                return False
        except DeliveryTooLarge as exc:
            log.warning("not keeping %s; handled in memory only", exc)
        self._queue.put_nowait(inbound)
        self.in_flight.taken(inbound.message_sid)
        return True

    async def _replay_spool(self, beat: Beat) -> None:
        """Move spooled deliveries into the inbox, and take the given-up ones an operator asked to retry."""
        rounds = 0
        while True:
            beat()
            if self.spool.pending():
                self.spool.replay(lambda entry: self._keep(TwilioInbound.model_validate_json(entry.payload)))
            if rounds % RETRY_CHECK_EVERY == 0:
                for key, payload in await asyncio.to_thread(self.conversation.services.state.inbox_take_retries,
                                                            INBOX):
                    self._queue.put_nowait(TwilioInbound.model_validate_json(payload))
                    self.in_flight.taken(key)
            rounds += 1
            await asyncio.sleep(self.spool_every_s)

    def _is_registered(self, inbound: TwilioInbound) -> bool:
        return self.conversation.services.registry.lookup("whatsapp", inbound.sender) is not None

    async def _work(self, beat: Beat) -> None:
        while True:
            beat()
            try:
                inbound = await asyncio.wait_for(self._queue.get(), timeout=IDLE_BEAT_S)
            except asyncio.TimeoutError:
                continue
            try:
                await self._handle_one(inbound)
            finally:
                self._queue.task_done()

    async def _handle_one(self, inbound: TwilioInbound) -> None:
        """Handle one delivery; nothing that goes wrong here, its error handling included, ends the worker. A
        failure queues the delivery again after a backoff: for as long as it lasts when transient (the database
        or a service down), a bounded number of times otherwise (bot/transports/redelivery.py), then it is given
        up: kept in the inbox as failed, and the sender told once."""
        sid = inbound.message_sid
        try:
            async with self._number_locks.setdefault(inbound.number, asyncio.Lock()):
                await self.handle(inbound)
        except Exception as exc:
            transient = is_transient(exc)
            delay = self.redelivery.next_delay(sid, transient)
            if delay is None:
                await self._give_up(inbound, exc)
                return
            RETRIES.labels("whatsapp").inc()
            log.warning("whatsapp message %s not handled yet (%s); trying again in %.1f s", sid,
                        type(exc).__name__, delay)
            self._retry_later(inbound, delay)
            return
        self.redelivery.forget(sid)
        self.in_flight.finished(sid)
        try:
            if self._is_registered(inbound) and not offers_code(inbound.body):
                self.conversation.services.state.inbox_done(INBOX, sid)
            else:
                self.conversation.services.state.inbox_forget(INBOX, sid)
        except Exception as exc:  # the core drops the redelivery at the next start: nothing is done twice
            log.warning("could not mark whatsapp message %s handled: %s", sid, type(exc).__name__)

    async def _give_up(self, inbound: TwilioInbound, exc: Exception) -> None:
        """Stop retrying a delivery that keeps failing: kept as failed for the operator, the sender told once."""
        sid = inbound.message_sid
        reference = new_reference()
        attempts = self.redelivery.attempts(sid)
        self.redelivery.forget(sid)
        self.in_flight.finished(sid)
        GAVE_UP.labels("whatsapp").inc()
        log.error("whatsapp message %s failed %s times; given up, reference %s (kept: smriti queue list)", sid,
                  attempts, reference, exc_info=exc)
        await guarded(f"marking whatsapp message {sid} failed", lambda: asyncio.to_thread(
            self.conversation.services.state.inbox_failed, INBOX, sid, attempts,
            f"{type(exc).__name__} (reference {reference})"))
        await guarded(f"telling the sender of {sid} it failed", lambda: self._tell_failed(inbound, reference))

    def _retry_later(self, inbound: TwilioInbound, delay: float) -> None:
        async def later() -> None:
            await asyncio.sleep(delay)
            self._queue.put_nowait(inbound)

        task = asyncio.create_task(later())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _tell_failed(self, inbound: TwilioInbound, reference: str) -> None:
        user = self.conversation.services.registry.lookup("whatsapp", inbound.sender)
        lang = self.conversation.language_of(user) if user is not None else "en"
        failed = Reply(text=text(lang, "transport.gave_up", reference=reference))
        try:
            await self.sender.send(inbound.number, [failed], lang, remember=False)
        except Exception as exc:
            log.warning("could not tell %s about a failed message: %s", inbound.message_sid, type(exc).__name__)

    async def handle(self, inbound: TwilioInbound) -> None:
        """Handle one inbound message end to end: media, buttons, the core, the replies."""
        user = self.conversation.services.registry.lookup("whatsapp", inbound.sender)
        if user is None:
            # The core refuses strangers; their media is never fetched.
            replies = await self.conversation.handle(self._incoming(inbound, text=inbound.body))
            joined = self.conversation.services.registry.lookup("whatsapp", inbound.sender)
            if joined is not None:  # they joined with an invite code: their window is open from now
                self.window.record_inbound(inbound.number, joined.user_id)
            await self.sender.send(inbound.number, replies, "en", remember=False)
            return
        self.window.record_inbound(inbound.number, user.user_id)
        lang = self.conversation.language_of(user)
        for incoming in await self._incomings(inbound, lang):
            if isinstance(incoming, Reply):
                await self.sender.send(inbound.number, [incoming], lang, remember=False)
                continue
            try:
                answer = await self.conversation.answer(incoming)
            finally:
                if incoming.media is not None and incoming.media.path.parent == self.fetcher.target_dir:
                    incoming.media.path.unlink(missing_ok=True)  # the intake store keeps its own copy
            if answer.key is not None:
                await self.conversation.services.replies.deliver(answer.key)
            direct = answer.unkept()
            if direct:
                await self.sender.send(inbound.number, direct, self.conversation.language_of(user))

    async def on_status(self, status: TwilioStatus) -> None:
        """Record what Twilio says became of a message: delivered, or not. A message refused for being outside
        the 24-hour window is sent again with the approved template (once); any other undelivered one is
        flagged for the operator (`smriti queue`). An undelivered message is never left recorded as sent."""
        outbox = self.conversation.services.replies.outbox
        row = outbox.by_provider_id(status.message_sid)
        if row is None:
            log.info("status %s for a message not in the reply outbox", status.status)
            return
        if status.status in ("delivered", "read"):
            if row.state == "sent":
                outbox.set_state(row, "delivered")
            return
        if status.status not in ("undelivered", "failed") or row.state in ("failed", "flagged"):
            return
        reason = f"WhatsApp {status.status} (error {status.error_code or '?'})"
        retried = (row.last_error or "").startswith("template")
        if status.error_code == OUTSIDE_WINDOW and self.config.template_sid and not retried:
            try:
                sid = await self.sender.send_template(row.address.removeprefix("whatsapp:"), row.reply.text)
            except Exception as exc:
                outbox.set_state(row, "flagged", f"{reason}; the template failed too: {send_failed(exc)}")
                REPLIES_FAILED.labels("whatsapp").inc()
                return
            outbox.mark_sent(row, [sid])
            outbox.set_state(row, "sent", f"template after {reason}")
            log.info("re-sent %s#%s with the template after %s", row.key, row.position, reason)
            return
        log.warning("reply %s#%s not delivered: %s; flagged for the operator", row.key, row.position, reason)
        outbox.set_state(row, "flagged", reason)
        REPLIES_FAILED.labels("whatsapp").inc()

    def _incoming(self, inbound: TwilioInbound, suffix: str = "", **fields: object) -> Incoming:
        return Incoming(transport="whatsapp", sender=inbound.sender, delivery_id=inbound.message_sid + suffix,
                        **fields)  # type: ignore[arg-type]  # fields are Incoming's own, checked by pydantic

    async def _incomings(self, inbound: TwilioInbound, lang: str) -> list[Incoming | Reply]:
        if inbound.button_payload:
            return [self._incoming(inbound, callback=inbound.button_payload)]
        if not inbound.media:
            return [self._option_or_text(inbound, lang)]
        if self.conversation.services.intake.by_delivery("whatsapp", inbound.message_sid):
            return [self._incoming(inbound, text=inbound.body)]  # already taken in; the core drops it
        # A message with several files is handled as one delivery per file; the caption goes with the first.
        results: list[Incoming | Reply] = []
        for index, media in enumerate(inbound.media):
            suffix = f":{index}" if index else ""
            results.append(await self._with_media(inbound, media, suffix, lang,
                                                  caption=inbound.body if index == 0 else None))
        return results

    def _option_or_text(self, inbound: TwilioInbound, lang: str) -> Incoming | Reply:
        match = _OPTION.match(inbound.body)
        buttons = self.sender.buttons.latest(inbound.number) if match else []
        if match is None or not buttons:
            return self._incoming(inbound, text=inbound.body)
        number = int(match.group(1))
        if not 1 <= number <= len(buttons):
            return Reply(text=text(lang, "transport.no_such_option", number=number))
        return self._incoming(inbound, callback=buttons[number - 1].data)

    async def _with_media(self, inbound: TwilioInbound, media: InboundMedia, suffix: str, lang: str,
                          caption: str | None) -> Incoming | Reply:
        if kind_of(media.content_type) is None:
            return Reply(text=text(lang, "transport.unsupported"))
        try:
            fetched = await self.fetcher.fetch(media, stem=f"{inbound.message_sid}{suffix.replace(':', '-')}")
        except MediaTooLarge as exc:
            log.info("refused whatsapp media of %s bytes", exc.size)
            return too_large(lang, exc.size, self.fetcher.max_bytes)
        except MediaFetchFailed as exc:
            log.warning("could not fetch whatsapp media for %s: %s", inbound.message_sid, exc)
            return Reply(text=text(lang, "transport.download_failed"))
        return self._incoming(inbound, suffix, text=caption or None, media=fetched)
