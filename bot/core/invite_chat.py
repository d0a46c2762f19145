"""Invites in chat: a stranger joins with a code (Telegram's `/start <code>` from a deep link, or `join <code>`),
and an admin makes a code with `/invite ROLE [name]` to forward.

A code that is not live (mistyped, expired, used) is refused politely and nothing of the sender is kept: the
refusal is decided before the intake store sees the message, and answered at most once a minute per sender.
Codes are checked at most five times per sender in fifteen minutes (and a bounded number of times overall):
attempts past that are not looked up at all. A
registered person's code is never redeemed (one sender is one person): they are told so, and the code stays
unused for the person it was meant for.
"""

import logging
import re
from datetime import datetime, timezone

from bot.services.i18n import text
from bot.store.invites import InviteRequest, InviteStore, normalise_code, pack_for, telegram_link, whatsapp_link
from bot.core.messages import Incoming, Reply
from bot.core.registry import Registry, User
from bot.settings import Settings
from bot.store import Database
from bot.core.strangers import AttemptLimiter, StrangerGate
from memory.asof import IST

log = logging.getLogger(__name__)

_CARRIES_CODE = re.compile(r"^\s*(?:/start(?:@\w+)?|join)\s+(\S.{0,40})$", re.IGNORECASE | re.DOTALL)
ROLES = ("admin", "officer", "lawyer", "clerk")


def code_in(incoming: Incoming) -> str | None:
    """What a message offers as an invite code, or None when it offers none."""
    if incoming.transport not in ("telegram", "whatsapp") or not incoming.text or incoming.media is not None:
        return None
    match = _CARRIES_CODE.match(incoming.text)
    return match.group(1).strip() if match else None


def offers_code(body: str | None) -> bool:
    """Whether a text is a code offer ("join CODE", "/start CODE" with a code-shaped CODE): transports keep no
    raw copy of one, whoever sends it, so a code never sits in the inbox."""
    match = _CARRIES_CODE.match(body or "")
    return match is not None and normalise_code(match.group(1)) is not None


def _address(incoming: Incoming) -> str:
    return incoming.sender.removeprefix("whatsapp:") if incoming.transport == "whatsapp" else incoming.sender


class Invitations:
    """Redeems codes for strangers and makes them for admins; one instance per running conversation."""

    def __init__(self, database: Database, registry: Registry, settings: Settings) -> None:
        self.store = InviteStore(database)
        self._registry = registry
        self._settings = settings
        self.telegram_username: str | None = settings.telegram_bot_username
        """Set by the Telegram transport from getMe when the settings do not name the bot."""
        self.refusals = StrangerGate(answer_every_s=60.0)
        self.attempts = AttemptLimiter()

    def offered(self, incoming: Incoming, user: User | None) -> list[Reply] | None:
        """Answer a message that offers a code; None when it should be handled as usual (a registered person
        whose "code" names no invite, e.g. a plain /start)."""
        said = code_in(incoming)
        if said is None:
            return None
        if user is not None:
            return self._registered(user, said)
        if incoming.transport == "telegram" and not incoming.sender.isdigit():
            return []
        if not self.attempts.allow(incoming.transport, incoming.sender):
            # Over the bound: the code is not even looked up, so guessing codes gains nothing.
            log.info("a join attempt over the limit was not checked")
            if not self.refusals.refuse(incoming.transport, incoming.sender):
                return []
            return [Reply(text=text("en", "join.too_many_attempts"))]
        joined = self.store.redeem(said, incoming.transport, _address(incoming))
        if joined is None:
            if not self.refusals.refuse(incoming.transport, incoming.sender):
                return []
            return [Reply(text=text("en", "join.refused"))]
        self._registry.refresh()
        return [Reply(text=text(joined.lang, "join.welcome", name=joined.name, tenant=joined.tenant,
                                role=text(joined.lang, f"join.role_{joined.role}"),
                                pack_name=text(joined.lang, f"core.pack_{joined.pack}")))]

    def _registered(self, user: User, said: str) -> list[Reply] | None:
        invite = self.store.find(said)
        if invite is None:
            return None
        key = "join.already_member" if invite.tenant == user.tenant else "join.other_tenant"
        log.info("a registered person offered invite %s; not redeemed", invite.ref)
        return [Reply(text=text(user.lang, key, name=user.name))]

    def invite(self, user: User, lang: str, transport: str, args: str) -> list[Reply]:
        """Answer `/invite ROLE [name]` from an admin: the link or the `join` text to forward."""
        if user.role != "admin":
            return [Reply(text=text(lang, "join.admins_only"))]
        role, _, name = args.strip().partition(" ")
        role = role.lower()
        if role not in ROLES:
            return [Reply(text=text(lang, "join.invite_usage"))]
        request = InviteRequest(tenant=user.tenant, role=role, pack=pack_for(role, None) or user.pack,  # type: ignore[arg-type]
                                name=name.strip() or None)
        issued = self.store.create(request, created_by=user.user_id)
        until = issued.invite.expires_at.astimezone(IST)
        made = text(lang, "join.invite_made", role=text(lang, f"join.role_{role}"),
                    pack_name=text(lang, f"core.pack_{request.pack}"), until=f"{until:%d %b %Y %H:%M}")
        return [Reply(text=made), Reply(text=self._forwardable(lang, transport, issued.code), secret=True)]

    def revoke(self, user: User, lang: str, args: str) -> list[Reply]:
        """Answer `/revoke REF` from an admin: the tenant's open invite with that ref stops working; without a
        ref, the open invites and their refs."""
        if user.role != "admin":
            return [Reply(text=text(lang, "join.admins_only"))]
        ref = args.strip().split(" ")[0] if args.strip() else ""
        if not ref:
            now = datetime.now(timezone.utc)
            open_ = [i for i in self.store.invites(user.tenant) if i.live(now)]
            if not open_:
                return [Reply(text=text(lang, "join.revoke_none"))]
            lines = [text(lang, "join.revoke_usage")]
            lines += [f"{i.ref}  {text(lang, f'join.role_{i.role}')}  {i.name or '-'}" for i in open_]
            return [Reply(text="\n".join(lines))]
        revoked = self.store.revoke(user.tenant, ref)
        if revoked is None:
            return [Reply(text=text(lang, "people.revoke_unknown", ref=ref, tenant=user.tenant))]
        log.info("invite %s revoked in chat by %s", revoked.ref, user.user_id)
        return [Reply(text=text(lang, "people.revoked", ref=revoked.ref, role=revoked.role, tenant=user.tenant))]

    def _forwardable(self, lang: str, transport: str, code: str) -> str:
        if transport == "telegram" and self.telegram_username:
            return text(lang, "join.forward_telegram", link=telegram_link(self.telegram_username, code))
        if transport == "whatsapp" and self._settings.twilio_whatsapp_from:
            return text(lang, "join.forward_whatsapp", code=code,
                        link=whatsapp_link(self._settings.twilio_whatsapp_from, code))
        return text(lang, "join.forward_code", code=code)
