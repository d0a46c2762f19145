"""A new agri-input company (Kodad), with registers of its own (tests/corpus/agri/neworg: crops, issues with
Telugu names, SKUs like KV-INS-01, farmer codes like GF/0012, a farmer named only in Telugu, a village the farmer
list names first, office sheets with title rows, units and designations), walked over the console in English and
over the Telegram fake in Telugu: nothing crashes, and cards, briefs and insights use the register's words."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks
from tests.agri.conftest import button, say
from tests.onboarding.test_chat_import import Bot, start_with_fake, stop_with_fake

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "agri" / "neworg"
KINDS = all_kinds(INSTALLED.packages())
TENANT = "kodad-agro"
BHASKAR = 7700112


@pytest.fixture
async def bot(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[Bot]:
    running = await start_with_fake(tmp_path, hindsight_url, bank_prefix)
    database = running.app.services.database
    for kind in ("villages", "crops", "issues", "catalogue", "farmers", "officers"):
        report = import_file(database, KINDS, kind, TENANT, CORPUS / f"{kind}.csv", apply=True)
        assert not report.rejected, report.render()
    people = import_people_table(database, CORPUS / "staff.csv", TENANT, load_people(database))
    assert not people.rejected and sorted(people.written) == ["bhaskar", "mohan", "sailaja"]
    running.app.services.registry.refresh()
    yield running
    await stop_with_fake(running)


def _all_text(bot: Bot, chat: int) -> str:
    captions = [c.params.get("caption", "") for c in bot.fake.sent("sendPhoto") if c.params["chat_id"] == chat]
    return "\n".join(bot.texts_to(chat) + captions)


async def test_the_registers_words_on_every_command_in_english_on_the_console(bot: Bot) -> None:
    conv = bot.app.conversation
    book = FieldBooks(bot.app.services.database).for_tenant(TENANT)
    assert set(book.villages) == {"kdd-01", "ant-02", "mallareddygudem"}, "a village the farmer list named first"
    [farmers] = await conv.handle(say("sailaja", "/farmers"))
    for word in ("GF/0012", "Bengal gram", "cotton", "Sesame", "Sorghum", "paddy", "లక్ష్మమ్మ", "Mallareddygudem"):
        assert word in farmers.text, (word, farmers.text)
    for command in ("/brief GF/0012", "/brief gf 0014", "/brief లక్ష్మమ్మ", "/insights KDD-01", "/insights Kodad",
                    "/followups"):
        replies = await conv.handle(say("sailaja", command))
        assert replies and not any("Traceback" in r.text for r in replies), command
    card, *_ = await conv.handle(say("sailaja", "Met Ramulu at Kodad today, senaga has tella doma about 20 percent. "
                                                "Advised KV-INS-01, he accepted."))
    for word in ("Ramulu (GF/0012)", "Bengal gram", "Whitefly", "Kavach Neem (KV-INS-01)"):
        assert word in card.text, (word, card.text)
    saved = await conv.handle(say("sailaja", callback=button(card, "Save")))
    assert "Saved" in saved[0].text
    [brief] = await conv.handle(say("sailaja", "/brief GF/0012"))
    assert "Whitefly" in brief.text and "Bengal gram" in brief.text, brief.text
    [insights] = await conv.handle(say("sailaja", "/insights Kodad"))
    assert "Bengal gram" in insights.text and "Whitefly" in insights.text, insights.text
    [followups] = await conv.handle(say("sailaja", "/followups"))
    assert "Bengal gram" in followups.text


async def test_the_registers_telugu_words_over_telegram(bot: Bot) -> None:
    fake = bot.fake
    fake.send_text(BHASKAR, "/farmers")
    [farmers] = await bot.replies(BHASKAR, 1)
    for word in ("శనగ", "పత్తి", "నువ్వులు", "Sorghum", "రాములు", "కోదాడ"):
        assert word in farmers, (word, farmers)
    fake.send_text(BHASKAR, "రాములు శనగ లో తెల్ల దోమ ఎక్కువగా ఉంది, KV-INS-01 చెప్పాను")
    texts = await bot.replies(BHASKAR, 2)
    card = texts[-1]
    for word in ("శనగ", "తెల్ల దోమ", "KV-INS-01"):
        assert word in card, (word, card)
    for number, command in enumerate(("/brief GF/0013", "/insights ANT-02", "/followups", "/brief gf-0012"), 3):
        fake.send_text(BHASKAR, command)
        await bot.wait(lambda n=number: len(bot.texts_to(BHASKAR)) + len(
            [c for c in fake.sent("sendPhoto") if c.params["chat_id"] == BHASKAR]) >= n, lambda: [])
    shown = _all_text(bot, BHASKAR)
    assert "Traceback" not in shown and "agri." not in shown
