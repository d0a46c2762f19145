"""The legal pack in chat, through the real conversation core and the real local Hindsight."""

from datetime import date, datetime
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Media
from handlers.legal.backlog import CASES_FILE, SeedEntry, SeedUpload, render_file
from handlers.legal.register import CaseRegister
from memory import tags
from tests.legal.helpers import button, say

pytestmark = pytest.mark.hindsight

REGISTER = CaseRegister.load(CASES_FILE)


def photo(tmp_path: Path, name: str, printed: date | None, entries: list[SeedEntry]) -> Media:
    spec = SeedUpload(file=name, kind="diary", author="aditya", printed_date=printed, entries=entries,
                      uploaded_at=datetime(2026, 11, 30, 20, 0).astimezone(), rotate=0.8)
    path = tmp_path / name
    path.write_bytes(render_file(spec, REGISTER))
    return Media(kind="photo", path=path, file_name=name, mime_type="image/png", size_bytes=path.stat().st_size)


async def documents(app: App, case_id: str) -> dict[str, dict[str, str]]:
    found = await app.services.memory.list_documents(app.services.bank_of("demo", "legal"), tags=[tags.case(case_id)])
    return {d.document_id: d.metadata for d in found}


async def test_photo_becomes_one_card_per_case_and_save_all_stores_them(app: App, tmp_path: Path) -> None:
    media = photo(tmp_path, "IMG_20261118_093000.png", date(2026, 11, 17), [
        SeedEntry(case_id="lakshmi-textiles", ref="Lakshmi Textiles", hearing_date=date(2026, 11, 17),
                  next_date=date(2026, 12, 8), text="GP filed the assessment file; reply in two weeks"),
        SeedEntry(case_id="mahesh-cheque", ref="Mahesh 138", hearing_date=date(2026, 11, 17),
                  next_date=date(2026, 12, 1), text="judgment pronounced in part; sentence hearing next"),
    ])
    replies = await app.conversation.handle(say("aditya", media=media))
    cards = [r for r in replies if r.card_id]
    assert len(cards) == 2 and all("17 Nov 2026" in c.text for c in cards)
    assert await documents(app, "lakshmi-textiles") == {}  # nothing is stored before a person confirms
    saved = await app.conversation.handle(say("aditya", callback=button(replies[-1], "Save all")))
    assert "Saved 2 entries; 0 held" in saved[-1].text
    stored = await documents(app, "lakshmi-textiles")
    [(doc_id, meta)] = [(k, v) for k, v in stored.items() if v["hearing_date"] == "2026-11-17"]
    assert doc_id.endswith(":lakshmi-textiles:2026-11-17")
    assert (meta["next_date"], meta["author"], meta["source_file"]) == ("2026-12-08", "Adv. Aditya Varma",
                                                                       "IMG_20261118_093000.png")
    again = await app.conversation.handle(say("aditya", callback=button(replies[-1], "Save all")))
    assert "Saved 0" in again[-1].text  # a double tap stores nothing twice


async def test_a_guessed_date_cannot_be_saved_until_a_person_sets_it(app: App, tmp_path: Path) -> None:
    media = photo(tmp_path, "IMG_20261111_081500.png", None, [
        SeedEntry(case_id="dwaraka-shop", ref="Dwaraka Nagar shop", hearing_date=date(2026, 11, 10),
                  next_date=None, text="orders pronounced: eviction within three months")])
    [intro, card] = await app.conversation.handle(say("aditya", media=media))
    assert "guess" in card.text and "11 Nov 2026" in card.text
    refused = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    assert "only a guess" in refused[0].text
    assert not any(m["hearing_date"] == "2026-11-11" for m in (await documents(app, "dwaraka-shop")).values())
    [choose] = await app.conversation.handle(say("aditya", callback=button(card, "Edit")))
    await app.conversation.handle(say("aditya", callback=button(choose, "Hearing date")))
    [shown] = await app.conversation.handle(say("aditya", "10.11.2026"))
    assert "10 Nov 2026" in shown.text and "guess" not in shown.text
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    stored = [m for m in (await documents(app, "dwaraka-shop")).values() if m["hearing_date"] == "2026-11-10"]
    assert len(stored) == 1 and stored[0]["date_source"] == "edited"


