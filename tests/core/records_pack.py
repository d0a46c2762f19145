"""A tiny pack that keeps records (notes, in a dict standing in for its tables) and writes each one's memory
from the record, for the records/memory contract's tests (`smriti memory check|rebuild`)."""

from datetime import date, datetime, time

from bot.core.messages import Media, Reply
from bot.core.pack import CommandInfo, Pack, Services, Turn
from bot.core.cards import CardSpec
from memory import BankProfile, MemoryItem
from memory.asof import IST

RECORDS: dict[str, dict[str, tuple[date, str]]] = {}
"""tenant -> note id -> (day, words): the pack's records."""


def memory_of(note_id: str, day: date, words: str) -> MemoryItem:
    """The one function the save path and memory_records share."""
    return MemoryItem(content=f"Note of {day.isoformat()}: {words}", event_time=datetime.combine(day, time(10), IST),
                      context="note", document_id=f"note:{note_id}", tags=["kind:note"],
                      metadata={"note_id": note_id})


class RecordsPack(Pack):
    name = "notes"

    def commands(self) -> list[CommandInfo]:
        return []

    def bank_profile(self, bank_id: str) -> BankProfile:
        return BankProfile(bank_id=bank_id, mission="Notes kept as records, for tests.")

    def card_specs(self, tenant: str) -> dict[str, CardSpec]:
        return {}

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        return None

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        return [Reply(text="notes are added by the test")]

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        return [Reply(text="no media here")]

    def memory_records(self, services: Services, tenant: str) -> list[MemoryItem]:
        return [memory_of(note_id, day, words) for note_id, (day, words) in sorted(RECORDS.get(tenant, {}).items())]


def create_pack(services: Services) -> Pack:
    return RecordsPack(services)
