"""A note sent while an Edit waits for a field value is never taken as that value and never lost, over the
console and over Telegram: the officer is told the edit was left open, the note gets its own card, the first
card is unchanged, and a value of the field's kind sent next still completes the edit. A dose above the label
is flagged on the card and kept (with a warning) in what Save retains."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.services.i18n import text
from bot.transports.telegram.app import TelegramTransport
from handlers.agri.models import Visit
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, ApiCall, FakeTelegram
from tests.language.test_console import ConsoleWalk, _walk
from tests.language.walk import OFFICER, TELEGRAM_ID, saved
from tests.transports.walks import walk_registry, walk_tenant

pytestmark = pytest.mark.hindsight

FIRST = "Visited Ramesh Goud, chilli leaf blight about 20 percent, Blitox accepted."
SECOND = "మల్లేష్ టమాటా తోటలో ఆకు మచ్చ తెగులు, ఇండోఫిల్ తీసుకున్నాడు. 10 రోజుల తర్వాత మళ్ళీ చూస్తాను."
CROP_FIELD = 2  # farmer, village, crop, ...: the crop is the third field in the Edit menu


def _visit(app: App, card_id: str | None) -> Visit:
    card = app.services.state.card(card_id or "")
    assert card is not None
    return Visit.model_validate(card.payload["visit"])


def _shown_number(console: ConsoleWalk, index: int) -> int:
    """The number the console printed for the latest answer's button at `index` (an open card's own buttons
    keep theirs, so a field menu's buttons need not start at 1)."""
    [printed] = console.session.printed(console.session.last[-1:])
    numbers = [int(line.split("[", 1)[1].split("]", 1)[0]) for line in printed.splitlines() if line.startswith("  [")]
    return numbers[index]


@pytest.fixture
async def console(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[ConsoleWalk]:
    walk = await _walk(tmp_path, hindsight_url, bank_prefix, None)
    yield walk
    await walk.app.aclose()


async def test_console_note_during_a_pending_edit_is_read_as_a_note_and_the_edit_stays_open(
        console: ConsoleWalk) -> None:
    [first] = await console.send(FIRST)
    await console.send("2")  # Edit
    [asked] = await console.send(str(_shown_number(console, CROP_FIELD)))
    assert text("te", "agri.field_crop") in asked.text

    notice, second, _reminder, again = await console.send(SECOND)
    assert notice.text == text("te", "core.card_edit_left_open", field=text("te", "agri.field_crop"))
    assert second.card_id and second.card_id != first.card_id
    new = _visit(console.app, second.card_id)
    assert (new.farmer_id, new.crop, new.issue, new.followup_days) == ("F004", "tomato", "leaf-spot", 10)
    assert new.note == SECOND  # the officer's own words, in Telugu script, on the card
    assert _visit(console.app, first.card_id).crop == "chilli"  # the open card was not touched
    assert again.card_id == first.card_id  # and it is shown again below the new one, never dropped unsaved

    shown, *still_open = await console.send("mirapa")  # a value of the crop's kind still completes the edit
    assert [r.card_id for r in still_open] == [second.card_id]  # the other unsaved card stays in sight
    assert shown.card_id == first.card_id and _visit(console.app, first.card_id).crop == "chilli"
    assert console.app.services.state.awaiting_edit(OFFICER) is None


async def test_console_dose_above_label_is_flagged_on_the_card_and_kept_in_the_narrative(
        console: ConsoleWalk) -> None:
    [card] = await console.send("Ramesh Goud chilli sucking pests, Ulala 200 g per acre, he took it.")
    warning = text("te", "agri.dose_above_label", label="60 g/ఎకరం")
    assert f"Ulala: 200 g/ఎకరం ({warning})" in card.text  # units as printed, the word acre in Telugu
    visit = _visit(console.app, card.card_id)
    [advice] = visit.products
    assert (advice.dose, advice.label_dose, advice.above_label) == ("200 g/acre", "60 g/acre", True)
    await console.send("1")  # Save
    [memory] = await saved(console.app.services.memory, console.app.services.bank_of(console.tenant, "agri"),
                           "visit", "Ramesh Goud chilli Ulala dose")
    assert "Dose given by the officer: 200 g/acre." in memory.text
    assert "WARNING: that dose is above the label dose (60 g/acre for chilli)." in memory.text
    assert memory.metadata["above_label"] == "P002" and memory.metadata["doses"] == "P002=200 g/acre"


async def _until(fake: FakeTelegram, count: int) -> None:
    for _ in range(1500):
        if len([c for c in fake.sent("sendMessage") if c.params.get("chat_id") in (TELEGRAM_ID, str(TELEGRAM_ID))]) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the bot did not answer")


async def test_telegram_note_during_a_pending_edit_is_never_lost(
        tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    fake, tenant = FakeTelegram(), walk_tenant()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, default_tenant=tenant,
                             telegram_bot_token=SecretStr(TOKEN), telegram_base_url=fake.url)
    app = await App.start(settings, registry=walk_registry(tenant), pack_names=["agri"])
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    try:
        def mine() -> list[ApiCall]:
            return [c for c in fake.sent("sendMessage") if c.params.get("chat_id") in (TELEGRAM_ID, str(TELEGRAM_ID))]

        fake.send_text(TELEGRAM_ID, FIRST)
        await _until(fake, 1)
        card_message = fake.last_message_with_buttons(TELEGRAM_ID)
        fake.press(TELEGRAM_ID, card_message, fake.buttons(card_message)[text("te", "core.button_edit")])
        await _until(fake, 2)
        menu = fake.last_message_with_buttons(TELEGRAM_ID)
        fake.press(TELEGRAM_ID, menu, fake.buttons(menu)[text("te", "agri.field_crop")])
        await _until(fake, 3)
        before = len(mine())
        fake.send_text(TELEGRAM_ID, SECOND)
        await _until(fake, before + 2)
        notice, second = [c.params["text"] for c in mine()[before:before + 2]]
        assert notice == text("te", "core.card_edit_left_open", field=text("te", "agri.field_crop"))
        assert SECOND in second and text("te", "agri.crop_tomato") in second
        cards = [c for c in app.services.state.open_cards() if c.user_id == OFFICER and c.status == "open"]
        crops = sorted(Visit.model_validate(c.payload["visit"]).crop or "" for c in cards)
        assert crops == ["chilli", "tomato"]  # both notes kept, neither changed by the other
    finally:
        await transport.stop()
        await app.aclose()
        fake.close()


async def test_console_follow_up_is_scheduled_when_the_note_says(console: ConsoleWalk) -> None:
    today = console.pack.today()
    await console.send("Ramesh Goud chilli leaf blight, Blitox accepted. Revisit in 10 days.")
    await console.send("1")  # Save
    [pending] = console.app.services.scheduler.pending(OFFICER, "agri")
    assert (pending.due_at.date() - today).days == 10  # not the issue book's 14 days for leaf blight
