"""Office paper and court paper of the shapes a chambers' walk brought (pages written here, never the walk's):
a week's board led by each row's day, an office note with a dated title and numbered items, notes of copies to
collect and papers to file (steps, however they mention a hearing to come or an order's copy), receipts under a
letterhead or an office's name, and orders whose own date is a label ("Proceedings dated", "Wednesday, the
25th day of ...") beside other dates (an appealed judgment's, evidence closed on)."""

from datetime import date

import pytest

from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload


def _read(text: str, at: str) -> list[tuple[str | None, str, date, date | None]]:
    return sorted((e.case_id, e.kind, e.hearing_date, e.next_date) for e in segment(text, REGISTER, upload(at)))


def test_a_weeks_board_lists_each_case_on_the_day_its_row_is_led_by() -> None:
    board = """Matters for the coming week (typed 12/12/2026)
Mon 14.12  JCJ Vikarabad   O.S. 231/2024 (Pendyala)  PW2 chief
Wed 16.12  ADJ Sangareddy  A.S. 112/2023 (Mothe) - arguments
Fri, 18-12-2026  JFCM Shadnagar  C.C. 77/2025 (Durga) - 313 statement"""
    assert [(c, k, n) for c, k, _, n in _read(board, "2026-12-12T19:00")] == [
        ("as-112-2023", "listing", date(2026, 12, 16)),
        ("cc-77-2025", "listing", date(2026, 12, 18)),
        ("os-231-2024", "listing", date(2026, 12, 14)),
    ]


def test_an_office_note_with_a_dated_title_gives_each_item_a_step_on_that_day() -> None:
    note = """OFFICE NOTE   09/12/2026  (clerk)
1. O.S. 231/2024 (Pendyala suit): client changed his address. File memo of change of address
   before next date. Do not disturb ND.
2. A.S. 112/2023 (Mothe appeal): collect certified copy of the judgment - CA to be applied this week."""
    assert _read(note, "2026-12-09T18:00") == [("as-112-2023", "step", date(2026, 12, 9), None),
                                               ("os-231-2024", "step", date(2026, 12, 9), None)]


@pytest.mark.parametrize("note", [
    "07.12.2026  W.P. 1234/2026 (Nandigama writ)\nCollect certified copy of order dt 26-11-2026 from the copying "
    "section.\nReply affidavit draft sent to client for signature.",
    "07/12/2026 - Mothe appeal: written arguments typed, to be filed before the hearing on Monday. Xerox 2 sets.",
    "07.12.2026 Note - Pendyala suit: copy application filed today for certified copy of the decree.\n"
    " - Collect it on or after 15.12.2026.",
])
def test_notes_of_papers_to_collect_or_file_are_steps_whatever_hearing_they_mention(note: str) -> None:
    [(_, kind, day, nxt)] = _read(note, "2026-12-07T19:00")
    assert (kind, day, nxt) == ("step", date(2026, 12, 7), None), note


@pytest.mark.parametrize(("receipt", "day"), [
    ("K. RAVI, M.A., LL.B.\nADVOCATE\nMain Road, Vikarabad. Cell 90000 11111\nRECEIPT No. 88  Date: 02-12-2026\n"
     "Received from Sri Pendyala Ramesh Rs. 3,000/- towards fee in O.S. 231/2024.", date(2026, 12, 2)),
    ("OFFICE OF THE JUNIOR CIVIL JUDGE, VIKARABAD\nNAZARATH - PROCESS FEE RECEIPT     No. 417\nDate: 30-11-2026\n"
     "Received Rs. 40/- towards process fee for summons in O.S. 231/2024.", date(2026, 11, 30)),
])
def test_a_receipt_under_a_letterhead_or_an_offices_name_is_a_document(receipt: str, day: date) -> None:
    assert _read(receipt, "2026-12-03T10:00") == [("os-231-2024", "document", day, None)]


def test_an_appeals_order_is_dated_by_its_own_day_not_the_appealed_judgments() -> None:
    order = """IN THE COURT OF THE ADDITIONAL DISTRICT JUDGE, SANGAREDDY
Monday, the 30th day of November, 2026
A.S. No. 112 of 2023
(against judgment dt. 14-02-2023 in O.S. No. 15 of 2019 on the file of the Junior Civil Judge)
Appellant absent. Respondent present. Call on 14.12.2026."""
    assert _read(order, "2026-12-01T10:00") == [("as-112-2023", "hearing", date(2026, 11, 30), date(2026, 12, 14))]


def test_proceedings_dated_a_day_are_that_days_hearing_not_the_day_evidence_closed() -> None:
    order = """IN THE COURT OF THE JUNIOR CIVIL JUDGE :: VIKARABAD
O.S. No. 231 of 2024
Proceedings dated 26-11-2026
  Plaintiff present. Evidence on both sides closed on 05-11-2026. Defendant absent; last chance.
For arguments on 16-12-2026."""
    assert _read(order, "2026-11-27T10:00") == [("os-231-2024", "hearing", date(2026, 11, 26), date(2026, 12, 16))]


