"""OCR for real: pages rendered from text with Pillow (one slightly rotated and blurred), read by Tesseract."""

from datetime import date, datetime
from pathlib import Path

from bot.services.ocr import TextReader
from handlers.legal.backlog import CASES_FILE, SeedEntry, SeedUpload, page_lines, render_file, render_image
from handlers.legal.models import Upload
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from memory.asof import IST

REGISTER = CaseRegister.load(CASES_FILE)


def diary(rotate: float, blur: float) -> SeedUpload:
    return SeedUpload(
        file="IMG_20250619_081500.png", kind="diary", author="aditya", printed_date=date(2025, 6, 18),
        uploaded_at=datetime(2025, 11, 2, 19, 0, tzinfo=IST), rotate=rotate, blur=blur,
        entries=[
            SeedEntry(case_id="gorle", ref="Gorle partition O.S. 88/2023", hearing_date=date(2025, 6, 18),
                      next_date=date(2025, 7, 16), text="PW1 chief affidavit filed, marked Ex.A1 to A6"),
            SeedEntry(case_id="seabreeze", ref="Seabreeze SP suit", hearing_date=date(2025, 6, 18),
                      next_date=date(2025, 7, 2), text="counsel for defendant sought time for written statement"),
        ])


def read_and_split(tmp_path: Path, spec: SeedUpload) -> tuple[str, set[tuple[str | None, date, date | None]]]:
    path = tmp_path / spec.file
    path.write_bytes(render_file(spec, REGISTER))
    text = TextReader().read(path).text
    upload = Upload(upload_id="u", source_file=spec.file, uploaded_at=spec.uploaded_at, author="A", author_id="a")
    return text, {(e.case_id, e.hearing_date, e.next_date) for e in segment(text, REGISTER, upload)}


def test_straight_diary_page_is_read_and_split(tmp_path: Path) -> None:
    text, entries = read_and_split(tmp_path, diary(0.0, 0.0))
    assert "18 JUNE 2025" in text
    assert entries == {("gorle", date(2025, 6, 18), date(2025, 7, 16)),
                       ("seabreeze", date(2025, 6, 18), date(2025, 7, 2))}


def test_rotated_blurred_diary_page_is_still_dated_by_its_header(tmp_path: Path) -> None:
    text, entries = read_and_split(tmp_path, diary(1.6, 1.1))
    assert entries == {("gorle", date(2025, 6, 18), date(2025, 7, 16)),
                       ("seabreeze", date(2025, 6, 18), date(2025, 7, 2))}


def test_scanned_order_sheet_image(tmp_path: Path) -> None:
    spec = SeedUpload(
        file="certified.png", kind="order_sheet", author="divya", uploaded_at=datetime(2026, 3, 16, 20, 40, tzinfo=IST),
        filed_on=date(2023, 2, 6), copy_applied=date(2026, 2, 23), copy_ready=date(2026, 3, 13), rotate=-1.2, blur=0.8,
        entries=[SeedEntry(case_id="gorle", ref="Gorle", hearing_date=date(2026, 1, 7), next_date=date(2026, 2, 18),
                           text="objections to commissioner's report filed by D1")])
    assert any("ORDER SHEET" in line for line in page_lines(spec, REGISTER))
    _, entries = read_and_split(tmp_path, spec)
    assert entries == {("gorle", date(2026, 1, 7), date(2026, 2, 18))}


def test_a_non_image_photo_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "photo.png"
    bogus.write_bytes(b"not an image at all")
    try:
        TextReader().read(bogus)
    except ValueError as exc:
        assert "not an image" in str(exc)
    else:
        raise AssertionError("a bogus image must be refused")
    assert render_image(["x"]).startswith(b"\x89PNG")
