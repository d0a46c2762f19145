"""The register is the vocabulary: crops and issues a tenant's registers name (not in the built-in lexicon)
are read, shown and translated from the registers; a word with no translation is shown as written."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.core.messages import Incoming
from bot.core.registry import Registry, User
from bot.services.registers.importer import import_file
from bot.settings import Settings
from handlers import INSTALLED
from handlers.agri.extract import FieldReader
from handlers.agri.registers import FieldBooks

pytestmark = pytest.mark.own_registers
KINDS = all_kinds(INSTALLED.packages())
TENANT = "suryapet-agro"

SHEETS = {
    "villages": "Village,Mandal,Telugu Name\nAtmakur,Atmakur,ఆత్మకూరు\nNereducherla,Nereducherla,\n",
    "crops": "Crop,Crop (Telugu),Also Called\nBengal gram,శనగ,senaga; chana\nSesame,,nuvvulu\n",
    "issues": "Issue,Issue (Telugu),Crops,Also Called\nWhitefly,తెల్ల దోమ,Bengal gram; redgram,tella doma\n"
              "Pod fly,కాయ ఈగ,Redgram,kaya eega\nCollar rot,,Bengal gram,\n",
    "farmers": "Farmer ID,Farmer Name,Farmer Name (Telugu),Village,Crops,Acres\n"
               "SR-101,Bikshapathi,భిక్షపతి,Atmakur,Kandi; Bengal gram,3\n"
               "SR-102,Mangamma,,Nereducherla,Sesame; Horse gram,2\n",
}


def import_sheets(app: App, folder: Path) -> None:
    for kind, body in SHEETS.items():
        path = folder / f"{kind}.csv"
        path.write_text(body, encoding="utf-8")
        report = import_file(app.services.database, KINDS, kind, TENANT, path, apply=True)
        assert not report.rejected, report.render()


def users() -> list[User]:
    return [User(user_id=f"so-{lang}", name="Sailu", role="officer", pack="agri", tenant=TENANT, lang=lang,
                 officer_id="SO-1", territories=["atmakur", "nereducherla"]) for lang in ("en", "te")]


@pytest.fixture
async def app(settings: Settings, tmp_path: Path) -> AsyncIterator[App]:
    running = await App.start(settings, registry=Registry(users()), pack_names=["agri"])
    import_sheets(running, tmp_path)
    yield running
    await running.aclose()


def say(sender: str, text: str) -> Incoming:
    return Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=text)


async def test_register_words_are_read_and_shown_in_both_languages(app: App) -> None:
    book = FieldBooks(app.services.database).for_tenant(TENANT)
    assert book.farmers["SR-101"].crops == ["redgram", "bengal-gram"]
    assert book.crop_name("bengal-gram", "te") == "శనగ" and book.crop_name("sesame", "te") == "Sesame"
    assert book.crop_name("horse-gram", "en") == "Horse gram", "a crop only a farmer list names, as written"
    assert FieldReader(book).farmer_in("Bikshapathi", ["atmakur"]) == book.farmers["SR-101"]
    [farmers_en] = await app.conversation.handle(say("so-en", "/farmers"))
    assert "Bengal gram" in farmers_en.text and "redgram" in farmers_en.text and "Horse gram" in farmers_en.text
    [farmers_te] = await app.conversation.handle(say("so-te", "/farmers"))
    assert "శనగ" in farmers_te.text and "కంది" in farmers_te.text and "Sesame" in farmers_te.text
    for sender in ("so-en", "so-te"):
        for command in ("/brief SR-101", "/brief Mangamma", "/insights Atmakur", "/followups"):
            replies = await app.conversation.handle(say(sender, command))
            assert replies and all("Traceback" not in r.text for r in replies), command


async def test_a_note_names_the_registers_crop_and_issue_on_the_card(app: App) -> None:
    [card, *_] = await app.conversation.handle(say("so-en", "Visited Bikshapathi in Atmakur, senaga crop has "
                                                            "tella doma, 20 percent. Advised nothing today."))
    assert "Bengal gram" in card.text and "Whitefly" in card.text, card.text
    [card_te, *_] = await app.conversation.handle(say("so-te", "భిక్షపతి ఆత్మకూరు శనగ లో తెల్ల దోమ ఉంది"))
    assert "శనగ" in card_te.text and "తెల్ల దోమ" in card_te.text, card_te.text
