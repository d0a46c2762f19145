"""/remember files what it keeps under the case the line names, as a note names it: its number, its name, or a
party's own name anywhere ("client Kommineni says ..."); a line naming no case, or two, is not kept silently under
none: the bot asks which case and keeps nothing until told (walk5al 52: "/remember client Yadagiri says ..." was
kept under no case, and "what did Yadagiri say about compromise?" never found it)."""

import pytest

from bot.core.app import App
from handlers.legal.pack import remembered_case
from memory import tags
from tests.legal.helpers import fresh_practice, say
from tests.legal.kinds_corpus import REGISTER

TENANT = "demo"


@pytest.mark.parametrize(("said", "case_id"), [
    ("client Kommineni says she will not accept less than 2 acres in any compromise", "os-231-2024"),
    ("the Anjamma side wants the appeal settled before the summer vacation", "as-112-2023"),
    ("W.P. 1234/2026: GP says the counter is ready, waiting for the Principal Secretary's signature", "wp-1234-2026"),
    ("Durga cheque case - accused's brother offered to pay in three instalments", "cc-77-2025"),
])
def test_a_line_to_remember_names_its_case_as_a_note_or_a_question_does(said: str, case_id: str) -> None:
    found = remembered_case(REGISTER, said)
    assert not isinstance(found, list) and found.case_id == case_id, said


@pytest.mark.parametrize("said", [
    "the stamp vendor near the court changed his timings",
    "Pendyala suit and the Durga cheque case both need fresh vakalats",
])
def test_a_line_naming_no_case_or_two_asks_which(said: str) -> None:
    assert isinstance(remembered_case(REGISTER, said), list), said


@pytest.mark.hindsight
async def test_remember_files_under_the_party_named_or_asks_and_keeps_nothing(app: App) -> None:
    await fresh_practice(app, TENANT)
    bank = app.services.bank_of(TENANT, "legal")
    line = "client Kommineni says she will not accept less than 2 acres in any compromise"
    [done] = await app.conversation.handle(say("aditya", f"/remember {line}"))
    assert "chat memory" in done.text.lower() and "no case named" not in done.text, done.text
    kept = await app.services.memory.list_documents(bank, tags=[tags.record_type("chat_memory"),
                                                                tags.case("os-231-2024")])
    assert any("2 acres" in d.metadata["summary"] for d in kept)
    [answer] = await app.conversation.handle(say("aditya", "what did Kommineni say about compromise?"))
    assert "2 acres" in answer.text, answer.text
    before = await app.services.memory.list_documents(bank, tags=[tags.record_type("chat_memory")])
    [asked] = await app.conversation.handle(say("aditya", "/remember the stamp vendor changed his timings"))
    assert "Which case" in asked.text and "general:" in asked.text, asked.text
    assert len(await app.services.memory.list_documents(bank, tags=[tags.record_type("chat_memory")])) == len(before)
    [general] = await app.conversation.handle(say("aditya", "/remember general: the stamp vendor changed his timings"))
    assert "no case named" in general.text, general.text
