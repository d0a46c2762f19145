"""Sending Replies to a Telegram chat: split at the length limit, inline keyboards, photos, and cards edited in place.

The message id of each card is kept in the state store, so Save pressed after a restart still edits the card.
"""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ChatAction
from telegram.error import BadRequest, Forbidden, InvalidToken, NetworkError, RetryAfter, TelegramError

from bot.core.messages import Reply
from bot.core.outbound import Purpose
from bot.core.registry import User
from bot.core.reply_delivery import SendFailed
from bot.store.state import StateStore
from bot.transports.chat_text import TELEGRAM_CAPTION_LIMIT, TELEGRAM_TEXT_LIMIT, split_text

log = logging.getLogger(__name__)

CHAT_ACTION_EVERY_S = 4.0
"""Telegram shows a chat action for about five seconds; renew it just before it fades."""


def keyboard(reply: Reply) -> InlineKeyboardMarkup | None:
    if not reply.buttons:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(b.label, callback_data=b.data) for b in row] for row in reply.buttons]
    )


def _chat_key(chat_id: int) -> str:
    return f"telegram:{chat_id}"


class TelegramSender:
    """Sends a turn's replies to one chat and remembers which message shows which card."""

    def __init__(self, bot: Bot, state: StateStore) -> None:
        self.bot = bot
        self.state = state

    def card_message(self, chat_id: int, card_id: str) -> int | None:
        value = self.state.pref(_chat_key(chat_id), f"card:{card_id}")
        return int(value) if value else None

    def remember_card(self, chat_id: int, card_id: str, message_id: int) -> None:
        self.state.set_pref(_chat_key(chat_id), f"card:{card_id}", str(message_id))

    async def send(self, chat_id: int, replies: list[Reply]) -> None:
        for reply in replies:
            await self.send_one(chat_id, reply)

    async def send_one(self, chat_id: int, reply: Reply) -> None:
        if reply.document is not None:
            await self._send_document(chat_id, reply)
            return
        if reply.image is not None:
            await self._send_photo(chat_id, reply)
            return
        if reply.replaces_card and reply.card_id and await self._edit_card(chat_id, reply):
            return
        pieces = split_text(reply.text, TELEGRAM_TEXT_LIMIT)
        last: Message | None = None
        for index, piece in enumerate(pieces):
            markup = keyboard(reply) if index == len(pieces) - 1 else None
            last = await self.bot.send_message(chat_id=chat_id, text=piece, reply_markup=markup)
        if reply.card_id and last is not None:
            self.remember_card(chat_id, reply.card_id, last.message_id)

    async def _edit_card(self, chat_id: int, reply: Reply) -> bool:
        """Edit the card's message to its new state; False when it must be sent as a new message instead."""
        assert reply.card_id is not None
        message_id = self.card_message(chat_id, reply.card_id)
        if message_id is None or len(reply.text) > TELEGRAM_TEXT_LIMIT:
            return False
        try:
            await self.bot.edit_message_text(text=reply.text, chat_id=chat_id, message_id=message_id,
                                             reply_markup=keyboard(reply))
        except BadRequest as exc:
            if "not modified" in str(exc).lower():
                return True
            log.info("could not edit card %s in place (%s); sending it again", reply.card_id, type(exc).__name__)
            return False
        return True

    async def _send_document(self, chat_id: int, reply: Reply) -> None:
        assert reply.document is not None
        caption_fits = len(reply.text) <= TELEGRAM_CAPTION_LIMIT
        async with self.chat_action(chat_id, ChatAction.UPLOAD_DOCUMENT):
            with reply.document.open("rb") as document:
                await self.bot.send_document(chat_id=chat_id, document=document, filename=reply.document.name,
                                             caption=reply.text if caption_fits else None)
        if not caption_fits:
            await self.send_one(chat_id, reply.model_copy(update={"document": None, "replaces_card": False}))

    async def _send_photo(self, chat_id: int, reply: Reply) -> None:
        assert reply.image is not None
        caption_fits = len(reply.text) <= TELEGRAM_CAPTION_LIMIT
        async with self.chat_action(chat_id, ChatAction.UPLOAD_PHOTO):
            with reply.image.open("rb") as photo:
                sent = await self.bot.send_photo(chat_id=chat_id, photo=photo,
                                                 caption=reply.text if caption_fits else None,
                                                 reply_markup=keyboard(reply) if caption_fits else None)
        if caption_fits:
            if reply.card_id:
                self.remember_card(chat_id, reply.card_id, sent.message_id)
            return
        await self.send_one(chat_id, reply.model_copy(update={"image": None, "replaces_card": False}))

    @contextlib.asynccontextmanager
    async def chat_action(self, chat_id: int, action: str = ChatAction.TYPING) -> AsyncIterator[None]:
        """Show 'typing...' (or 'sending photo...') in the chat for as long as the block runs."""

        async def keep_showing() -> None:
            while True:
                try:
                    await self.bot.send_chat_action(chat_id=chat_id, action=action)
                except TelegramError as exc:
                    log.debug("chat action failed: %s", type(exc).__name__)
                await asyncio.sleep(CHAT_ACTION_EVERY_S)

        task = asyncio.create_task(keep_showing())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class TelegramNotifier:
    """Sends unprompted messages (follow-ups, notices) to a person's private chat with the bot."""

    def __init__(self, sender: TelegramSender) -> None:
        self.sender = sender

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        if not user.telegram_ids:
            return False
        # In a private chat the chat id is the user id.
        chat_id = user.telegram_ids[0]
        try:
            await self.sender.send(chat_id, replies)
        except Forbidden:
            log.warning("%s has blocked the bot or never started it; %s not sent on telegram", user.user_id, purpose)
            return False
        except TelegramError as exc:
            log.warning("telegram %s to %s failed: %s", purpose, user.user_id, type(exc).__name__)
            return False
        return True


class TelegramReplyChannel:
    """Sends reply-outbox rows to a Telegram chat: a 5xx, a timeout or flood control is worth a retry; a
    refusal (400 Bad Request, 403 blocked, a bad token) is not."""

    def __init__(self, sender: TelegramSender) -> None:
        self.sender = sender

    async def send_reply(self, user: User | None, address: str, reply: Reply, batch: Sequence[Reply]) -> list[str]:
        try:
            await self.sender.send_one(int(address), reply)
        except (BadRequest, Forbidden, InvalidToken) as exc:
            raise SendFailed(f"{type(exc).__name__}: {exc}", transient=False) from exc
        except (NetworkError, RetryAfter) as exc:  # NetworkError covers 5xx answers and timeouts
            raise SendFailed(f"{type(exc).__name__}: {exc}", transient=True) from exc
        except TelegramError as exc:
            raise SendFailed(f"{type(exc).__name__}: {exc}", transient=False) from exc
        return []
