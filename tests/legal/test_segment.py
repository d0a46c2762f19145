"""Splitting uploads into hearing entries without a model: one entry per case per hearing, dated right."""

from datetime import date, datetime

from handlers.legal.backlog import CASES_FILE
from handlers.legal.models import GUESSED_CONFIDENCE_CAP, Upload
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from memory.asof import IST

REGISTER = CaseRegister.load(CASES_FILE)


def upload(name: str, when: str = "2026-09-25T21:00:00") -> Upload:
    return Upload(upload_id="u1", source_file=name, uploaded_at=datetime.fromisoformat(when).replace(tzinfo=IST),
                  author="Divya", author_id="divya")


def test_typed_note_is_dated_by_its_own_date_not_the_next_date_or_the_upload() -> None:
    [entry] = segment("24/9 Seabreeze SP suit - objections to IA 1187/2026 amendment : draft 60% done. N.D. 15/10",
                      REGISTER, upload("note.txt", "2026-09-27T22:10:00"))
    assert (entry.case_id, entry.hearing_date, entry.next_date) == ("seabreeze", date(2026, 9, 24), date(2026, 10, 15))
    assert entry.date_source == "text" and not entry.needs_review


def test_the_next_date_trap_a_note_whose_only_date_is_the_next_date() -> None:
    # The only date written is the NEXT date: it must not become the hearing date; the date is then a guess.
    [entry] = segment("Seabreeze SP suit: N.D. 15.10.2026 - objections draft 60% done", REGISTER,
                      upload("divya_note.txt", "2026-09-25T21:00:00"))
    assert entry.hearing_date != date(2026, 10, 15)
    assert entry.next_date == date(2026, 10, 15)
    assert entry.date_source == "upload_time" and entry.needs_review
    assert entry.confidence <= GUESSED_CONFIDENCE_CAP


def test_order_sheet_rows_are_hearings_and_filing_and_copy_dates_are_not() -> None:
    text = "\n".join([
        "IN THE COURT OF THE II ADDITIONAL DISTRICT JUDGE, VISAKHAPATNAM", "O.S. No. 214 of 2024",
        "ORDER SHEET (CERTIFIED COPY)", "Plaint presented on 11.03.2024.",
        "22.06.2026: Counsel for defendant again sought time to file counter in IA 1187/2026. Call on",
        "14.07.2026.",
        "14.07.2026: Counter filed. Call on 27.08.2026.",
        "Certified copy applied on 01.09.2026, made ready on 20.09.2026.",
    ])
    entries = segment(text, REGISTER, upload("os.pdf"))
    assert [(e.case_id, e.hearing_date, e.next_date, e.date_source) for e in entries] == [
        ("seabreeze", date(2026, 6, 22), date(2026, 7, 14), "row"),
        ("seabreeze", date(2026, 7, 14), date(2026, 8, 27), "row"),
    ]


def test_diary_page_gives_one_entry_per_case_under_the_printed_date() -> None:
    text = ("WEDNESDAY 18 JUNE 2025\n\nGorle partition 0.5. 88/2023 - PW1 chief affidavit filed,\n"
            "marked Ex.A1 to A6 including the 2011 sale deed. N.D. 16.07.2025\n"
            "Seabreeze SP suit - counsel sought time for\nwritten statement. Adjourned to 02.07.2025\n"
            "Lakshmi Textiles W.P. 10422/2025 - not reached.\n\nnext date 25.06.2025")
    entries = segment(text, REGISTER, upload("IMG_20250619_081500.jpg", "2025-11-02T19:00:00"))
    assert {(e.case_id, e.hearing_date, e.next_date) for e in entries} == {
        ("gorle", date(2025, 6, 18), date(2025, 7, 16)),
        ("seabreeze", date(2025, 6, 18), date(2025, 7, 2)),
        ("lakshmi-textiles", date(2025, 6, 18), date(2025, 6, 25)),
    }
    assert all(e.date_source == "header" for e in entries)  # the page wins over the file name (19 June)


def test_a_deed_is_a_document_dated_by_itself_never_a_hearing() -> None:
    text = ("SALE DEED\nThis deed of sale is executed on this the 14th day of March, 2011\n"
            "at Anakapalli by Sri Gorle Appala Naidu ... paid on 02.03.2011.")
    [entry] = segment(text, REGISTER, upload("scan.png", "2026-06-08T20:30:00"))
    assert (entry.kind, entry.case_id, entry.hearing_date) == ("document", "gorle", date(2011, 3, 14))


def test_a_date_guessed_from_the_file_name_caps_confidence_and_needs_review() -> None:
    [entry] = segment("Dwaraka Nagar shop - RW1 chief affidavit filed. N.D. 22.04.2026", REGISTER,
                      upload("IMG_20260311_081204.png", "2026-03-15T21:10:00"))
    assert (entry.hearing_date, entry.date_source) == (date(2026, 3, 11), "file_name")
    assert entry.confidence <= GUESSED_CONFIDENCE_CAP and entry.needs_review


