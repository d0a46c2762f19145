"""Sending to WhatsApp through the Twilio REST API: numbered buttons, images by public URL, the 24-hour window.

WhatsApp has no inline buttons for free-form messages, so a reply's buttons become numbered lines and the last
set sent to each number is remembered in the state store: a reply "2" then means that second button.
Outside the 24-hour customer-service window WhatsApp only delivers approved templates.
"""

import asyncio
import json
import logging
import secrets
import shutil
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

import requests
from pydantic import BaseModel, TypeAdapter
from twilio.base.exceptions import TwilioException, TwilioRestException
from twilio.rest import Client

from bot.services.i18n import text
from bot.core.messages import Button, Reply
from bot.core.outbound import Purpose
from bot.core.registry import User
from bot.core.reply_delivery import SendFailed
from bot.store.reply_outbox import ReplyOutbox, outgoing
from bot.settings import Settings
from bot.store.state import StateStore
from bot.transports.chat_text import split_text

log = logging.getLogger(__name__)

WHATSAPP_TEXT_LIMIT = 1600
"""Twilio's limit on one WhatsApp message body."""
TEMPLATE_VARIABLE_LIMIT = 1000
SESSION_WINDOW = timedelta(hours=24)
MEDIA_ROUTE = "/whatsapp/media"
STATUS_ROUTE = "/whatsapp/status"
OUTSIDE_WINDOW = "63016"
"""Twilio's error code for a free-form message sent outside the 24-hour window."""
_BUTTONS = TypeAdapter(list[Button])


def number_key(number: str) -> str:
    return f"whatsapp:{number}"


class WhatsAppNotConfigured(ValueError):
    """A Twilio setting is missing; the message names it."""


class TwilioConfig(BaseModel):
    account_sid: str
    auth_token: str
    sender: str
    """The bot's own WhatsApp address, `whatsapp:+14155238886`."""
    public_base_url: str
    base_url: str | None = None
    template_sid: str | None = None
    secondary_auth_token: str | None = None
    """During a token rotation, the other token Twilio may still sign with (TWILIO_AUTH_TOKEN_SECONDARY)."""

    @property
    def auth_tokens(self) -> list[str]:
        """Every token a webhook signature may be made with; the REST API always uses `auth_token`."""
        return [self.auth_token, *([self.secondary_auth_token] if self.secondary_auth_token else [])]

    @classmethod
    def from_settings(cls, settings: Settings) -> "TwilioConfig":
        missing = [name for name, value in (
            ("TWILIO_ACCOUNT_SID", settings.twilio_account_sid), ("TWILIO_AUTH_TOKEN", settings.twilio_auth_token),
            ("TWILIO_WHATSAPP_FROM", settings.twilio_whatsapp_from),
            ("SMRITI_PUBLIC_BASE_URL", settings.public_base_url)) if not value]
        if missing:
            raise WhatsAppNotConfigured(f"missing {', '.join(missing)}")
        assert settings.twilio_auth_token and settings.twilio_whatsapp_from and settings.public_base_url
        sender = settings.twilio_whatsapp_from
        return cls(account_sid=settings.twilio_account_sid or "",
                   auth_token=settings.twilio_auth_token.get_secret_value(),
                   sender=sender if sender.startswith("whatsapp:") else f"whatsapp:{sender}",
                   public_base_url=settings.public_base_url.rstrip("/"), base_url=settings.twilio_base_url,
                   template_sid=settings.twilio_followup_template_sid,
                   secondary_auth_token=settings.twilio_auth_token_secondary.get_secret_value()
                   if settings.twilio_auth_token_secondary else None)


