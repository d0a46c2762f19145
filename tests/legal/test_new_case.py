"""The practice adds to its register from chat: `/case add` shows the case on a card and Save adds it; notes
and uploads citing a case number the register does not know propose the case on their card instead of being
dropped, and Save adds the case and files the hearing under it (real local Hindsight). Numbers, parties and
courts here are not from seeds/."""

from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Media
from handlers.legal.backlog import render_pdf
from handlers.legal.pack import LegalPack
from memory import tags
from tests.legal.helpers import button, say

pytestmark = pytest.mark.hindsight


def _pack(app: App) -> LegalPack:
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    return pack


async def _hearings(app: App, case_id: str) -> dict[str, dict[str, str]]:
    found = await app.services.memory.list_documents(app.services.bank_of("demo", "legal"),
                                                     tags=[tags.case(case_id)])
    return {d.document_id: d.metadata for d in found}


async def test_lawyer_adds_a_case_by_chat_then_files_a_note_under_it_and_asks(app: App) -> None:
    conv, pack = app.conversation, _pack(app)
    before = len(pack.register_for("demo"))
    [card] = await conv.handle(say("aditya", "/case add O.S. 311/2024 Pendyala v Kommineni, Vikarabad"))
    assert "O.S. 311/2024" in card.text and "Pendyala v Kommineni" in card.text and "Vikarabad" in card.text
    assert len(pack.register_for("demo")) == before  # nothing is added before Save
    [choose] = await conv.handle(say("aditya", callback=button(card, "Edit")))
    await conv.handle(say("aditya", callback=button(choose, "Court")))
    [edited] = await conv.handle(say("aditya", "Principal Junior Civil Judge, Vikarabad"))
    assert "Principal Junior Civil Judge, Vikarabad" in edited.text
    saved = await conv.handle(say("aditya", callback=button(edited, "Save")))
    assert "Saved to your register" in saved[0].text and "Added to your register" in saved[1].text
    case = pack.register_for("demo").get("os-311-2024")
    assert case is not None and case.numbers == ["O.S. 311/2024"] and case.title == "Pendyala v Kommineni"
    assert case.court == "Principal Junior Civil Judge, Vikarabad" and case.aliases == ["Pendyala"]
    again = await conv.handle(say("aditya", callback=button(edited, "Save")))
    assert len(again) == 1 and len(pack.register_for("demo")) == before + 1  # a double tap adds nothing

    [_, note] = await conv.handle(say("aditya", "02/12 OS 311/2024 - PW1 cross-examined in part, "
                                                "documents marked Ex.A1 to A4. N.D. 16/12"))
    assert "Pendyala" in note.text and "new" not in note.text and "2 Dec 2026" in note.text
    await conv.handle(say("aditya", callback=button(note, "Save")))
    stored = await _hearings(app, "os-311-2024")
    assert [m["hearing_date"] for m in stored.values()] == ["2026-12-02"]
    [answer] = await conv.handle(say("aditya", "What happened last time in Pendyala?"))
    assert "PW1 cross-examined" in answer.text and "2 Dec 2026" in answer.text

    [usage] = await conv.handle(say("aditya", "/case add Pendyala v Kommineni"))
    assert "/case add" in usage.text  # no number: how to write one, nothing opened


async def test_a_typed_note_citing_an_unknown_number_proposes_the_case(app: App) -> None:
    conv, pack = app.conversation, _pack(app)
    [_, card] = await conv.handle(say("divya", "01/12 C.C. No. 902 of 2025 Sangem Yadagiri vs Boya Narsimlu - "
                                               "accused present, summons to PW2. N.D. 15/12"))
    assert "C.C. No. 902 of 2025" in card.text and "Sangem Yadagiri vs Boya Narsimlu" in card.text
    assert pack.register_for("demo").get("cc-902-2025") is None
    replies = await conv.handle(say("divya", callback=button(card, "Save")))
    assert "Saved to memory" in replies[0].text and "Added to your register" in replies[1].text
    [case] = [c for c in pack.register_for("demo").cases if "C.C. No. 902 of 2025" in c.numbers]
    stored = await _hearings(app, case.case_id)
    assert [m["hearing_date"] for m in stored.values()] == ["2026-12-01"]


async def test_an_uploaded_order_sheet_of_an_unknown_case_proposes_it_and_files_each_hearing(
        app: App, tmp_path: Path) -> None:
    conv, pack = app.conversation, _pack(app)
    lines = ["IN THE COURT OF THE PRINCIPAL JUNIOR CIVIL JUDGE, ZAHEERABAD",
             "O.S. No. 58 of 2025", "Thumma Devender v. Chakali Eshwaramma", "",
             "Date | Proceedings | Next date",
             "14.11.2026 | Plaintiff present. Written statement not filed. Last chance. | 28.11.2026",
             "28.11.2026 | WS filed. Issues to be framed. | 12.12.2026"]
    path = tmp_path / "zaheerabad_os58.pdf"
    path.write_bytes(render_pdf(lines))
    media = Media(kind="document", path=path, file_name=path.name, mime_type="application/pdf",
                  size_bytes=path.stat().st_size)
    replies = await conv.handle(say("aditya", media=media))
    cards = [r for r in replies if r.card_id]
    assert len(cards) == 2 and all("O.S. No. 58 of 2025" in c.text for c in cards)
    assert all("Thumma Devender v. Chakali Eshwaramma" in c.text and "ZAHEERABAD" in c.text for c in cards)
    before = len(pack.register_for("demo"))
    for card in cards:
        await conv.handle(say("aditya", callback=button(card, "Save")))
    assert len(pack.register_for("demo")) == before + 1  # both cards file under the one case added
    [case] = [c for c in pack.register_for("demo").cases if "O.S. No. 58 of 2025" in c.numbers]
    stored = await _hearings(app, case.case_id)
    assert sorted(m["hearing_date"] for m in stored.values()) == ["2026-11-14", "2026-11-28"]