def test_text_naming_no_known_case_is_unfiled_and_needs_review() -> None:
    [entry] = segment("12/9 Sunrise Apartments - counter filed", REGISTER, upload("n.txt"))
    assert entry.case_id is None and entry.needs_review


def test_today_is_the_upload_day_and_a_later_date_is_the_next_date_never_the_hearing() -> None:
    [entry] = segment("Gorle today - plaintiff side arguments over, defendants to argue on 16.12.2026", REGISTER,
                      upload("chat", "2026-12-02T19:10:00"))
    assert (entry.case_id, entry.hearing_date, entry.next_date) == ("gorle", date(2026, 12, 2), date(2026, 12, 16))
    assert entry.date_source == "text" and not entry.needs_review


def test_next_date_markers_before_after_and_across_a_line_break() -> None:
    for written in ("Adjd. to 19.11.2026", "Next 19.11.2026", "posted to 19.11.2026", "for orders on 19.11.2026",
                    "reserved for pronouncement on\n19.11.2026", "NDOH 19.11.2026", "19.11.2026 (N.D.)",
                    "to come up for orders on 19.11.2026", "stands over to 19-11-2026", "19.11.26 కు వాయిదా",
                    "list on 19th November 2026", "call on Nov 19, 2026"):
        [entry] = segment(f"05.11.2026 Seabreeze SP suit - counsel sought time. {written}", REGISTER,
                          upload("n.txt", "2026-11-06T09:00:00"))
        assert (entry.hearing_date, entry.next_date, entry.doubt) == (date(2026, 11, 5), date(2026, 11, 19), None), \
            written


def test_a_certified_copy_names_its_case_once_and_its_header_is_no_entry() -> None:
    text = "\n".join([
        "CERTIFIED COPY OF PROCEEDINGS IN O.S. 88/2023, SENIOR CIVIL JUDGE, ANAKAPALLI",
        "14.10.2026  Plaintiff present. Defendants called absent. Adj. to 04.11.2026",
        "04.11.2026  PW1 chief affidavit filed. For cross on",
        "            25.11.2026.",
    ])
    entries = segment(text, REGISTER, upload("cc.pdf", "2026-11-30T12:00:00"))
    assert [(e.case_id, e.hearing_date, e.next_date) for e in entries] == [
        ("gorle", date(2026, 10, 14), date(2026, 11, 4)), ("gorle", date(2026, 11, 4), date(2026, 11, 25))]


def test_a_table_order_sheet_with_serial_numbers() -> None:
    text = "\n".join([
        "Lakshmi Textiles v. State of Andhra Pradesh", "Sl. | Date | Order",
        "1 | 14.10.2026 | Counter filed by GP. NDOH 04.12.2026",
        "2 | 04.12.2026 | Reply filed. To come up for orders on 18.12.2026",
    ])
    entries = segment(text, REGISTER, upload("os.txt", "2026-12-05T10:00:00"))
    assert [(e.case_id, e.hearing_date, e.next_date, e.needs_review) for e in entries] == [
        ("lakshmi-textiles", date(2026, 10, 14), date(2026, 12, 4), False),
        ("lakshmi-textiles", date(2026, 12, 4), date(2026, 12, 18), False)]


def test_a_diary_date_in_words_is_the_page_date_and_gives_no_stray_entry() -> None:
    text = "25 November 2026\nMahesh 138 - sentence hearing, accused absent. N.D. 9.12.2026"
    [entry] = segment(text, REGISTER, upload("IMG_20261201_101010.jpg", "2026-12-01T10:10:00"))
    assert (entry.case_id, entry.hearing_date, entry.date_source, entry.next_date) == (
        "mahesh-cheque", date(2026, 11, 25), "header", date(2026, 12, 9))


def test_a_next_date_column_makes_the_later_date_of_a_row_its_next_date_without_doubt() -> None:
    rows = ["1  | 14-10-2026 | Counter filed by GP            | 04-12-2026",
            "2  | 04-12-2026 | Reply filed, arguments heard    | 18-12-2026"]
    headers = (("Sl | Date | Proceedings | Next date", None), ("Sl | Date | Proceedings | Remarks", "next_date"))
    for header, doubt in headers:
        text = "\n".join(["W.P. 10422/2025 (Lakshmi Textiles)", header, *rows])
        entries = segment(text, REGISTER, upload("wp.txt", "2026-12-10T10:00:00"))
        assert [(e.case_id, e.hearing_date, e.next_date, e.doubt) for e in entries] == [
            ("lakshmi-textiles", date(2026, 10, 14), date(2026, 12, 4), doubt),
            ("lakshmi-textiles", date(2026, 12, 4), date(2026, 12, 18), doubt)], header
        assert all(e.needs_review == (doubt is not None) for e in entries)