class SessionWindow:
    """When each number last wrote to the bot, kept in the state store (it must survive restarts)."""

    def __init__(self, state: StateStore, clock: Callable[[], datetime]) -> None:
        self.state = state
        self.clock = clock

    def record_inbound(self, number: str, user_id: str) -> None:
        self.state.set_pref(number_key(number), "last_inbound", self.clock().isoformat())
        self.state.set_pref(user_id, "whatsapp_number", number)

    def number_for(self, user: User) -> str | None:
        """The number the person last wrote from, else the first registered one."""
        last = self.state.pref(user.user_id, "whatsapp_number")
        if last and last in user.whatsapp_numbers:
            return last
        return user.whatsapp_numbers[0] if user.whatsapp_numbers else None

    def is_open(self, number: str) -> bool:
        value = self.state.pref(number_key(number), "last_inbound")
        return value is not None and self.clock() - datetime.fromisoformat(value) < SESSION_WINDOW


class RememberedButtons:
    """The buttons of the latest message sent to each number, so that a reply "1".."9" can press one."""

    def __init__(self, state: StateStore) -> None:
        self.state = state

    def remember(self, number: str, buttons: list[Button]) -> None:
        self.state.set_pref(number_key(number), "buttons", _BUTTONS.dump_json(buttons).decode())

    def latest(self, number: str) -> list[Button]:
        value = self.state.pref(number_key(number), "buttons")
        return _BUTTONS.validate_json(value) if value else []


def numbered(reply: Reply, lang: str) -> str:
    """The reply's text with its buttons as numbered lines."""
    buttons = reply.flat_buttons()
    if not buttons:
        return reply.text
    options = [f"{number}. {button.label}" for number, button in enumerate(buttons, 1)]
    return "\n".join([reply.text, "", text(lang, "transport.numbered_hint"), *options])


class TwilioSender:
    """Sends replies to a WhatsApp number; the blocking Twilio client runs in a worker thread."""

    def __init__(self, config: TwilioConfig, state: StateStore, outgoing_dir: Path) -> None:
        self.config = config
        self.buttons = RememberedButtons(state)
        self.outgoing_dir = outgoing_dir
        self.client = Client(config.account_sid, config.auth_token)
        if config.base_url:
            self.client.api.base_url = config.base_url.rstrip("/")

    async def _create(self, **fields: object) -> str:
        """Create one message; Twilio calls back STATUS_ROUTE as it is delivered, or not."""
        message = await asyncio.to_thread(self.client.messages.create, from_=self.config.sender,
                                          status_callback=self.config.public_base_url + STATUS_ROUTE, **fields)
        return str(message.sid)

    def _publish(self, image: Path) -> str:
        """Copy an image where the web app serves it, under an unguessable name; return its public URL."""
        self.outgoing_dir.mkdir(parents=True, exist_ok=True)
        name = f"{secrets.token_hex(16)}{image.suffix.lower()}"
        shutil.copyfile(image, self.outgoing_dir / name)
        return f"{self.config.public_base_url}{MEDIA_ROUTE}/{name}"

    async def send_one(self, number: str, reply: Reply, lang: str) -> list[str]:
        """Send one reply (split at the length limit); return the message SIDs."""
        pieces = split_text(numbered(reply, lang), WHATSAPP_TEXT_LIMIT)
        attached = reply.image or reply.document
        first: dict[str, object] = {"media_url": [self._publish(attached)]} if attached else {}
        return [await self._create(to=f"whatsapp:{number}", body=piece, **(first if index == 0 else {}))
                for index, piece in enumerate(pieces)]

    def remember_buttons(self, number: str, replies: Sequence[Reply]) -> None:
        with_buttons = [r for r in replies if r.buttons]
        # Numbers always refer to the latest message: a reply without buttons makes "2" plain text again.
        self.buttons.remember(number, with_buttons[-1].flat_buttons() if with_buttons else [])

    async def send(self, number: str, replies: list[Reply], lang: str, remember: bool = True) -> list[str]:
        """Send each reply; remember the buttons of the last one that had any; return the message SIDs.

        `remember=False` is for the transport's own notes (such as "no option 7"), which leave the numbers as they were.
        """
        sids = [sid for reply in replies for sid in await self.send_one(number, reply, lang)]
        if remember:
            self.remember_buttons(number, replies)
        return sids

    async def send_template(self, number: str, body: str) -> str:
        """Send the approved follow-up template with the message as its single variable {{1}}; return its SID."""
        assert self.config.template_sid
        # Template variables may not hold newlines or runs of spaces.
        flat = " ".join(body.split())[:TEMPLATE_VARIABLE_LIMIT]
        sid = await self._create(to=f"whatsapp:{number}", content_sid=self.config.template_sid,
                                 content_variables=json.dumps({"1": flat}, ensure_ascii=False))
        self.buttons.remember(number, [])
        return sid


