"""The Telegram transport: python-telegram-bot's Application turning updates into Incoming messages for the core.

Long polling by default; webhook mode (PTB's own webhook server) checks Telegram's secret_token header.
Updates from different chats run concurrently; one chat's updates run in order, so an edit answers its card.
Every update is on disk before Telegram is told it arrived (bot/transports/telegram/inbox.py), and marked handled after.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from urllib.parse import urlparse

import httpx
import uvicorn
from pydantic import SecretStr
from telegram import BotCommand, BotCommandScopeChat, BotCommandScopeDefault, Message, Update
from telegram.constants import ChatType
from telegram.error import NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, CallbackQueryHandler, ContextTypes, \
    MessageHandler, filters

from bot.core.conversation import SHARED_COMMANDS, Answer, Conversation
from bot.core.errors import is_transient, new_reference
from bot.core.loops import Beat, Loops, backoff_s, guarded
from bot.transports.redelivery import Redelivery
from bot.core.metrics import GAVE_UP, RETRIES
from bot.transports.asgi import QuietServer
from bot.transports.health import Health
from bot.transports.spool import Spool
from bot.services.i18n import text
from bot.core.invite_chat import offers_code
from bot.transports.media_download import MediaFetchFailed, MediaTooLarge
from bot.core.messages import Incoming, Reply
from bot.core.registry import User
from bot.transports.telegram.inbox import INBOX, DurableUpdateQueue
from bot.transports.telegram.media import MediaRef, download, is_unsupported, media_of
from bot.transports.telegram.send import TelegramNotifier, TelegramReplyChannel, TelegramSender
from bot.core.cards import parse_card_data
from bot.transports.chat_text import split_command, too_large

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query"]
RETRY_CHECK_EVERY = 5
"""Spool rounds (a second each) between looks for updates an operator asked to retry."""


MENUS_AT_START = 500
"""Up to this many people, every chat's command menu is set before the bot starts; beyond, in the background."""


class TelegramNotConfigured(ValueError):
    """A setting the Telegram transport needs is missing; the message says which."""


