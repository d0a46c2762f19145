"""What a pack is, and what it is handed for each turn of a conversation."""

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.i18n import text
from bot.messages import Incoming, Media, Reply
from bot.registry import Registry, User
from bot.settings import Settings
from bot.state import StateStore
from memory import BankProfile, MemoryClient, bank_id
from memory.outbox import Outbox

if TYPE_CHECKING:
    from bot.intake import IntakeStore
    from bot.llm import ChatModel
    from bot.outbound import Outbound
    from bot.reply_delivery import ReplyDelivery
    from bot.ocr import TextReader
    from bot.scheduler import FollowUpScheduler
    from bot.speech import SpeechEngine
    from bot.store import Database
    from bot.subject_match import SubjectTerms
    from bot.store.leases import Leases
    from handlers.cards import CardSpec
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


@dataclass(frozen=True)
class Services:
    """The shared clients a pack may use. Each is built once, at start-up."""

    settings: Settings
    database: "Database"
    """The one database: tenants, people, registers, conversation state, queues."""
    registry: Registry
    memory: MemoryClient
    state: StateStore
    outbox: Outbox
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

    def subject_stores(self) -> list["SubjectStore"]:
        """The pack's own stores of data about subjects (its registers, its logs), for forget and export."""
        return []

    async def on_callback(self, turn: Turn, data: str) -> list[Reply]:
        """Answer a button of the pack's own (not a card button); unknown data is answered harmlessly."""
        return [Reply(text=turn.t("core.card_gone"))]