def test_a_row_that_gives_its_next_date_as_a_span_is_complete_and_the_row_under_it_is_its_own() -> None:
    sheet = """IN THE COURT OF THE JUNIOR CIVIL JUDGE, VIKARABAD
O.S. No. 231 of 2024
ORDER SHEET
Sl.No.  Date        Order
7       02-10-2026  Defendant filed written statement. Call after four weeks for framing of issues.
8       30-10-2026  Issues framed. Posted to 27-11-2026 for plaintiff evidence."""
    assert _read(sheet, "2026-11-02T10:00") == [
        ("os-231-2024", "hearing", date(2026, 10, 2), date(2026, 10, 30)),
        ("os-231-2024", "hearing", date(2026, 10, 30), date(2026, 11, 27)),
    ]


def test_a_docket_whose_row_says_to_a_date_for_a_purpose_keeps_the_dated_line_under_it() -> None:
    docket = """A.S. 112/2023 - Mothe appeal
02.11.2026
Paper book filed. To 23.11.2026 for admission.
23.11.2026
Admitted. Notice to respondent, R/by 14.12.2026"""
    assert _read(docket, "2026-11-24T10:00") == [
        ("as-112-2023", "hearing", date(2026, 11, 2), date(2026, 11, 23)),
        ("as-112-2023", "hearing", date(2026, 11, 23), date(2026, 12, 14)),
    ]


def test_a_judgment_pronounced_by_the_judge_in_open_court_is_dated_that_day() -> None:
    judgment = """IN THE COURT OF THE ADDITIONAL DISTRICT JUDGE, SANGAREDDY
Friday, this the 27th day of November, 2026
A.S. No. 112 of 2023
This appeal coming on for final hearing on 10-11-2026 and having stood over for consideration till this day,
the Court delivered the following:
JUDGMENT
The appeal is dismissed. No costs.
Typed to my dictation, corrected and pronounced by me in the open Court, this the 27th day of November, 2026."""
    assert _read(judgment, "2026-11-30T10:00") == [("as-112-2023", "hearing", date(2026, 11, 27), None)]


def test_a_civil_writs_series_mark_and_an_orders_numbered_paragraphs_make_one_entry_of_its_case() -> None:
    from handlers.legal.models import CaseRecord
    from handlers.legal.register import CaseRegister

    register = CaseRegister([CaseRecord(case_id="vk-7", title="Sri Lakshmi Traders v. State of Telangana",
                                        numbers=["W.P.(C) 55 of 2026"], aliases=["traders writ"])])
    order = """HIGH COURT FOR THE STATE OF TELANGANA AT HYDERABAD
WRIT PETITION No. 55 of 2026
ORDER: (dt. 03-12-2026)
Heard learned counsel for the petitioner and the learned Government Pleader.
2. The Government Pleader seeks time to file counter affidavit.
3. List after three weeks. The interim order dated 12-11-2026 shall continue till then."""
    found = [(e.case_id, e.kind, e.hearing_date, e.next_date)
             for e in segment(order, register, upload("2026-12-04T10:00"))]
    assert found == [("vk-7", "hearing", date(2026, 12, 3), date(2026, 12, 24))]


def test_a_number_with_no_case_type_is_never_proposed_as_a_new_case() -> None:
    from handlers.legal.newcase import cited_case

    deed = "SALE DEED\nRegistered as Document No. 8812/2026 of SRO Kazipet on 14-10-2026."
    assert cited_case(deed, deed, REGISTER) is None
    assert cited_case("W.P. No. 55 of 2026 filed", "", REGISTER) is not None  # a typed number still is


def test_a_day_and_month_typed_with_a_dot_is_a_date_in_a_date_field() -> None:
    from handlers.legal.dates import parse_day
    from handlers.legal.when import days_named

    assert parse_day("7.12", date(2026, 12, 5), nearest=True) == date(2026, 12, 7)
    assert days_named("7.12", date(2026, 12, 5)) == [date(2026, 12, 7)]
    assert days_named("7-12", date(2026, 12, 5)) == [date(2026, 12, 7)]


def test_a_step_typed_in_chat_with_no_date_is_dated_by_the_message_and_a_hearing_stays_a_guess() -> None:
    from handlers.legal.pack import typed_step

    [step] = segment("Durga cheque case: manager changed, file fresh vakalat before next date.", REGISTER,
                     upload("2026-12-05T11:00"))
    assert step.kind == "step" and step.guessed
    dated = typed_step(step)
    assert not dated.guessed and dated.hearing_date == date(2026, 12, 5) and not dated.needs_review
    [hearing] = segment("Durga cheque case - accused absent, NBW issued", REGISTER, upload("2026-12-05T11:00"))
    assert typed_step(hearing).guessed