def send_failed(exc: Exception) -> SendFailed:
    """A Twilio failure as the reply outbox sees it: a 5xx, 429 or no connection is worth a retry, a 4xx not."""
    if isinstance(exc, TwilioRestException):
        return SendFailed(f"Twilio {exc.status} (code {exc.code})", transient=exc.status >= 500 or exc.status == 429)
    return SendFailed(type(exc).__name__, transient=True)


class WhatsAppReplyChannel:
    """Sends reply-outbox rows to a WhatsApp number: free-form inside the 24-hour window, else the template."""

    def __init__(self, sender: TwilioSender, window: SessionWindow, language_of: Callable[[User], str]) -> None:
        self.sender = sender
        self.window = window
        self.language_of = language_of

    async def send_reply(self, user: User | None, address: str, reply: Reply, batch: Sequence[Reply]) -> list[str]:
        number = address.removeprefix("whatsapp:")
        try:
            if self.window.is_open(number):
                sids = await self.sender.send_one(number, reply, self.language_of(user) if user else "en")
                if batch and reply is batch[-1]:
                    self.sender.remember_buttons(number, batch)
                return sids
            if self.sender.config.template_sid:
                return [await self.sender.send_template(number, reply.text)]
        except (TwilioException, requests.RequestException, OSError) as exc:
            raise send_failed(exc) from exc
        raise SendFailed("outside the 24-hour window and SMRITI_TWILIO_FOLLOWUP_TEMPLATE_SID is not set",
                         transient=False)


class WhatsAppNotifier:
    """Unprompted messages: free-form inside the 24-hour window, the approved template outside it."""

    def __init__(self, sender: TwilioSender, window: SessionWindow, language_of: Callable[[User], str],
                 outbox: ReplyOutbox, owner: str) -> None:
        self.sender = sender
        self.window = window
        self.language_of = language_of
        self.outbox = outbox
        self.owner = owner

    def _record(self, user: User, number: str, replies: list[Reply], purpose: Purpose,
                sids: list[list[str]]) -> None:
        """Keep what was sent in the reply outbox with its SIDs, so Twilio's status callback can tell whether it
        was delivered (a follow-up outside the window is not, and must not count as asked)."""
        rows = outgoing(f"notice:{uuid.uuid4().hex}", user.user_id, "whatsapp", number, replies, purpose)
        self.outbox.keep(rows, self.owner, timedelta(0))
        for row in rows:
            self.outbox.mark_sent(row, sids[row.position] if row.position < len(sids) else [])

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        number = self.window.number_for(user)
        if number is None:
            return False
        try:
            if self.window.is_open(number):
                lang = self.language_of(user)
                sids = [await self.sender.send_one(number, reply, lang) for reply in replies]
                self.sender.remember_buttons(number, replies)
                self._record(user, number, replies, purpose, sids)
                return True
            if self.sender.config.template_sid:
                sid = await self.sender.send_template(number, "\n".join(r.text for r in replies))
                joined = [Reply(text="\n".join(r.text for r in replies))]
                self._record(user, number, joined, purpose, [[sid]])
                log.info("sent a %s to %s with the template (outside the 24-hour window)", purpose, user.user_id)
                return True
        except TwilioException as exc:
            log.warning("whatsapp %s to %s failed: %s", purpose, user.user_id, type(exc).__name__)
            return False
        log.warning("cannot send a %s to %s on whatsapp: their last message is more than 24 hours old and "
                    "SMRITI_TWILIO_FOLLOWUP_TEMPLATE_SID is not set", purpose, user.user_id)
        return False
