"""Document kinds: a cause list lists, a step and a document on file are kept under their case, and none of them
ever changes a recorded hearing or removes a next date (a property over generated pages and record histories)."""

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.legal.case_dates import last_hearing, lists, next_date
from handlers.legal.models import HearingRecord
from handlers.legal.newcase import case_record, cited_case
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from tests.legal.kinds_corpus import (
    CASES,
    CAUSE_LIST,
    FORMAL_JUDGMENT,
    SPELLED_ORDER,
    HIGH_COURT_ORDER,
    JUDGMENT,
    NO_YEAR,
    OFFICE_NOTE,
    RECEIPT,
    REGISTER,
    TWO_CASES,
    VAKALAT,
    upload,
)


def _read(text: str, at: str) -> list[tuple[str | None, str, date, date | None]]:
    return sorted((e.case_id, e.kind, e.hearing_date, e.next_date) for e in segment(text, REGISTER, upload(at)))


def test_a_cause_list_lists_the_registered_cases_for_its_day_and_records_no_hearing() -> None:
    assert _read(CAUSE_LIST, "2026-12-04T18:00") == [
        ("as-112-2023", "listing", date(2026, 12, 7), date(2026, 12, 7)),
        ("os-231-2024", "listing", date(2026, 12, 7), date(2026, 12, 7)),
    ]  # dated by the list's own day, not its upload; A.S. 45/2022 is another lawyer's matter: not proposed as a case of the practice


def test_an_office_note_of_a_service_and_a_deadline_is_a_step() -> None:
    assert _read(OFFICE_NOTE, "2026-12-10T17:00") == [("cc-77-2025", "step", date(2026, 12, 10), None)]


def test_receipts_and_vakalats_are_documents_of_their_case_dated_by_their_own_date() -> None:
    assert _read(RECEIPT, "2026-12-01T10:00") == [("cc-77-2025", "document", date(2026, 11, 12), None)]
    assert _read(VAKALAT, "2026-12-01T10:00") == [("os-231-2024", "document", date(2025, 2, 3), None)]


def test_orders_are_dated_by_their_pronouncement_and_keep_their_operative_next_date() -> None:
    assert _read(JUDGMENT, "2026-09-24T11:00") == [("as-112-2023", "hearing", date(2026, 9, 21), None)]
    assert _read(HIGH_COURT_ORDER, "2026-11-28T11:00") == [
        ("wp-1234-2026", "hearing", date(2026, 11, 26), date(2027, 1, 7))]


def test_a_day_and_month_without_a_year_heading_a_note_is_its_hearing() -> None:
    assert _read(NO_YEAR, "2026-09-24T19:00") == [("as-112-2023", "hearing", date(2026, 9, 22), None)]


def test_two_cases_on_one_today_line_split_by_a_semicolon_are_both_filed_on_that_day() -> None:
    assert _read(TWO_CASES, "2026-12-02T18:00") == [
        ("cc-77-2025", "hearing", date(2026, 12, 2), date(2026, 12, 20)),
        ("os-231-2024", "hearing", date(2026, 12, 2), date(2026, 12, 15)),
    ]


# Pages of the kinds that must never be hearings, written from parts (who, what, where, when due).
_WHO = st.sampled_from(["GP", "Opposite counsel", "The clerk", "We", "Respondent's advocate", "Our junior"])
_DONE = st.sampled_from(["served counter copy", "filed vakalat", "paid the court fee", "received the notice",
                         "deposited the cost", "presented the memo", "sent the draft reply by courier"])
_WHERE = st.sampled_from(["in office", "at our office", "", "in the office today"])
_DUE = st.sampled_from(["", "Reply to be filed before {d}/{m}.", "Last date for filing is {d}.{m}.2027.",
                        "Rejoinder due by {d}/{m}."])


@st.composite
def step_notes(draw: st.DrawFn) -> str:
    case = draw(st.sampled_from(["Durga cheque case", "Pendyala suit", "Mothe appeal", "Nandigama writ"]))
    day, month = draw(st.integers(1, 28)), draw(st.integers(1, 12))
    due = draw(_DUE).format(d=day, m=month)
    return f"{case}: {draw(_WHO)} {draw(_DONE)} {draw(_WHERE)}. {due}".replace(" .", ".").strip()