class TelegramTransport:
    """Owns the PTB Application: receives updates, hands them to the conversation core, sends the replies."""

    def __init__(self, conversation: Conversation, poll_timeout_s: float = 10.0) -> None:
        services = conversation.services
        settings = services.settings
        if settings.telegram_bot_token is None:
            raise TelegramNotConfigured("TELEGRAM_BOT_TOKEN is not set")
        self.conversation = conversation
        self.poll_timeout_s = poll_timeout_s
        self.reconnect_base_s = 1.0
        self.inbox = DurableUpdateQueue(services.state, self._kept,
                                        Spool(settings.state_dir / "spool" / INBOX, services.intake.owner))
        self.loops = Loops()
        self.health: Health | None = None
        """Set by the runner before start_webhook: the webhook's port then serves readiness and metrics."""
        self._server: QuietServer | None = None
        self._server_task: asyncio.Task[None] | None = None
        self.redelivery = Redelivery()
        self._retries: set[asyncio.Task[None]] = set()
        builder = (
            ApplicationBuilder()
            .token(settings.telegram_bot_token.get_secret_value())
            .update_queue(self.inbox)
            .rate_limiter(AIORateLimiter(max_retries=3))
            .concurrent_updates(True)
            .job_queue(None)
        )
        if settings.telegram_base_url:
            root = settings.telegram_base_url.rstrip("/")
            builder = builder.base_url(f"{root}/bot").base_file_url(f"{root}/file/bot")
        self.application: Application = builder.build()  # type: ignore[type-arg]  # PTB's six type parameters: the defaults build() gives
        self.application.add_handler(MessageHandler(filters.UpdateType.MESSAGE, self.on_message))
        self.application.add_handler(CallbackQueryHandler(self.on_button))
        self.application.add_error_handler(self.on_error)
        self.sender = TelegramSender(self.application.bot, services.state)
        self.media_dir = settings.state_dir / "media" / "telegram"
        self.downloads = httpx.AsyncClient(timeout=httpx.Timeout(30.0, connect=10.0))
        self._chat_locks: dict[int, asyncio.Lock] = {}
        services.outbound.register("telegram", TelegramNotifier(self.sender))
        services.replies.register("telegram", TelegramReplyChannel(self.sender))

    # --- running -------------------------------------------------------------------------------------------

    async def start_polling(self) -> None:
        """Start the Application and long-poll getUpdates."""
        await self._start()
        assert self.application.updater is not None
        await self.application.updater.start_polling(timeout=timedelta(seconds=self.poll_timeout_s),
                                                     allowed_updates=ALLOWED_UPDATES)
        log.info("telegram: polling for updates")

    async def start_webhook(self, webhook_url: str, listen: str, port: int) -> None:
        """Register the webhook with Telegram and serve it (bot/transports/telegram/webhook.py): requests without
        a valid secret token get 403."""
        from bot.transports.telegram.webhook import create_app

        secret = self.webhook_secret()
        await self._start()
        await self._until_reachable("setWebhook", lambda: self.application.bot.set_webhook(
            url=webhook_url, secret_token=secret.get_secret_value(), allowed_updates=ALLOWED_UPDATES))
        path = urlparse(webhook_url).path or "/"
        self._server = QuietServer(uvicorn.Config(create_app(self, path, self.health), host=listen, port=port,
                                                  log_config=None, log_level="warning", proxy_headers=False,
                                                  access_log=False))
        self._server_task = asyncio.create_task(self._server.serve())
        while not self._server.started:
            if self._server_task.done():
                self._server_task.result()  # raises what stopped it (the port is taken)
                raise OSError(f"the telegram webhook server did not start on {listen}:{port}")
            await asyncio.sleep(0.02)
        log.info("telegram: webhook listening on %s:%s", listen, port)

    def webhook_secret(self) -> SecretStr:
        """Return the secret Telegram must send with every webhook call; raise TelegramNotConfigured without one."""
        secret = self.conversation.services.settings.telegram_webhook_secret
        if secret is None:
            raise TelegramNotConfigured("webhook mode needs SMRITI_TELEGRAM_WEBHOOK_SECRET")
        return secret

    def webhook_secrets(self) -> list[str]:
        """Every secret a webhook call may carry: the current one, and the previous one during a rotation."""
        previous = self.conversation.services.settings.telegram_webhook_secret_previous
        return [self.webhook_secret().get_secret_value(), *([previous.get_secret_value()] if previous else [])]

    async def _replay_spool(self, beat: Beat) -> None:
        """Move spooled updates into the inbox, and take the given-up ones an operator asked to retry."""
        rounds = 0
        while True:
            beat()
            self.inbox.replay_spool(self.application.bot)
            if rounds % RETRY_CHECK_EVERY == 0:
                await self.inbox.take_retries(self.application.bot)
            rounds += 1
            await asyncio.sleep(1.0)

    async def _until_reachable(self, what: str, call: Callable[[], Awaitable[object]]) -> None:
        """Call the Bot API until it answers. Telegram (or the way to it) being down when the bot starts is an
        outage like any other: the process keeps serving what else it serves (WhatsApp, health) and connects when
        Telegram is back, instead of exiting with a traceback into a restart loop. A refusal (a bad token) is not
        a network error and still stops the start."""
        attempt = 0
        while True:
            try:
                await call()
                return
            except NetworkError as exc:
                attempt += 1
                wait = backoff_s(attempt, base_s=self.reconnect_base_s, cap_s=60.0)
                log.warning("telegram: the Bot API did not answer %s (%s); trying again in %.0f s", what,
                            type(exc).__name__, wait)
                await asyncio.sleep(wait)

    async def _start(self) -> None:
        await self._until_reachable("getMe", self.application.initialize)
        invitations = self.conversation.invitations
        invitations.telegram_username = invitations.telegram_username or self.application.bot.username
        await self.register_commands()
        await self.application.start()
        self.inbox.requeue_pending(self.application.bot)
        self.loops.start("telegram-spool", self._replay_spool)

    async def stop(self) -> None:
        if self._server is not None and self._server_task is not None:
            self._server.should_exit = True
            await self._server_task
            self._server = self._server_task = None
        await self.loops.stop()
        for retry in self._retries:
            retry.cancel()
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.application.shutdown()
        await self.downloads.aclose()

    # --- commands menu -------------------------------------------------------------------------------------

    async def register_commands(self) -> None:
        """Set the command menu: shared commands by default, and each registered chat its own pack's, in its
        language."""
        bot = self.application.bot
        shared = [BotCommand(c.command, text("en", c.description_key)) for c in SHARED_COMMANDS]
        try:
            await bot.set_my_commands(shared, scope=BotCommandScopeDefault())
        except TelegramError as exc:
            log.warning("could not set the default command menu: %s", type(exc).__name__)
        registry = self.conversation.services.registry
        if registry.count() <= MENUS_AT_START:
            await self._register_menus()
            return
        # Thousands of people: one Bot API call each, so their menus are set in the background (the rate limiter
        # paces them) and the bot starts answering at once.
        task = asyncio.create_task(self._register_menus())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def _register_menus(self) -> None:
        registry = self.conversation.services.registry
        for user in await asyncio.to_thread(lambda: registry.users):
            await self.register_commands_for(user)

    async def register_commands_for(self, user: User) -> None:
        if user.pack not in self.conversation.packs:
            return
        lang = self.conversation.language_of(user)
        commands = [BotCommand(c.command, text(lang, c.description_key))
                    for c in self.conversation.commands_for(user.pack, user.role)]
        for chat_id in user.telegram_ids:
            try:
                await self.application.bot.set_my_commands(commands, scope=BotCommandScopeChat(chat_id))
            except TelegramError as exc:
                # Telegram refuses chat scopes for people who never opened the bot; they get the default menu.
                log.info("no command menu for %s yet: %s", user.user_id, type(exc).__name__)

    # --- updates -------------------------------------------------------------------------------------------

    def _lock(self, chat_id: int) -> asyncio.Lock:
        return self._chat_locks.setdefault(chat_id, asyncio.Lock())

    def _is_registered(self, update: Update) -> bool:
        """Whether the update comes from a registered person (or from no one in particular): only those are kept."""
        person = update.effective_user
        return person is None or self.conversation.services.registry.lookup("telegram", str(person.id)) is not None

    def _kept(self, update: Update) -> bool:
        """Whether the update is kept durably: a registered person's, and not an invite code offered."""
        message = update.effective_message
        return self._is_registered(update) and not (message is not None and offers_code(message.text))

    def _lang_of(self, telegram_user_id: int) -> str:
        user = self.conversation.services.registry.lookup("telegram", str(telegram_user_id))
        return self.conversation.language_of(user) if user is not None else "en"

    async def on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer a message; only then is its update marked handled (a failure leaves it to the next start)."""
        if await self._attempt(update, self._answer_message):
            self._handled(update)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer a button press; only then is its update marked handled."""
        if await self._attempt(update, self._answer_button):
            self._handled(update)

    async def _attempt(self, update: Update, answer: Callable[[Update], Awaitable[None]]) -> bool:
        """Run `answer`; on a failure queue the update again after a backoff and return False: for as long as it
        lasts when transient (the database or a service down), a bounded number of times otherwise
        (bot/transports/redelivery.py), after which it is given up (kept as failed, the sender told once)."""
        key = str(update.update_id)
        try:
            await answer(update)
        except Exception as exc:
            transient = is_transient(exc)
            delay = self.redelivery.next_delay(key, transient)
            if delay is None:
                await self._give_up(update, exc)
                return False
            log.warning("telegram update %s not handled yet (%s); trying again in %.1f s", update.update_id,
                        type(exc).__name__, delay)
            RETRIES.labels("telegram").inc()

            async def later() -> None:
                await asyncio.sleep(delay)
                self.inbox.again(update)

            task = asyncio.create_task(later())
            self._retries.add(task)
            task.add_done_callback(self._retries.discard)
            return False
        self.redelivery.forget(key)
        return True

    async def _give_up(self, update: Update, exc: Exception) -> None:
        """Stop retrying an update that keeps failing: kept as failed for the operator, the sender told once."""
        key = str(update.update_id)
        reference = new_reference()
        attempts = self.redelivery.attempts(key)
        self.redelivery.forget(key)
        GAVE_UP.labels("telegram").inc()
        log.error("telegram update %s failed %s times; given up, reference %s (kept: smriti queue list)", key,
                  attempts, reference, exc_info=exc)
        error = f"{type(exc).__name__} (reference {reference})"
        if self._kept_safely(update):
            await guarded(f"marking telegram update {key} failed",
                          lambda: asyncio.to_thread(self.inbox.failed, update, attempts, error))
        else:
            self.inbox.in_flight.finished(key)
        await guarded(f"telling chat about a failed update {key}",
                      lambda: self._tell(update, "transport.gave_up", reference))

    def _kept_safely(self, update: Update) -> bool:
        try:
            return self._kept(update)
        except Exception:  # the database is down: marking it failed is tried (and logged) all the same
            return True

    def _handled(self, update: Update) -> None:
        try:
            if self._kept(update):
                self.inbox.handled(update)
            else:
                self.inbox.forget(update)
        except Exception as exc:  # the core drops the redelivery at the next start: nothing is done twice
            log.warning("could not mark telegram update %s handled: %s", update.update_id, type(exc).__name__)

    async def _answer_message(self, update: Update) -> None:
        """Turn a message (text, voice, audio, photo, document) into an Incoming and answer it."""
        message, person = update.effective_message, update.effective_user
        if message is None or person is None:
            return
        chat_id = message.chat.id
        async with self._lock(chat_id):
            if message.chat.type != ChatType.PRIVATE:
                await self.sender.send(chat_id, [Reply(text=text(self._lang_of(person.id), "transport.private_only"))])
                return
            async with self.sender.chat_action(chat_id):
                user = self.conversation.services.registry.lookup("telegram", str(person.id))
                incoming = await self._incoming(update, message, user)
                if isinstance(incoming, Reply):
                    await self.sender.send(chat_id, [incoming])
                    return
                try:
                    answer = await self.conversation.answer(incoming)
                finally:
                    # The intake store keeps its own copy of the file; this download was only the way in.
                    if incoming.media is not None and incoming.media.path.parent == self.media_dir:
                        incoming.media.path.unlink(missing_ok=True)
            await self._deliver(chat_id, answer)
            command = split_command((incoming.text or "").strip())
            joined = None if user is not None else \
                self.conversation.services.registry.lookup("telegram", str(person.id))
            if joined is not None or (user is not None and command is not None and command[0] == "lang"):
                await self.register_commands_for(joined or user)  # type: ignore[arg-type]

    async def _incoming(self, update: Update, message: Message, user: User | None) -> Incoming | Reply:
        """Build the Incoming; a Reply instead when the message cannot be taken (too large, unsupported)."""
        sender = str(update.effective_user.id) if update.effective_user else ""
        base = Incoming(transport="telegram", sender=sender, delivery_id=str(update.update_id),
                        text=message.text or message.caption)
        ref = media_of(message)
        if user is None or self.conversation.services.intake.by_delivery("telegram", base.delivery_id):
            # Strangers are refused by the core and a redelivery is dropped there: neither needs the file.
            return base
        lang = self.conversation.language_of(user)
        if ref is None:
            if is_unsupported(message):
                return Reply(text=text(lang, "transport.unsupported"))
            return base
        return await self._with_media(base, ref, lang)

    async def _with_media(self, base: Incoming, ref: MediaRef, lang: str) -> Incoming | Reply:
        settings = self.conversation.services.settings
        limit = settings.max_media_bytes
        if ref.size_bytes is not None and ref.size_bytes > limit:
            log.info("refused a %s of %s bytes (limit %s)", ref.kind, ref.size_bytes, limit)
            return too_large(lang, ref.size_bytes, limit)
        if ref.seconds is not None and ref.seconds > settings.max_voice_seconds:
            log.info("refused a %s of %s s before downloading it", ref.kind, ref.seconds)
            reason = f"the voice note is {ref.seconds:.0f} s long; the limit is {settings.max_voice_seconds:.0f} s"
            return Reply(text=text(lang, "core.voice_rejected", reason=reason))
        try:
            media = await download(self.application.bot, self.downloads, ref, self.media_dir,
                                   stem=f"{base.delivery_id}-{ref.file_unique_id}", max_bytes=limit)
        except MediaTooLarge as exc:
            log.info("refused a %s of %s bytes (limit %s)", ref.kind, exc.size, limit)
            return too_large(lang, exc.size, limit)
        except (TelegramError, MediaFetchFailed) as exc:
            log.warning("could not download a %s: %s", ref.kind, type(exc).__name__)
            return Reply(text=text(lang, "transport.download_failed"))
        return base.model_copy(update={"media": media})

    async def _answer_button(self, update: Update) -> None:
        """Answer the button press at once, then hand its data to the core as a callback."""
        query, person = update.callback_query, update.effective_user
        if query is None or person is None:
            return
        try:
            await query.answer()
        except TelegramError as exc:
            log.info("could not answer a callback query: %s", type(exc).__name__)
        chat_id = query.message.chat.id if query.message is not None else person.id
        async with self._lock(chat_id):
            self._adopt_card_message(chat_id, query.data or "", query.message)
            incoming = Incoming(transport="telegram", sender=str(person.id), delivery_id=str(update.update_id),
                                callback=query.data or "")
            async with self.sender.chat_action(chat_id):
                answer = await self.conversation.answer(incoming)
            await self._deliver(chat_id, answer)

    async def _deliver(self, chat_id: int, answer: Answer) -> None:
        """Send an answer: through the reply outbox when its replies are kept there, else straight away."""
        if answer.key is not None:
            await self.conversation.services.replies.deliver(answer.key)
        direct = answer.unkept()
        if direct:
            await self.sender.send(chat_id, direct)

    def _adopt_card_message(self, chat_id: int, data: str, message: object) -> None:
        """A card button pressed on a message we lost track of (state reset): that message is the card."""
        pressed = parse_card_data(data)
        if pressed is None or not pressed.on_card or message is None:
            return
        message_id = getattr(message, "message_id", None)
        if message_id is not None and self.sender.card_message(chat_id, pressed.card_id) is None:
            self.sender.remember_card(chat_id, pressed.card_id, message_id)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log the failure (never the message) and tell the person something went wrong."""
        update_id = update.update_id if isinstance(update, Update) else None
        reference = new_reference()
        log.error("telegram update %s failed, reference %s: %s", update_id, reference, type(context.error).__name__,
                  exc_info=context.error)
        if isinstance(update, Update):
            self.inbox.in_flight.finished(str(update.update_id))
            await guarded(f"telling chat about a failed update {update_id}",
                          lambda: self._tell(update, "transport.failed", reference))

    async def _tell(self, update: Update, key: str, reference: str) -> None:
        if update.effective_chat is None:
            return
        try:
            lang = self._lang_of(update.effective_user.id) if update.effective_user else "en"
        except Exception:  # the database is down: the apology goes out in English
            lang = "en"
        await self.sender.send(update.effective_chat.id, [Reply(text=text(lang, key, reference=reference))])
