"""Assembling the running bot from Settings: memory, state, model clients, packs and the conversation core."""

import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from types import TracebackType

from bot.core.conversation import Conversation
from bot.core.intake import IntakeStore
from bot.core.metrics import observe_memory_call, observe_speech
from bot.store.legacy_state import import_legacy_state
from bot.services.ocr import ReadLimits, TextReader
from bot.core.outbound import Outbound
from bot.store.people import PeopleRegistry
from bot.cli.registers import all_kinds
from bot.core.registry import Registry
from bot.core.reply_delivery import ReplyDelivery
from bot.store.reply_outbox import ReplyOutbox
from bot.core.scheduler import FollowUpScheduler
from bot.core.subject_chat import exports_dir, prune_exports
from bot.settings import Settings
from bot.services.speech import build_speech
from bot.store.state import StateStore
from bot.store import Database, upgrade
from bot.store.subject_audit import import_legacy_audit
from bot.store.leases import Leases, ProcessOwner
from bot.core.pack import Pack, PackCatalog, Services, installed_packs
from memory import MemoryClient
from memory import local as local_memory
from memory.outbox import Outbox

log = logging.getLogger(__name__)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def open_database(settings: Settings, catalog: PackCatalog | None = None) -> Database:
    """Connect to the one database and bring its schema up to date (every served pack's tables too)."""
    database = Database(settings.database_url)
    upgrade(database, (catalog or installed_packs(settings)).migrations())
    return database


def load_packs(services: Services, catalog: PackCatalog, names: list[str] | None = None) -> dict[str, Pack]:
    """Build the named packs of the catalogue (default: all of them)."""
    return {entry.name: entry.create(services) for entry in catalog.select(names)}


@dataclass
class App:
    settings: Settings
    services: Services
    packs: dict[str, Pack]
    conversation: Conversation

    @classmethod
    async def start(
        cls,
        settings: Settings,
        start_local_memory: bool = True,
        registry: Registry | None = None,
        pack_names: list[str] | None = None,
        catalog: PackCatalog | None = None,
        run_followups: bool = True,
    ) -> "App":
        """Build everything; start the embedded memory server first when it is the one in use. The packs come
        from `catalog` (default: the one the settings name), only those in `pack_names` when given.
        `run_followups=False` for one-shot commands, which never send a due follow-up."""
        catalog = catalog or installed_packs(settings)
        if settings.uses_local_memory and start_local_memory:
            local_memory.start(settings.local_server)
        api_key = settings.hindsight_api_key.get_secret_value() if settings.hindsight_api_key else None
        memory = MemoryClient(settings.memory_url, api_key=api_key)
        memory.call_log.listeners.append(observe_memory_call)
        groq_key = settings.groq_api_key.get_secret_value() if settings.groq_api_key else None
        chat = None
        if groq_key:
            from bot.services.llm import ChatModel  # the Groq SDK loads only with a key

            chat = ChatModel(groq_key, settings.groq_chat_model, settings.groq_fallback_model,
                             base_url=settings.groq_base_url, timeout_s=settings.groq_timeout_s)
        speech = build_speech(settings)
        if speech is not None:
            observe_speech(speech)
        database = open_database(settings, catalog)
        moved = import_legacy_state(database, settings.state_dir)
        import_legacy_audit(database, settings.state_dir)
        prune_exports(exports_dir(settings.state_dir), _now())  # exports a stopped process left behind
        state = StateStore(database)
        registry = registry or PeopleRegistry(database)
        outbound = Outbound(state)
        scheduler = FollowUpScheduler(database, registry, outbound)
        owner = ProcessOwner.here()
        intake = IntakeStore(database, settings.state_dir / "intake-media", owner=owner)
        for followup_id in moved.followups_to_schedule:
            scheduler.reschedule(followup_id)
        services = Services(
            settings=settings,
            database=database,
            registry=registry,
            memory=memory,
            state=state,
            outbox=Outbox(database.engine, asynchronous=settings.memory_uses_llm),
            chat=chat,
            speech=speech,
            reader=TextReader(limits=ReadLimits(
                max_pages=settings.max_document_pages, max_scanned_pages=settings.max_scanned_pages,
                max_chars=settings.max_document_chars, max_seconds=settings.max_read_seconds)),
            scheduler=scheduler,
            clock=_now,
            outbound=outbound,
            intake=intake,
            replies=ReplyDelivery(ReplyOutbox(database), intake, registry, outbound),
            leases=Leases(database, owner),
        )
        packs = load_packs(services, catalog, pack_names)
        for pack in packs.values():
            scheduler.register(pack.name, pack.compose_followup)
        # Started after the packs' composers are known, so jobs missed while down find them.
        await scheduler.start(run_jobs=run_followups)
        conversation = Conversation(services, packs, all_kinds(catalog.packages()))
        return cls(settings=settings, services=services, packs=packs, conversation=conversation)

    async def ensure_banks(self, tenant: str) -> None:
        """Create or update the tenant's bank for every pack, with its mission and directives."""
        for pack in self.packs.values():
            await self.services.memory.ensure_bank(pack.bank_profile(self.services.bank_of(tenant, pack.name)))

    async def aclose(self) -> None:
        if self.services.scheduler is not None:
            await self.services.scheduler.shutdown()
        await self.services.memory.aclose()
        for client in (self.services.chat, self.services.speech):
            if client is not None:
                await client.aclose()
        self.services.state.close()
        self.services.outbox.close()
        self.services.intake.close()
        self.services.database.dispose()

    async def __aenter__(self) -> "App":
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