@st.composite
def receipts(draw: st.DrawFn) -> str:
    title = draw(st.sampled_from(["RECEIPT", "FEE RECEIPT", "Cash receipt No. 17", "VAKALATNAMA",
                                  "Memo of appearance"]))
    number = draw(st.sampled_from(["C.C. 77/2025", "O.S. 231/2024", "A.S. 112/2023"]))
    day = draw(st.dates(date(2025, 1, 1), date(2026, 11, 30)))
    return f"{title}\nIn {number}: received Rs. {draw(st.integers(100, 90000))}/-.\nDate: {day:%d.%m.%Y}"


@settings(max_examples=60, deadline=None)
@given(page=st.one_of(step_notes(), receipts()))
def test_no_step_or_document_is_ever_read_as_a_hearing_or_given_a_next_date(page: str) -> None:
    entries = segment(page, REGISTER, upload("2026-12-15T18:00"))
    assert entries and all(e.kind in ("step", "document") and e.next_date is None for e in entries), page


def _hearing(n: int, day: date, nxt: date | None) -> HearingRecord:
    return HearingRecord(document_id=f"h{n}", case_id="c", kind="hearing", hearing_date=day, next_date=nxt)


@st.composite
def histories(draw: st.DrawFn) -> list[HearingRecord]:
    day, records = date(2026, 1, 5), []
    for n in range(draw(st.integers(1, 6))):
        nxt = day + timedelta(days=draw(st.integers(3, 40)))
        records.append(_hearing(n, day, draw(st.sampled_from([nxt, nxt, None]))))
        day = nxt
    return records


@st.composite
def others(draw: st.DrawFn) -> list[HearingRecord]:
    kinds = st.sampled_from(["step", "document", "listing"])
    made = []
    for n in range(draw(st.integers(1, 6))):
        kind = draw(kinds)
        day = draw(st.dates(date(2025, 6, 1), date(2027, 6, 1)))
        listed = day + timedelta(days=draw(st.integers(0, 30))) if kind == "listing" else None
        made.append(HearingRecord(document_id=f"o{n}", case_id="c", kind=kind, hearing_date=day, next_date=listed))
    return made


@settings(max_examples=200, deadline=None)
@given(history=histories(), added=others())
def test_no_listing_step_or_document_changes_a_hearing_or_removes_a_next_date(history: list[HearingRecord],
                                                                            added: list[HearingRecord]) -> None:
    before_last, before_next = last_hearing(history), next_date(history)
    after = history + added
    assert last_hearing(after) == before_last
    after_next = next_date(after)
    if before_next is not None:
        assert after_next is not None  # never erased
    if all(r.kind != "listing" for r in added):
        assert after_next == before_next  # only hearings and listings move dates
    latest = max(added, key=lambda r: r.hearing_date)
    alone = sum(r.hearing_date == latest.hearing_date for r in added) == 1
    if alone and latest.kind == "listing" and latest.next_date is not None and latest.hearing_date > max(
            r.hearing_date for r in history) and latest.next_date > latest.hearing_date:
        assert lists(after, latest.next_date) is not None  # the latest list, issued after the last hearing, lists it


def test_a_spelled_out_case_type_names_its_case_or_proposes_it_with_its_cause_title() -> None:
    assert _read(SPELLED_ORDER, "2026-11-28T11:00") == [
        ("wp-1234-2026", "hearing", date(2026, 11, 26), date(2027, 1, 7))]
    without = CaseRegister([c for c in CASES if c.case_id != "wp-1234-2026"])
    [entry] = segment(SPELLED_ORDER, without, upload("2026-11-28T11:00"))
    proposed = cited_case(entry.text, SPELLED_ORDER, without)
    assert proposed is not None and proposed.number == "WRIT PETITION No. 1234 OF 2026"
    assert proposed.title == "Gram Panchayat Nandigama v. State of Telangana"
    assert case_record(proposed, without).case_id == "wp-1234-2026"


def test_a_judgment_is_dated_by_the_day_it_is_pronounced() -> None:
    assert _read(FORMAL_JUDGMENT, "2026-09-24T11:00") == [("as-112-2023", "hearing", date(2026, 9, 21), None)]
