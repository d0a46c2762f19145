"""A minimal pack used to exercise the conversation core and the card flow through the real mechanism."""

from datetime import date, datetime, time
from typing import Any

from bot.core.messages import Media, Reply
from bot.services.prompts import Prompt
from bot.core.registry import Registry
from bot.core.pack import CommandInfo, Pack, Turn
from bot.core.cards import CardSpec, open_card
from memory import BankProfile, MemoryItem, RecallRequest
from memory.asof import IST


class NoteCard(CardSpec):
    kind = "note"

    def fields(self, payload: dict[str, Any]) -> list[str]:
        return ["text", "date"]

    def field_label(self, lang: str, field: str) -> str:
        return field

    def render(self, lang: str, payload: dict[str, Any]) -> str:
        return f"Note dated {payload['date']}: {payload['text']}"

    def apply_edit(self, payload: dict[str, Any], field: str, value: str) -> dict[str, Any]:
        if field == "date":
            date.fromisoformat(value)
        return {**payload, field: value}

    def memories(self, turn: Turn, payload: dict[str, Any]) -> list[MemoryItem]:
        day = date.fromisoformat(payload["date"])
        return [MemoryItem(
            content=f"Note of {day.isoformat()}: {payload['text']}",
            event_time=datetime.combine(day, time(10, 30), IST),
            context="note", document_id=f"note:{turn.user.user_id}:{day.isoformat()}",
            tags=["kind:note", f"author:{turn.user.user_id}"],
        )]


class NotesPack(Pack):
    """Text `note YYYY-MM-DD words` opens a card; `/find words` recalls."""

    name = "agri"

    def commands(self) -> list[CommandInfo]:
        return []

    def bank_profile(self, bank_id: str) -> BankProfile:
        return BankProfile(bank_id=bank_id, mission="Notes for tests.")

    def card_specs(self, tenant: str) -> dict[str, CardSpec]:
        return {"note": NoteCard()}

    async def on_command(self, turn: Turn, command: str, args: str) -> list[Reply] | None:
        if command == "think":
            assert turn.services.chat is not None
            answer = await turn.services.chat.text(Prompt(system="Answer briefly.", user=args))
            return [Reply(text=f"model says: {answer}")]
        if command != "find":
            return None
        found = await turn.services.memory.recall(turn.bank_id, RecallRequest(query=args, tags=["kind:note"]))
        return [Reply(text="\n".join(f"{m.event_date}: {m.text}" for m in found) or "nothing")]

    async def on_text(self, turn: Turn, body: str) -> list[Reply]:
        _, day, words = body.split(" ", 2)
        return [open_card(turn, NoteCard(), {"date": day, "text": words})]

    async def on_media(self, turn: Turn, media: Media) -> list[Reply]:
        return [Reply(text=f"got {media.kind}")]


def registry_in_tenant(tenant: str) -> Registry:
    """The seeded users moved into a tenant of the test's own, so its memories meet no other test's."""
    from bot.paths import SEEDS_DIR

    return Registry([u.model_copy(update={"tenant": tenant}) for u in Registry.load(SEEDS_DIR / "users.json").users])
