"""The pack contract: what a pack is, what it is handed for each turn, and how the installed packs are listed.

The core knows packs only through this contract and a PackCatalog handed to it (see handlers/__init__.py);
it never imports a pack by name.
"""

import importlib
import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.services.i18n import text
from bot.core.messages import Incoming, Media, Reply
from bot.core.registry import Registry, User
from bot.settings import Settings
from memory import BankProfile, MemoryItem, bank_id

if TYPE_CHECKING:
    # Only named in annotations: a command that builds no pack (`smriti --help`) loads none of them.
    from bot.core.cards import CardSpec
    from bot.core.intake import IntakeStore
    from bot.services.llm import ChatModel
    from bot.core.reply_delivery import ReplyDelivery
    from bot.services.ocr import TextReader
    from bot.core.outbound import Outbound
    from bot.core.scheduler import FollowUp, FollowUpScheduler
    from bot.services.speech import SpeechEngine
    from bot.store.state import StateStore
    from bot.store import Database
    from bot.core.subject_match import SubjectTerms
    from bot.store.leases import Leases
    from memory import MemoryClient
    from memory.outbox import Outbox
    from memory.subjects import Subject, SubjectStore


class SeedReport(BaseModel):
    """What loading a pack's seeds did: memories retained, under which bank."""

    bank_id: str
    retained: int
    details: dict[str, int] = {}


Write = Callable[[str], None]


class CommandInfo(BaseModel):
    command: str
    """Without the slash, as Telegram's set_my_commands wants it."""
    description_key: str
    """A catalogue key for the one-line description."""
    reads_memory: bool = True
    """False for a command answered from the database alone (a register listing): the person's memory bank is
    not prepared for it, so a first /farmers does not wait on the memory server."""


@dataclass(frozen=True)
class Services:
    """The shared clients a pack may use. Each is built once, at start-up."""

    settings: Settings
    database: "Database"
    """The one database: tenants, people, registers, conversation state, queues."""
    registry: Registry
    memory: "MemoryClient"
    state: "StateStore"
    outbox: "Outbox"
    chat: "ChatModel | None"
    """None without a Groq key: packs then use their deterministic path."""
    speech: "SpeechEngine | None"
    """Groq Whisper with a key, faster-whisper locally otherwise; None when neither can run here."""
    reader: "TextReader"
    scheduler: "FollowUpScheduler | None"
    clock: Callable[[], datetime]
    outbound: "Outbound"
    intake: "IntakeStore"
    replies: "ReplyDelivery"
    """The reply outbox and the channels that send it."""
    leases: "Leases"
    """Named leases of this process: a card's save, an invoice's decision run."""

    def bank_for(self, user: User) -> str:
        return self.bank_of(user.tenant, user.pack)

    def bank_of(self, tenant: str, pack: str) -> str:
        return bank_id(tenant, pack, prefix=self.settings.bank_prefix)


@dataclass(frozen=True)
class Turn:
    """One incoming message from one registered person, with everything needed to answer it."""

    user: User
    incoming: Incoming
    services: Services
    lang: str

    @property
    def bank_id(self) -> str:
        return self.services.bank_for(self.user)

    def t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)


