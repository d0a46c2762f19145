"""An unsaved card is never dropped from sight (issue 28): a next note that opens a new card says the earlier one
is not saved and shows it again with its buttons, and nothing is stored until its Save is tapped. The console
keeps its numbered buttons, unsaved cards and a waiting edit across a restart, as Telegram's messages do."""

import pytest

from bot.core.app import App
from bot.core.registry import Registry
from bot.settings import Settings
from bot.transports.console.session import ConsoleSession
from handlers.agri.pack import AgriPack
from tests.agri.conftest import CAPTURE_TENANT, agri_users, button, say

pytestmark = pytest.mark.hindsight

FIRST = "Raju Yadav cotton whitefly 20 percent, advised Proclaim, accepted"
SECOND = "Bhaskar Rao cotton leaf curl seen, Proclaim too costly he said"


def visits(app: App) -> int:
    pack = app.packs["agri"]
    assert isinstance(pack, AgriPack)
    return len(pack.records.visits(CAPTURE_TENANT))


async def test_a_next_note_keeps_the_earlier_unsaved_card_in_sight(agri_app: App) -> None:
    [first] = await agri_app.conversation.handle(say("ravi", FIRST))
    assert first.card_id is not None
    replies = await agri_app.conversation.handle(say("ravi", SECOND))
    new, notice, again = replies
    assert new.card_id not in (None, first.card_id) and "(F013)" in new.text
    assert "not saved yet" in notice.text and "1 unsaved" in notice.text
    assert again.card_id == first.card_id and "(F011)" in again.text and not again.replaces_card
    assert visits(agri_app) == 0  # nothing stored without a tap
    saved = await agri_app.conversation.handle(say("ravi", callback=button(again, "Save")))
    assert "Saved" in saved[0].text and visits(agri_app) == 1
    # Only open cards are recalled: the saved one never comes back, the one still open does.
    third = await agri_app.conversation.handle(say("ravi", FIRST))
    assert [r.card_id for r in third[2:]] == [new.card_id]


async def test_a_note_that_opens_no_card_recalls_nothing(agri_app: App) -> None:
    await agri_app.conversation.handle(say("ravi", FIRST))
    replies = await agri_app.conversation.handle(say("ravi", "/followups"))
    assert all("not saved yet" not in r.text for r in replies)


async def test_console_cards_edits_and_buttons_survive_a_restart(settings: Settings) -> None:
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        session = ConsoleSession(app.conversation, "ravi")
        [card] = await session.send(FIRST)
        numbers = {b.label: n for n, b in enumerate(session.buttons, start=1)}
        [menu] = await session.send(str(numbers["Edit"]))
        date_field = next(n for n, b in enumerate(session.buttons, start=1) if b.label == "Date")
        asked = await session.send(str(date_field))
        assert "Date" in asked[0].text
    finally:
        await app.aclose()
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        session = ConsoleSession(app.conversation, "ravi")
        resumed = session.resume()
        assert resumed[0].card_id == card.card_id and "(F011)" in resumed[0].text
        assert "Date" in resumed[-1].text  # the edit still waits for its value
        [shown] = await session.send("2026-11-02")  # the value finishes the edit begun before the restart
        assert shown.card_id == card.card_id and "2 Nov 2026" in shown.text, shown.text
        save = next(n for n, b in enumerate(session.buttons, start=1) if b.label == "Save")
        saved = await session.send(str(save))
        assert "Saved" in saved[0].text and visits(app) == 1
    finally:
        await app.aclose()
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        session = ConsoleSession(app.conversation, "ravi")
        assert session.resume() == []  # nothing open any more
    finally:
        await app.aclose()


async def test_the_console_numbers_still_press_the_same_buttons_after_a_restart(settings: Settings) -> None:
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        session = ConsoleSession(app.conversation, "ravi")
        [card] = await session.send(FIRST)
        kept = list(session.buttons)
    finally:
        await app.aclose()
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    try:
        session = ConsoleSession(app.conversation, "ravi")
        assert session.buttons == kept  # no resume: the numbers of the last answer still work
        save = next(n for n, b in enumerate(session.buttons, start=1) if b.label == "Save")
        saved = await session.send(str(save))
        assert "Saved" in saved[0].text and saved[0].card_id == card.card_id and visits(app) == 1
    finally:
        await app.aclose()
