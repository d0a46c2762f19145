"""The conversation core: every transport hands it an Incoming and sends back the Replies it returns.

It checks who is speaking (strangers are refused, nothing stored), records every delivery in the durable
intake store before any external call (a duplicate delivery is dropped), answers the shared commands,
finishes a pending card edit, and otherwise routes to the person's pack. When Groq or Hindsight is down the
item stays in the intake store and the IntakeWorker retries it later.
"""

import logging

from bot.access import grants_for
from bot.i18n import LANGUAGES, text
from bot.messages import Incoming, Reply
from bot.registry import User
from handlers import cards
from bot.intake import RETRYABLE, IntakeItem
from bot.llm import ChatUnavailable
from handlers.base import CommandInfo, Pack, Services, Turn
from memory import MemoryLayerError, MemoryUnavailable

log = logging.getLogger(__name__)

SHARED_COMMANDS = [
    CommandInfo(command="start", description_key="commands.start"),
    CommandInfo(command="help", description_key="commands.help"),
    CommandInfo(command="memory", description_key="commands.memory"),
    CommandInfo(command="lang", description_key="commands.lang"),
]


def split_command(body: str) -> tuple[str, str] | None:
    """Return (command, arguments) for `/cmd args` (also `/cmd@botname`), or None for plain text."""
    if not body.startswith("/"):
        return None
    head, _, rest = body.partition(" ")
    return head[1:].split("@", 1)[0].lower(), rest.strip()


class Conversation:
    """Routes each Incoming to the right place; one instance serves every transport."""

    def __init__(self, services: Services, packs: dict[str, Pack]) -> None:
        self.services = services
        self.packs = packs
        self._ready_banks: set[str] = set()
        self._grants = grants_for(services.database)

    async def _ensure_bank(self, user: User) -> None:
        bank = self.services.bank_for(user)
        if bank not in self._ready_banks:
            await self.services.memory.ensure_bank(self.packs[user.pack].bank_profile(bank))
            self._ready_banks.add(bank)

    def language_of(self, user: User) -> str:
        return self.services.state.pref(user.user_id, "lang") or user.lang

    def commands_for(self, pack: str) -> list[CommandInfo]:
        return SHARED_COMMANDS + self.packs[pack].commands()

    async def handle(self, incoming: Incoming) -> list[Reply]:
        """Answer one delivery: refuse strangers, record it durably, drop a duplicate, then process it."""
        user = self.services.registry.lookup(incoming.transport, incoming.sender)
        if user is None:
            log.info("refused a message from an unregistered %s sender", incoming.transport)
            return [Reply(text=text("en", "core.not_registered"))]
        recorded = self.services.intake.record(incoming, user.user_id)
        if not recorded.is_new:
            log.info("dropped duplicate delivery %s on %s", incoming.delivery_id, incoming.transport)
            return []
        return await self.process(recorded.item, user)

    async def process(self, item: IntakeItem, user: User) -> list[Reply]:
        """Process a recorded item; if a service it needs is down, keep it for a retry and say so."""
        if not self.services.intake.claim(item.intake_id, RETRYABLE, seen=item.updated_at):
            return []
        try:
            replies = await self._route(user, item.incoming)
        except (ChatUnavailable, MemoryUnavailable) as exc:
            log.warning("kept intake %s for later: %s", item.intake_id, exc)
            return [self._kept_reply(user, self.services.intake.postpone(item.intake_id, str(exc)))]
        except Exception as exc:
            log.exception("processing intake %s failed", item.intake_id)
            return [self._kept_reply(user, self.services.intake.postpone(item.intake_id, type(exc).__name__))]
        self.services.intake.finish(item.intake_id)
        return replies

    def _kept_reply(self, user: User, item: IntakeItem) -> Reply:
        key = "core.kept_gave_up" if item.state == "failed" else "core.kept_for_retry"
        return Reply(text=text(self.language_of(user), key))

    async def _route(self, user: User, incoming: Incoming) -> list[Reply]:
        self.services.outbound.remember_transport(user, incoming.transport)
        user = self._grants.effective(user)
        pack = self.packs[user.pack]
        try:
            await self._ensure_bank(user)
        except MemoryLayerError:
            log.warning("could not prepare bank for %s; continuing without it", user.user_id)
        turn = Turn(user=user, incoming=incoming, services=self.services, lang=self.language_of(user))
        if incoming.callback is not None:
            if cards.is_card_callback(incoming.callback):
                return await cards.on_callback(turn, pack.card_specs(), incoming.callback)
            return await pack.on_callback(turn, incoming.callback)
        if incoming.media is not None:
            return await pack.on_media(turn, incoming.media)
        body = (incoming.text or "").strip()
        if len(body) > self.services.settings.max_text_chars:
            return [Reply(text=turn.t("core.text_too_long", length=len(body),
                                      limit=self.services.settings.max_text_chars))]
        command = split_command(body)
        if command is not None:
            return await self._command(turn, pack, *command)
        edited = await cards.on_pending_edit(turn, pack.card_specs(), body)
        if edited is not None:
            return edited
        return await pack.on_text(turn, body)

    async def _command(self, turn: Turn, pack: Pack, command: str, args: str) -> list[Reply]:
        if command == "start":
            return [Reply(text=turn.t("core.welcome", name=turn.user.name,
                                      pack_name=turn.t(f"core.pack_{turn.user.pack}")))]
        if command == "help":
            lines = [turn.t("core.help_header")]
            lines += [f"/{c.command} - {turn.t(c.description_key)}" for c in self.commands_for(turn.user.pack)]
            return [Reply(text="\n".join(lines))]
        if command == "memory":
            log_ = self.services.memory.call_log
            if not log_.latest(1, turn.bank_id):
                return [Reply(text=turn.t("core.memory_empty"))]
            return [Reply(text=f"{turn.t('core.memory_header', bank=turn.bank_id)}\n"
                               f"{log_.render(10, turn.bank_id)}")]
        if command == "lang":
            choice = args.strip().lower()
            if choice not in LANGUAGES:
                return [Reply(text=turn.t("core.lang_usage"))]
            self.services.state.set_pref(turn.user.user_id, "lang", choice)
            return [Reply(text=text(choice, "core.lang_set"))]
        answered = await pack.on_command(turn, command, args)
        if answered is not None:
            return answered
        return [Reply(text=turn.t("core.unknown_command", command=f"/{command}"))]
