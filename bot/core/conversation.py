"""The conversation core: every transport hands it an Incoming and sends back the Replies it returns.

It checks who is speaking (a stranger with a live invite code joins; other strangers are refused, nothing
stored, and answered at most once an hour), refuses input over the limits before storing anything (text
length, file size, a voice note's stated length), records every delivery in the durable intake store before
any external call (a duplicate delivery is dropped), answers the shared commands (and an admin's /invite and
/import), finishes a pending card edit, and otherwise routes to the person's pack. A transient failure (Groq or
Hindsight down) keeps the item for the IntakeWorker to retry; a permanent one (bad input, a refused memory, a
bug) fails it at once with a reference the person and the operator share.
The replies to a recorded item are kept in the reply outbox in the same transaction that finishes the item;
the transport then delivers them (`services.replies.deliver`), and the worker sends any a crash left behind.
While an item is processed its lease is renewed, so no other worker takes it however long a call takes.
"""

import asyncio
import logging
from datetime import datetime

from pydantic import BaseModel

from bot.store.grants import grants_for
from bot.services.audio import AudioRejected, check_voice
from bot.core.chat_import import ChatImports, is_import_callback
from bot.transports.chat_text import split_command, too_large
from bot.core.errors import InputRejected, SpeechUnavailable, is_transient, new_reference
from bot.services.i18n import LANGUAGES, show_date, text
from bot.core.invite_chat import Invitations
from bot.core.metrics import RETRIES, MessageOutcome, handling
from bot.core.messages import Incoming, Reply
from bot.services.registers.kinds import RegisterKind
from bot.store.reply_outbox import intake_key, outgoing
from bot.store.leases import heartbeat
from bot.core.registry import User
from bot.core import subject_chat
from bot.core.web_chat import web_link
from bot.core.strangers import StrangerGate
from bot.store.stranger_answers import StrangerAnswers
from bot.core import cards
from bot.core.intake import IntakeItem
from bot.core.pack import CommandInfo, Pack, Services, Turn
from memory import MemoryLayerError
from memory.asof import IST

log = logging.getLogger(__name__)

SHARED_COMMANDS = [
    CommandInfo(command="start", description_key="commands.start"),
    CommandInfo(command="help", description_key="commands.help"),
    CommandInfo(command="memory", description_key="commands.memory"),
    CommandInfo(command="lang", description_key="commands.lang"),
    CommandInfo(command="pending", description_key="commands.pending"),
]
NO_MEMORY_COMMANDS = frozenset({"start", "help", "lang", "pending", "invite", "import", "web", "revoke"})
"""Shared commands answered from the bot's own records: the person's bank is prepared on the next message that
may need memory, so a first /help does not wait for the memory server."""
ADMIN_COMMANDS = [
    CommandInfo(command="invite", description_key="commands.invite"),
    CommandInfo(command="import", description_key="commands.import"),
    CommandInfo(command="revoke", description_key="commands.revoke"),
    CommandInfo(command="web", description_key="commands.web"),
    CommandInfo(command="forget", description_key="commands.forget"),
    CommandInfo(command="export", description_key="commands.export"),
]


def show_sent(lang: str, when: datetime) -> str:
    """When something was sent, as the person reads it: 4 Dec 2026 10:32 (India time)."""
    local = when.astimezone(IST)
    return f"{show_date(lang, local.date())} {local:%H:%M}"


class Answer(BaseModel):
    """What the core answers to one delivery; `key` names its replies in the reply outbox (None when they are
    not kept: a refusal before anything was stored, a duplicate)."""

    replies: list[Reply]
    key: str | None = None
    shown: bool = False
    """The replies under `key` are already recorded as sent (the caller shows them itself)."""

    def unkept(self) -> list[Reply]:
        """The replies the transport sends itself: all of them when none are kept, else the secret ones."""
        return [r for r in self.replies if r.secret] if self.key is not None else self.replies