class Pack(ABC):
    """A domain: its commands, its bank profile, its cards, and how it answers texts and media."""

    name: str

    def __init__(self, services: Services) -> None:
        self.services = services

    @abstractmethod
    def commands(self) -> list[CommandInfo]: ...

    @abstractmethod
    def bank_profile(self, bank_id: str) -> BankProfile: ...

    @abstractmethod
    def card_specs(self, tenant: str) -> dict[str, "CardSpec"]: ...

    @abstractmethod
    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        """Answer a slash command this pack owns, or return None when it is not one of its own."""

    @abstractmethod
    async def on_text(self, turn: Turn, body: str) -> list[Reply]: ...

    @abstractmethod
    async def on_media(self, turn: Turn, media: Media) -> list[Reply]: ...

    async def load_seeds(self, tenant: str) -> SeedReport:
        """Retain the pack's seed data into the tenant's bank, idempotently (deterministic document ids)."""
        return SeedReport(bank_id=self.services.bank_of(tenant, self.name), retained=0)

    async def demo(self, tenant: str, write: Write) -> None:
        """Print this pack's part of `smriti demo`."""

    def subject_terms(self, subject: "Subject") -> "SubjectTerms | None":
        """How records about one of this pack's subjects are recognised (ids, names); None when the subject is
        not of this pack's kind. Core stores (cards, queued items, follow-ups) match with these."""
        return None

    def find_subjects(self, tenant: str, kind: str, query: str) -> list[tuple[str, str]]:
        """(id, name) of this pack's subjects of `kind` that `query` (an id or a name) means; [] if none."""
        return []

    def also_named(self, tenant: str, kind: str, query: str, chosen: str) -> list[tuple[str, str]]:
        """(id, name) of other subjects a name also fits when `find_subjects` took one by its whole name
        ("Srinu" is Srinu's name and Srinu Yadav's first name): shown beside the match, never chosen."""
        return []

    def memory_records(self, services: Services, tenant: str) -> Iterable[MemoryItem] | None:
        """Every memory item the pack's database records say the tenant's bank holds: the same document ids,
        content, event time, tags and metadata the save path writes (one function builds both). None when the
        pack keeps no records; `smriti memory check` and `rebuild` then leave its bank alone."""
        return None

    def subject_stores(self) -> list["SubjectStore"]:
        """The pack's own stores of data about subjects (its registers, its logs), for forget and export."""
        return []

    def user_in_pack(self, user: User) -> User:
        """The person as this pack reads them for a turn: e.g. territories a people sheet names by village name
        or code, keyed as the tenant's village register keys them. The same person by default."""
        return user

    def help_examples(self, turn: Turn) -> list[str]:
        """Lines /help adds under the commands: examples made from the person's own registers (their cases, their
        farmers), never from the demo's. None by default."""
        return []

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        """Answer a button of the pack's own (not a card button); unknown data is answered harmlessly."""
        return [Reply(text=turn.t("core.card_gone"))]

    def compose_followup(self, followup: "FollowUp", user: User) -> list[Reply] | None:
        """Word a follow-up this pack scheduled, when it comes due; None when the pack asks none."""
        return None


@dataclass(frozen=True)
class PackEntry:
    """One installed pack: its name and the package holding it. The package is imported only when the pack is
    built, so commands that need no pack never pay for it. It exposes `create_pack(services)`, and may have a
    `cli` module (`register(sub, with_app)`), a `registers` module (KINDS, SEED_FILES) and a `migrations/`
    folder."""

    name: str
    package: str

    def create(self, services: Services) -> Pack:
        pack: Pack = importlib.import_module(self.package).create_pack(services)
        return pack

    def part(self, module: str) -> ModuleType | None:
        """The pack's optional module `module` (e.g. "cli"), or None when the pack has none."""
        full = f"{self.package}.{module}"
        try:
            return importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name not in (self.package, full):
                raise
            return None

    def migrations(self) -> Path | None:
        """The pack's migration folder, found without importing the pack."""
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = Path(next(iter(spec.submodule_search_locations))) / "migrations"
        return folder if folder.is_dir() else None


@dataclass(frozen=True)
class PackCatalog:
    """The packs a running bot serves, handed to the app by whoever starts it."""

    entries: tuple[PackEntry, ...]

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def select(self, names: list[str] | None = None) -> list[PackEntry]:
        """The entries named (all when names is None), in catalogue order."""
        return [e for e in self.entries if names is None or e.name in names]

    def packages(self) -> dict[str, str]:
        """Pack name -> package, for code that looks up a pack's optional modules."""
        return {e.name: e.package for e in self.entries}

    def migrations(self, names: list[str] | None = None) -> list[Path]:
        return [folder for e in self.select(names) if (folder := e.migrations()) is not None]


def installed_packs(settings: Settings) -> PackCatalog:
    """The catalogue named by the settings (`SMRITI_PACKS`, a package exposing INSTALLED)."""
    catalog = importlib.import_module(settings.packs_package).INSTALLED
    if not isinstance(catalog, PackCatalog):
        raise TypeError(f"{settings.packs_package}.INSTALLED is not a PackCatalog")
    return catalog
