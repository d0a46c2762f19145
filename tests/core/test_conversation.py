"""The conversation core and the confirm-before-retain card flow, against the real local Hindsight."""

from datetime import date

import pytest

from bot.core.app import App
from bot.core.conversation import Conversation, split_command
from bot.services.i18n import text
from bot.core.messages import Incoming, Reply
from bot.settings import Settings
from memory import RecallRequest
from tests.core.notes_pack import NotesPack, registry_in_tenant

pytestmark = pytest.mark.hindsight

TENANT = "core-conversation"


def say(sender: str, text: str | None = None, callback: str | None = None, delivery: str | None = None,
        transport: str = "console") -> Incoming:
    import uuid
    return Incoming(transport=transport, sender=sender, delivery_id=delivery or uuid.uuid4().hex,
                    text=text, callback=callback)


@pytest.fixture
async def notes_app(settings: Settings) -> App:
    app = await App.start(settings, pack_names=[], registry=registry_in_tenant(TENANT))
    app.packs = {"agri": NotesPack(app.services)}
    app.conversation = Conversation(app.services, app.packs)
    yield app
    await app.aclose()


def button(reply: Reply, label: str) -> str:
    return next(b.data for b in reply.flat_buttons() if b.label == label)


def test_split_command() -> None:
    assert split_command("/brief@SmritiBot F001") == ("brief", "F001")
    assert split_command("hello") is None


async def test_stranger_is_refused_and_nothing_is_stored(notes_app: App) -> None:
    replies = await notes_app.conversation.handle(say("nobody", "note 2026-04-08 secret"))
    assert "only for registered users" in replies[0].text
    assert notes_app.services.state.open_cards() == []


async def test_card_is_stored_only_on_save_and_once(notes_app: App) -> None:
    conv = notes_app.conversation
    memory, bank = notes_app.services.memory, notes_app.services.bank_of(TENANT, "agri")
    [card] = await conv.handle(say("srinivas", "note 2026-04-08 Ramesh rejected Amistar Top on price"))
    assert card.card_id and "Ramesh rejected" in card.text
    before = await memory.recall(bank, RecallRequest(query="Ramesh Amistar", tags=["kind:note"]))
    assert before == []

    save = button(card, "Save")
    first = await conv.handle(say("srinivas", callback=save))
    second = await conv.handle(say("srinivas", callback=save))
    assert "Saved to memory" in first[0].text and first[0].replaces_card
    assert "already saved" in second[0].text

    found = await memory.recall(bank, RecallRequest(query="Ramesh Amistar", tags=["kind:note"]))
    assert len(found) == 1
    assert found[0].event_date == date(2026, 4, 8)
    assert found[0].document_id == "note:srinivas:2026-04-08"


async def test_edit_field_by_field_then_save(notes_app: App) -> None:
    conv = notes_app.conversation
    [card] = await conv.handle(say("srinivas", "note 2026-05-01 first words"))
    [choose] = await conv.handle(say("srinivas", callback=button(card, "Edit")))
    [ask] = await conv.handle(say("srinivas", callback=button(choose, "date")))
    assert '"date"' in ask.text
    [bad] = await conv.handle(say("srinivas", "not a date"))
    assert "does not fit" in bad.text
    [shown] = await conv.handle(say("srinivas", "2026-05-02"))
    assert "2026-05-02" in shown.text and shown.replaces_card
    await conv.handle(say("srinivas", callback=button(shown, "Save")))
    [answer] = await conv.handle(say("srinivas", "/find first words"))
    assert "2026-05-02" in answer.text


async def test_foreign_and_stale_callbacks_are_harmless(notes_app: App) -> None:
    conv = notes_app.conversation
    [card] = await conv.handle(say("srinivas", "note 2026-06-01 private"))
    [foreign] = await conv.handle(say("lakshmi", callback=button(card, "Save")))
    assert foreign.text == text("te", "core.card_not_yours")  # Lakshmi reads Telugu
    [stale] = await conv.handle(say("srinivas", callback="c:s:ffffffffff"))
    assert "no longer available" in stale.text
    [garbage] = await conv.handle(say("srinivas", callback="c:"))
    assert "no longer available" in garbage.text
    await conv.handle(say("srinivas", callback=button(card, "Discard")))
    [again] = await conv.handle(say("srinivas", callback=button(card, "Save")))
    assert "discarded" in again.text


async def test_duplicate_delivery_is_answered_once(notes_app: App) -> None:
    conv = notes_app.conversation
    first = await conv.handle(say("srinivas", "note 2026-07-01 once", delivery="u-42"))
    again = await conv.handle(say("srinivas", "note 2026-07-01 once", delivery="u-42"))
    assert len(first) == 1 and again == []
    assert len(notes_app.services.state.open_cards("srinivas")) == 1


async def test_memory_command_shows_timed_calls(notes_app: App) -> None:
    conv = notes_app.conversation
    await conv.handle(say("srinivas", "/find anything"))
    [shown] = await conv.handle(say("srinivas", "/memory"))
    assert "recall" in shown.text and " ms" in shown.text