async def test_typed_note_in_chat_and_then_ask_and_today(app: App) -> None:
    [intro, card] = await app.conversation.handle(
        say("divya", "21/11 Gorle partition - plaintiff's arguments heard in part. N.D. 4/12"))
    assert "21 Nov" in card.text
    await app.conversation.handle(say("divya", callback=button(card, "Save")))
    [answer] = await app.conversation.handle(say("divya", "what happened last time in Gorle?"))
    assert "arguments heard in part" in answer.text and "Divya" in answer.text
    [listing] = await app.conversation.handle(say("aditya", "/today 04.12.2026"))
    assert "Gorle" in listing.text and "Previous hearing" in listing.text


async def test_remember_keeps_a_chat_memory_labelled_and_ranked_below_records(app: App) -> None:
    [card] = (await app.conversation.handle(
        say("aditya", "25/11 Mahesh cheque case - arguments on sentence heard. N.D. 9/12")))[1:]
    await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    [done] = await app.conversation.handle(say("aditya", "/remember Mahesh 138: insist on 18% interest from June 2023"))
    assert "chat memory" in done.text.lower()
    found = await app.services.memory.list_documents(app.services.bank_of("demo", "legal"),
                                                     tags=[tags.record_type("chat_memory"), tags.case("mahesh-cheque")])
    assert len(found) == 1 and found[0].metadata["source_file"] == "chat"
    [answer] = await app.conversation.handle(say("aditya", "What happened last time in Mahesh cheque case?"))
    assert answer.text.index("arguments on sentence heard") < answer.text.index("Chat memories") \
        < answer.text.index("18% interest")


async def test_an_unknown_case_is_named_and_not_answered_from_another(app: App) -> None:
    [answer] = await app.conversation.handle(say("aditya", "what happened last time in Seashore Towers?"))
    assert "Seashore Towers" in answer.text and "Seabreeze" in answer.text
    assert "Sources" not in answer.text


async def test_telugu_user_gets_telugu_frames(app: App) -> None:
    await app.conversation.handle(say("divya", "/lang te"))
    try:
        [answer] = await app.conversation.handle(say("divya", "what happened last time in Seashore?"))
        assert "రిజిస్టర్" in answer.text
    finally:
        await app.conversation.handle(say("divya", "/lang en"))


async def test_an_explicit_remember_in_plain_text_is_a_chat_memory(app: App) -> None:
    [done] = await app.conversation.handle(say("aditya", "Remember that in Gorle we won't settle for Srinivas's half only"))
    assert "chat memory" in done.text.lower()
    found = await app.services.memory.list_documents(app.services.bank_of("demo", "legal"),
                                                     tags=[tags.record_type("chat_memory"), tags.case("gorle")])
    [memory] = [d for d in found if "half only" in d.metadata["summary"]]
    assert memory.metadata["kind"] == "chat_memory" and memory.event_date is not None


async def test_an_unmarked_next_date_is_a_doubt_one_tap_does_not_save(app: App) -> None:
    [intro, card] = await app.conversation.handle(
        say("divya", "19.11.2026 Gorle partition - plaintiff's arguments heard in part. PW1 cross 04.12.2026"))
    assert "19 Nov 2026" in card.text and "4 Dec 2026" in card.text and "not written as one" in card.text
    refused = await app.conversation.handle(say("divya", callback=button(card, "Save")))
    assert "not marked as one" in refused[0].text
    assert not any(m["hearing_date"] == "2026-11-19" for m in (await documents(app, "gorle")).values())
    [choose] = await app.conversation.handle(say("divya", callback=button(card, "Edit")))
    await app.conversation.handle(say("divya", callback=button(choose, "Next date")))
    [shown] = await app.conversation.handle(say("divya", "04.12.2026"))
    assert "not written as one" not in shown.text
    await app.conversation.handle(say("divya", callback=button(shown, "Save")))
    stored = [m for m in (await documents(app, "gorle")).values() if m["hearing_date"] == "2026-11-19"]
    assert len(stored) == 1 and stored[0]["next_date"] == "2026-12-04"
