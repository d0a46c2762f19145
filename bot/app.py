"""Assembling the running bot from Settings: memory, state, model clients, packs and the conversation core."""

import importlib
import importlib.util
import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType

from bot.core import Conversation
from bot.intake import IntakeStore
from bot.legacy_state import import_legacy_state
from bot.llm import ChatModel
from bot.ocr import TextReader
from bot.outbound import Outbound
from bot.people import PeopleRegistry
from bot.registers.cli import all_kinds
from bot.registry import Registry
from bot.reply_delivery import ReplyDelivery
from bot.reply_outbox import ReplyOutbox
from bot.scheduler import FollowUpScheduler
from bot.settings import Settings
from bot.speech import build_speech
from bot.state import StateStore
from bot.store import Database, upgrade
from bot.subject_audit import import_legacy_audit
from bot.store.leases import Leases, ProcessOwner
from handlers.base import Pack, Services
from memory import MemoryClient
from memory import local as local_memory
from memory.outbox import Outbox

log = logging.getLogger(__name__)

PACK_MODULES = {"agri": "handlers.agri", "legal": "handlers.legal", "ap": "handlers.ap"}


def _now() -> datetime:
    return datetime.now(timezone.utc)


def pack_migrations(names: list[str] | None = None) -> list[Path]:
    """The migration folders of the installed packs, found without importing them."""
    folders: list[Path] = []
    for name, module_name in PACK_MODULES.items():
        if names is not None and name not in names:
            continue
        spec = importlib.util.find_spec(module_name)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = Path(next(iter(spec.submodule_search_locations))) / "migrations"
        if folder.is_dir():
            folders.append(folder)
    return folders


def open_database(settings: Settings) -> Database:
    """Connect to the one database and bring its schema up to date (every installed pack's tables too)."""
    database = Database(settings.database_url)
    upgrade(database, pack_migrations())
    return database


def load_packs(services: Services, names: list[str] | None = None) -> dict[str, Pack]:
    """Import the named packs (default: every installed one); each module exposes create_pack(services)."""
    packs: dict[str, Pack] = {}
    for name, module_name in PACK_MODULES.items():
        if names is not None and name not in names:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        packs[name] = module.create_pack(services)
    return packs


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
    ) -> "App":
        """Build everything; start the embedded memory server first when it is the one in use."""
        if settings.uses_local_memory and start_local_memory:
            local_memory.start(settings.local_server)
        api_key = settings.hindsight_api_key.get_secret_value() if settings.hindsight_api_key else None
        memory = MemoryClient(settings.memory_url, api_key=api_key)
        groq_key = settings.groq_api_key.get_secret_value() if settings.groq_api_key else None
        chat = None
        if groq_key:
            chat = ChatModel(groq_key, settings.groq_chat_model, settings.groq_fallback_model,
                             base_url=settings.groq_base_url, timeout_s=settings.groq_timeout_s)
        speech = build_speech(settings)
        database = open_database(settings)
        moved = import_legacy_state(database, settings.state_dir)
        import_legacy_audit(database, settings.state_dir)
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
            reader=TextReader(),
            scheduler=scheduler,
            clock=_now,
            outbound=outbound,
            intake=intake,
            replies=ReplyDelivery(ReplyOutbox(database), intake, registry, outbound),
            leases=Leases(database, owner),
        )
        packs = load_packs(services, pack_names)
        # Started after the packs registered their composers, so jobs missed while down find them.
        await scheduler.start()
        return cls(settings=settings, services=services, packs=packs, conversation=Conversation(services, packs, all_kinds(PACK_MODULES)))

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