class Conversation:
    """Routes each Incoming to the right place; one instance serves every transport."""

    def __init__(self, services: Services, packs: dict[str, Pack],
                 kinds: dict[str, RegisterKind] | None = None) -> None:
        self.services = services
        self.packs = packs
        self._ready_banks: set[str] = set()
        self._in_flight: set[str] = set()
        """Intake items being processed in this process now."""
        self._grants = grants_for(services.database)
        self.strangers = StrangerGate(shared=StrangerAnswers(services.database))
        self.invitations = Invitations(services.database, services.registry, services.settings)
        self.imports = ChatImports(services.database, kinds or {}, services.settings.bank_prefix)

    async def _ensure_bank(self, user: User) -> None:
        bank = self.services.bank_for(user)
        if bank not in self._ready_banks:
            await self.services.memory.ensure_bank(self.packs[user.pack].bank_profile(bank))
            self._ready_banks.add(bank)

    @staticmethod
    def _database_only(pack: Pack, command: str) -> bool:
        """Whether a command is answered from the database alone: the shared ones and a pack's listings."""
        return command in NO_MEMORY_COMMANDS or any(
            c.command == command and not c.reads_memory for c in pack.commands())

    def language_of(self, user: User) -> str:
        return self.services.state.pref(user.user_id, "lang") or user.lang

    def commands_for(self, pack: str, role: str | None = None) -> list[CommandInfo]:
        return SHARED_COMMANDS + self.packs[pack].commands() + (ADMIN_COMMANDS if role == "admin" else [])

    async def handle(self, incoming: Incoming) -> list[Reply]:
        """Answer one delivery for a caller that shows the replies itself (the console, tests): they are
        recorded as sent. Transports use `answer` and deliver through the reply outbox."""
        answer = await self.answer(incoming, shown=True)
        if answer.key is not None and not answer.shown:
            self.services.replies.settle_shown(answer.key)
        return answer.replies

    async def answer(self, incoming: Incoming, shown: bool = False) -> Answer:
        """Answer one delivery: refuse strangers and input over the limits, record it durably, drop a duplicate,
        then process it. Its replies wait in the reply outbox under the answer's key; `shown`: the caller shows
        them itself, so they are kept as sent with the finished item."""
        kind = incoming.media.kind if incoming.media else ("button" if incoming.callback else "text")
        with handling(incoming.transport, incoming.delivery_id, kind) as outcome:
            return await self._answer(incoming, outcome, shown)

    async def _answer(self, incoming: Incoming, outcome: MessageOutcome, shown: bool) -> Answer:
        user = self.services.registry.lookup(incoming.transport, incoming.sender)
        offered = self.invitations.offered(incoming, user)
        if offered is not None:
            # A code offer is answered before anything is recorded: a refused sender leaves nothing behind.
            outcome.outcome = "invite"
            return Answer(replies=offered)
        if user is None:
            outcome.outcome = "stranger"
            if not self.strangers.refuse(incoming.transport, incoming.sender):
                return Answer(replies=[])
            return Answer(replies=[Reply(text=text("en", "core.not_registered"))])
        outcome.pack, outcome.tenant, outcome.user_id = user.pack, user.tenant, user.user_id
        refusal = await self._over_limits(user, incoming)
        if refusal is not None:
            outcome.outcome = "refused"
            return Answer(replies=[refusal])
        recorded = self.services.intake.record(incoming, user.user_id)
        outcome.intake_id = recorded.item.intake_id
        if not recorded.is_new:
            return self._seen_before(recorded.item, user, incoming, outcome) or \
                await self.process(recorded.item, user, outcome=outcome, shown=shown)
        return await self.process(recorded.item, user, outcome=outcome, shown=shown)

    def _seen_before(self, item: IntakeItem, user: User, incoming: Incoming,
                     outcome: MessageOutcome) -> Answer | None:
        """A delivery recorded before. None when it is this process's own item that an outage interrupted
        (the database went away mid-way) and nothing here works on it now: it is processed again. An item
        answered whose replies could not be sent has them delivered; anything else is a duplicate, dropped."""
        mine = item.owner == self.services.intake.owner and item.intake_id not in self._in_flight
        if mine and item.state in ("received", "processing"):
            return None
        outcome.outcome = "duplicate"
        if item.state == "answered" and item.intake_id not in self._in_flight:
            return Answer(replies=[], key=intake_key(item.intake_id))
        log.info("dropped duplicate delivery %s on %s", incoming.delivery_id, incoming.transport)
        return Answer(replies=[])

    async def process(self, item: IntakeItem, user: User, recovered: bool = False,
                      outcome: MessageOutcome | None = None, shown: bool = False) -> Answer:
        """Process a recorded item and keep its replies; if a service it needs is down, keep the item for a
        retry and say so. `recovered`: its earlier owner is gone, so the person is told it is handled now."""
        outcome = outcome or MessageOutcome(transport=item.incoming.transport, delivery_id=item.incoming.delivery_id)
        if item.intake_id in self._in_flight:
            outcome.outcome = "duplicate"
            return Answer(replies=[])
        self._in_flight.add(item.intake_id)
        try:
            return await self._process(item, user, recovered, outcome, shown)
        finally:
            self._in_flight.discard(item.intake_id)

    async def _process(self, item: IntakeItem, user: User, recovered: bool, outcome: MessageOutcome,
                       shown: bool) -> Answer:
        intake = self.services.intake
        if not intake.claim(item):
            outcome.outcome = "duplicate"
            return Answer(replies=[])
        try:
            async with heartbeat(lambda: intake.renew(item.intake_id), intake.lease):
                replies = self._bounded(user, await self._refused_or_routed(user, item.incoming))
        except SpeechUnavailable as exc:
            # A voice note no engine could transcribe: kept with its time, never given up.
            log.warning("held intake %s for speech: %s", item.intake_id, exc)
            outcome.outcome = "held"
            held = intake.hold(item.intake_id, str(exc), exc.retry)
            # Told once: a retry that fails again says nothing new (the result, when there is one, is sent).
            return self._notice(item, [self._held_reply(user, held)]) if held.attempts <= 1 else Answer(replies=[])
        except Exception as exc:
            if is_transient(exc):
                log.warning("kept intake %s for later: %s: %s", item.intake_id, type(exc).__name__, exc)
                kept = intake.postpone(item.intake_id, f"{type(exc).__name__}: {exc}")
                RETRIES.labels("intake").inc()
                outcome.outcome = "kept"
                if kept.state != "failed" and kept.attempts > 1:
                    return Answer(replies=[])  # told when first kept; told again when processed or given up
                return self._notice(item, [self._kept_reply(user, kept)])
            reference = new_reference()
            log.error("intake %s failed for good, reference %s", item.intake_id, reference, exc_info=exc)
            intake.fail(item.intake_id, f"[ref {reference}] {type(exc).__name__}: {str(exc)[:300]}")
            failed = Reply(text=text(self.language_of(user), "core.failed_with_reference", reference=reference))
            outcome.outcome = "failed"
            return self._notice(item, [failed])
        if recovered:
            lang = self.language_of(user)
            replies = [Reply(text=text(lang, "core.handled_after_restart", sent=show_sent(lang, item.received_at))),
                       *replies]
        key = intake_key(item.intake_id)
        to_keep = [r for r in replies if not r.secret]
        intake.finish(item.intake_id, outgoing(key, user.user_id, item.incoming.transport, item.incoming.sender,
                                               to_keep), self.services.replies.lease, shown=shown)
        outcome.outcome = "answered"
        return Answer(replies=replies, key=key if to_keep else None, shown=shown)

    def _notice(self, item: IntakeItem, replies: list[Reply]) -> Answer:
        """Keep a notice about an attempt (kept, held, failed) in the reply outbox, once per attempt."""
        attempt = (self.services.intake.get(item.intake_id) or item).attempts
        key = f"notice:{item.intake_id}:{attempt}"
        self.services.replies.outbox.keep(
            outgoing(key, item.user_id, item.incoming.transport, item.incoming.sender, replies, purpose="notice"),
            self.services.replies.owner, self.services.replies.lease)
        return Answer(replies=replies, key=key)

    async def _refused_or_routed(self, user: User, incoming: Incoming) -> list[Reply]:
        """Route the message; input a pack found unusable (too long, too many entries, unreadable) is answered
        with the reason, and the item is done: the same input would give the same answer, so it is never retried."""
        try:
            return await self._route(user, incoming)
        except InputRejected as exc:
            log.info("refused a %s from %s: %s", "file" if incoming.media else "message", user.user_id, exc)
            return [Reply(text=text(self.language_of(user), "core.input_rejected", reason=str(exc)))]

    def _bounded(self, user: User, replies: list[Reply]) -> list[Reply]:
        """The replies, or one refusal when a pack made more than one message may get (a backstop: packs
        refuse an oversized document before making its cards)."""
        limit = self.services.settings.max_replies_per_message
        if len(replies) <= limit:
            return replies
        log.warning("refused %s replies to one message (limit %s)", len(replies), limit)
        return [Reply(text=text(self.language_of(user), "core.too_many_replies", count=len(replies), limit=limit))]

    async def _over_limits(self, user: User, incoming: Incoming) -> Reply | None:
        """The refusal for input over a limit, decided before it is stored or anything is decoded; else None."""
        settings = self.services.settings
        lang = self.language_of(user)
        body = (incoming.text or "").strip()
        if len(body) > settings.max_text_chars:
            log.info("refused a text of %s characters (limit %s)", len(body), settings.max_text_chars)
            return Reply(text=text(lang, "core.text_too_long", length=len(body), limit=settings.max_text_chars))
        media = incoming.media
        if media is None:
            return None
        size = media.path.stat().st_size if media.path.exists() else media.size_bytes
        if size > settings.max_media_bytes:
            log.info("refused a %s of %s bytes (limit %s)", media.kind, size, settings.max_media_bytes)
            return too_large(lang, size, settings.max_media_bytes)
        if media.kind in ("voice", "audio"):
            try:
                await asyncio.to_thread(check_voice, media.path, settings.max_media_bytes,
                                        settings.max_voice_seconds)
            except AudioRejected as exc:
                log.info("refused a %s before decoding it: %s", media.kind, exc)
                return Reply(text=text(lang, "core.voice_rejected", reason=str(exc)))
        return None

    def _kept_reply(self, user: User, item: IntakeItem) -> Reply:
        key = "core.kept_gave_up" if item.state == "failed" else "core.kept_for_retry"
        return Reply(text=text(self.language_of(user), key))

    def _held_reply(self, user: User, item: IntakeItem) -> Reply:
        lang = self.language_of(user)
        sent = {"sent": show_sent(lang, item.received_at),
                "sent_day": show_date(lang, item.received_at.astimezone(IST).date())}
        if item.next_attempt_at is None:
            return Reply(text=text(lang, "core.kept_voice_no_engine", **sent))
        minutes = max(1, round((item.next_attempt_at - item.updated_at).total_seconds() / 60))
        return Reply(text=text(lang, "core.kept_voice_retry", minutes=minutes, **sent))

    def _pending(self, turn: Turn) -> list[Reply]:
        """Answer /pending: how many of the person's messages are kept, and what each waits for."""
        kept = self.services.intake.unprocessed_for(turn.user.user_id)
        if not kept:
            return [Reply(text=turn.t("core.pending_none"))]
        lines = [turn.t("core.pending_header", count=len(kept))]
        for item in kept:
            media = item.incoming.media
            kind = ("voice" if media.kind in ("voice", "audio") else "media") if media else \
                ("button" if item.incoming.callback else "text")
            lines.append(turn.t("core.pending_item", kind=turn.t(f"core.pending_kind_{kind}"),
                                sent=show_sent(turn.lang, item.received_at),
                                status=turn.t(f"core.pending_status_{item.state}")))
        return [Reply(text="\n".join(lines))]

    async def _route(self, user: User, incoming: Incoming) -> list[Reply]:
        self.services.outbound.remember_transport(user, incoming.transport)
        pack = self.packs[user.pack]
        user = pack.user_in_pack(self._grants.effective(user))
        body = (incoming.text or "").strip()
        command = split_command(body) if incoming.callback is None else None
        if command is None or not self._database_only(pack, command[0]):
            try:
                await self._ensure_bank(user)
            except MemoryLayerError:
                log.warning("could not prepare bank for %s; continuing without it", user.user_id)
        turn = Turn(user=user, incoming=incoming, services=self.services, lang=self.language_of(user))
        if incoming.callback is not None:
            if is_import_callback(incoming.callback):
                return await self.imports.on_callback(turn, incoming.callback)
            if cards.is_card_callback(incoming.callback):
                return await cards.on_callback(turn, pack.card_specs(user.tenant), incoming.callback)
            if subject_chat.is_subject_callback(incoming.callback):
                return await subject_chat.on_callback(turn, self.packs, incoming.callback)
            return await pack.on_callback(turn, incoming.callback)
        if command is not None and incoming.media is None:
            return await self._command(turn, pack, *command)
        specs = pack.card_specs(user.tenant)
        earlier = cards.open_card_ids(turn)
        replies = await self._message(turn, pack, body)
        return replies + cards.earlier_unsaved(turn, specs, earlier, replies)

    async def _message(self, turn: Turn, pack: Pack, body: str) -> list[Reply]:
        """A message that is no command or button: a file, a field's new value, or what the pack reads."""
        incoming, specs = turn.incoming, pack.card_specs(turn.user.tenant)
        if incoming.media is not None:
            if self.imports.wants(turn):
                return await self.imports.on_file(turn, incoming.media)
            return await pack.on_media(turn, incoming.media)
        left_open = cards.edit_left_open(turn, specs, body)
        if left_open is not None:
            # A new note sent while a field waits is read as a note, never taken as the field's value.
            return [left_open, *await pack.on_text(turn, body)]
        edited = await cards.on_pending_edit(turn, specs, body)
        if edited is not None:
            return edited
        return await pack.on_text(turn, body)

    async def _memory_status(self, turn: Turn) -> str:
        """The latest memory calls, and what memory has not yet confirmed: saves waiting, background operations."""
        waiting = self.services.outbox.pending(turn.bank_id)
        lines = []
        if waiting:
            saving = sum(q.saving for q in waiting)
            lines.append(turn.t("core.memory_pending", saving=saving, queued=len(waiting) - saving))
        if self.services.settings.memory_uses_llm:
            try:
                running = await self.services.memory.pending_operations(turn.bank_id)
            except MemoryLayerError:
                running = []
            if running:
                kinds = ", ".join(sorted({o.kind or "?" for o in running}))
                lines.append(turn.t("core.memory_operations", count=len(running), kinds=kinds))
        if not await self.services.memory.health():
            # Never "ON" while Hindsight cannot be reached: what waits above is all that can be said.
            lines.append(turn.t("core.memory_unreachable"))
            return "\n".join(lines)
        log_ = self.services.memory.call_log
        if not log_.latest(1, turn.bank_id):
            lines.append(turn.t("core.memory_empty"))
        else:
            lines.append(f"{turn.t('core.memory_header', bank=turn.bank_id)}\n{log_.render(10, turn.bank_id)}")
        return "\n".join(lines)

    async def _command(self, turn: Turn, pack: Pack, command: str, args: str) -> list[Reply]:
        if command == "start":
            return [Reply(text=turn.t("core.welcome", name=turn.user.name,
                                      pack_name=turn.t(f"core.pack_{turn.user.pack}")))]
        if command == "help":
            lines = [turn.t("core.help_header")]
            lines += [f"/{c.command} - {turn.t(c.description_key)}"
                      for c in self.commands_for(turn.user.pack, turn.user.role)]
            lines += pack.help_examples(turn)
            return [Reply(text="\n".join(lines))]
        if command == "memory":
            return [Reply(text=await self._memory_status(turn))]
        if command == "lang":
            choice = args.strip().lower()
            if choice not in LANGUAGES:
                return [Reply(text=turn.t("core.lang_usage"))]
            self.services.state.set_pref(turn.user.user_id, "lang", choice)
            return [Reply(text=text(choice, "core.lang_set"))]
        if command == "pending":
            return self._pending(turn)
        if command == "invite":
            return self.invitations.invite(turn.user, turn.lang, turn.incoming.transport, args)
        if command == "import":
            return self.imports.command(turn, args)
        if command == "web":
            return web_link(turn)
        if command == "revoke":
            return self.invitations.revoke(turn.user, turn.lang, args)
        if command in subject_chat.COMMANDS:
            return await subject_chat.on_command(turn, self.packs, command, args)
        answered = await pack.on_command(turn, command, args)
        if answered is not None:
            return answered
        return [Reply(text=turn.t("core.unknown_command", command=f"/{command}"))]
