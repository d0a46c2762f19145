"""Scanned court paper: an image-only PDF is read page by page, and a docket's rows are kept apart by Tesseract's
word positions (a row starts at a date in the date column, whatever its width); its title lines are no case."""

from datetime import datetime
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Media
from bot.services.ocr import TextReader
from handlers.legal.layout import rows_of
from handlers.legal.pack import LegalPack
from handlers.legal.segment import segment
from tests.legal.docket_pages import ROWS, photo, scanned_pdf
from tests.legal.helpers import say
from tests.legal.kinds_corpus import CASES, REGISTER, upload

EXPECTED = sorted(("os-231-2024", day, nxt) for day, _, nxt in ROWS)


def _entries(text: str) -> list[tuple[str | None, object, object]]:
    return sorted((e.case_id, e.hearing_date, e.next_date) for e in segment(text, REGISTER, upload("2026-12-03T18:00")))


@pytest.mark.parametrize("text_at", [300, 520, 820])
def test_a_docket_photo_gives_one_hearing_per_dated_row_whatever_the_date_columns_width(tmp_path: Path,
                                                                                      text_at: int) -> None:
    path = tmp_path / "docket.png"
    path.write_bytes(photo(text_at))
    read = TextReader().read(path, words=True)
    assert _entries(rows_of(read).text) == EXPECTED


def test_an_image_only_pdf_is_read_by_ocr_and_its_rows_kept_apart(tmp_path: Path) -> None:
    path = tmp_path / "certified_copy.pdf"
    path.write_bytes(scanned_pdf())
    read = TextReader().read(path, "application/pdf", words=True)
    assert read.method == "tesseract" and read.pages == 1
    assert len(_entries(read.text)) < len(ROWS)  # Tesseract's blocks alone: the dates apart from their rows
    assert _entries(rows_of(read).text) == EXPECTED


@pytest.mark.hindsight
async def test_a_scanned_order_sheet_sent_in_chat_gives_a_card_per_hearing_and_no_stray_case(app: App,
                                                                                           tmp_path: Path) -> None:
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    pack.registers.add("demo", CASES)
    path = tmp_path / "OS231_order_sheet.pdf"
    path.write_bytes(scanned_pdf(text_at=640))
    media = Media(kind="document", path=path, file_name=path.name, mime_type="application/pdf",
                  size_bytes=path.stat().st_size)
    incoming = say("aditya", media=media).model_copy(update={"received_at": datetime.fromisoformat(
        "2026-12-03T18:00:00+05:30")})
    replies = await app.conversation.handle(incoming)
    cards = [r for r in replies if r.card_id]
    assert len(cards) == len(ROWS), "\n---\n".join(r.text for r in replies)
    assert all(r.text.startswith("Pendyala suit") for r in cards)
    assert not any("not in your register" in r.text for r in cards)
