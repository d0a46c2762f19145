"""Invariants over generated uploads for the formats and markers the second corpus batch found missing.

Batch 2 of tests/corpus/legal was written by an author who had not read the rules; each family of its misses
is generated here in every date format: R/J, "args on", "further chief on", "for hearing on", a date followed
by "call on", "adjourned to the 3rd of ...", a weekday between marker and date, rows after a line that already
gave its next date, a court's name beside a diary date, "on Wednesday", eCourts printouts with a filing
number before the registration number, and a matter of an unregistered number beside a registered one.
"""

from datetime import date, datetime, time, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.legal.models import CaseRecord
from handlers.legal.segment import segment
from memory.asof import IST
from tests.legal.test_hearing_invariants import (
    _MONTHS,
    CASES,
    FILLERS,
    FULL_FORMATS,
    REGISTER,
    _ordinal,
    _ref,
    _upload,
    dates_and_upload,
)

_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

NEXT_MARKERS_2 = [
    "R/J {d}", "R/J. {d}", "args on {d}", "accused args {d}", "Respondent's args on {d}", "Further chief on {d}",
    "further cross on {d}", "For hearing on {d}", "{d} call on", "{d} - call on", "judgment expected on {d}",
    "judgment {d}", "stood over to {d}", "c/o {d}", "posted to\n{d}", "Adj. to {d} for objections.",
    "Call on {d} for enquiry.",
]
# Written out by hand: the day with its ordinal and "of", or the weekday between the marker and the date.
NEXT_WORDED = [
    lambda d, f: f"Adjourned to the {_ordinal(d.day)} of {_MONTHS[d.month - 1]}, {d.year}",
    lambda d, f: f"adjourned to {_WEEKDAYS[d.weekday()]}, {f(d)}",
    lambda d, f: f"posted to {_WEEKDAYS[d.weekday()]} {f(d)}",
]
COURTS = ["JFCM Jangaon", "Prl. Dist. Judge Karimnagar", "JCJ Bhongir", "Family Court Hyderabad",
          "Addl SCJ Mahabubnagar", "MACT Nizamabad", "I ASJ Karimnagar", "JFCM జనగామ"]


def _marked(draw: st.DrawFn, nxt: date) -> str:
    written = draw(st.sampled_from(FULL_FORMATS))
    if draw(st.booleans()):
        return str(draw(st.sampled_from(NEXT_WORDED))(nxt, written))
    return str(draw(st.sampled_from(NEXT_MARKERS_2)).format(d=written(nxt)))


@st.composite
def new_marker_pages(draw: st.DrawFn) -> tuple[str, CaseRecord, date, date, datetime]:
    hearing, nxt, uploaded_at = draw(dates_and_upload())
    case = draw(st.sampled_from(CASES))
    ref = _ref(case, draw(st.integers(min_value=0, max_value=9)))
    written_h = str(draw(st.sampled_from(FULL_FORMATS))(hearing))
    filler = draw(st.sampled_from(FILLERS))
    text = draw(st.sampled_from([f"{written_h} {ref} - {filler}. {{m}}", f"{ref} — {written_h} — {filler}. {{m}}"]))
    return text.replace("{m}", _marked(draw, nxt)), case, hearing, nxt, uploaded_at


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(new_marker_pages())
def test_new_markers_give_the_next_date_without_doubt(page: tuple[str, CaseRecord, date, date, datetime]) -> None:
    text, case, hearing, nxt, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert all(e.hearing_date <= uploaded_at.date() for e in entries)
    mine = [e for e in entries if e.case_id == case.case_id]
    assert [(e.hearing_date, e.next_date) for e in mine] == [(hearing, nxt)], text
    assert not mine[0].needs_review, text


@st.composite
def sheets_with_purpose_after_next(draw: st.DrawFn) -> tuple[str, CaseRecord, list[tuple[date, date]], datetime]:
    first, _, _ = draw(dates_and_upload())
    days = [first]
    for gap in draw(st.lists(st.integers(min_value=1, max_value=60), min_size=2, max_size=5)):
        days.append(days[-1] + timedelta(days=gap))
    pairs = list(zip(days[:-1], days[1:], strict=True))
    uploaded_at = datetime.combine(days[-2] + timedelta(days=draw(st.integers(0, 40))), time(11, 0), IST)
    case = draw(st.sampled_from(CASES))
    fmt = draw(st.sampled_from(FULL_FORMATS[:7]))  # numeric forms, as order sheets print them
    start = draw(st.sampled_from(["Dt.{d}:", "{n}      {d}    ", "{n} | {d} |", "{d} -"]))
    purpose = draw(st.sampled_from(["for objections.", "for enquiry.", "for evidence of PW2.", "for reply"]))
    rows = [f"{start.format(n=n, d=fmt(day))} {draw(st.sampled_from(FILLERS))}. "
            f"{draw(st.sampled_from(['Adj. to', 'Call on', 'Posted to', 'N.D.']))} {fmt(nxt)} {purpose}"
            for n, (day, nxt) in enumerate(pairs, start=10)]
    text = "\n".join([f"{case.numbers[0]}", f"On the file of the {draw(st.sampled_from(COURTS))}", case.title,
                      "", *rows])
    return text, case, pairs, uploaded_at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets_with_purpose_after_next())
def test_a_row_after_a_line_that_gave_its_next_date_is_a_row_of_its_own(
        sheet: tuple[str, CaseRecord, list[tuple[date, date]], datetime]) -> None:
    text, case, pairs, uploaded_at = sheet
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert sorted((e.case_id, e.hearing_date, e.next_date) for e in entries) == \
        [(case.case_id, day, nxt) for day, nxt in pairs], text


@st.composite
def diary_with_court_beside_date(draw: st.DrawFn) -> tuple[str, list[tuple[str | None, date]], date, datetime]:
    hearing, _, uploaded_at = draw(dates_and_upload())
    pair = draw(st.lists(st.sampled_from(CASES), min_size=1, max_size=2, unique_by=lambda c: c.case_id))
    weekday = draw(st.sampled_from([_WEEKDAYS[hearing.weekday()], f"{hearing:%a}", ""]))
    head = f"{draw(st.sampled_from(FULL_FORMATS[:8]))(hearing)} {weekday}  {draw(st.sampled_from(COURTS))}"
    lines, expected = [head], []
    for index, case in enumerate(pair):
        nxt = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=90)))
        lines.append(f"{index + 1}) {_ref(case, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}. "
                     f"N.D. {nxt:%d.%m.%Y}")
        expected.append((case.case_id, nxt))
    if draw(st.booleans()):  # a matter of someone else's, numbered but not in the register, on the same day
        nxt = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=90)))
        lines.insert(1, f"High Court — W.P. 28814/2026 (Gram Panchayat) — notice. list on {nxt:%d.%m.%Y}")
        expected.append((None, nxt))
    return "\n".join(lines), expected, hearing, uploaded_at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(diary_with_court_beside_date())
def test_a_date_with_a_court_beside_it_dates_every_matter_under_it(
        page: tuple[str, list[tuple[str | None, date]], date, datetime]) -> None:
    text, expected, hearing, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    got = sorted(((e.case_id or ""), e.hearing_date, e.next_date) for e in entries)
    assert got == sorted(((case_id or ""), hearing, nxt) for case_id, nxt in expected), text
    assert not any(e.guessed for e in entries), text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dates(min_value=date(2022, 1, 1), max_value=date(2029, 1, 1)), st.integers(0, 6),
       st.sampled_from(CASES), st.integers(0, 9), st.integers(1, 90), st.sampled_from(["On", "on", "Last", "last"]))
def test_on_a_weekday_is_the_latest_such_day_up_to_the_upload(upload_day: date, back: int, case: CaseRecord,
                                                              how: int, ahead: int, word: str) -> None:
    if word.lower() == "last" and back == 0:
        back = 7
    hearing = upload_day - timedelta(days=back)
    nxt = hearing + timedelta(days=ahead)
    text = f"{word} {_WEEKDAYS[hearing.weekday()]}, {_ref(case, how)}: counter filed. Posted to {nxt:%d.%m.%Y}."
    [entry] = segment(text, REGISTER, _upload(datetime.combine(upload_day, time(9, 30), IST)))
    assert (entry.case_id, entry.hearing_date, entry.next_date) == (case.case_id, hearing, nxt), text
    assert not entry.guessed


@st.composite
def ecourts_printouts(draw: st.DrawFn) -> tuple[str, CaseRecord, list[tuple[date, date]], datetime]:
    case = draw(st.sampled_from([c for c in CASES if c.numbers]))
    kind, _, number = case.numbers[0].rpartition(" ")
    first, _, _ = draw(dates_and_upload())
    days = [first]
    for gap in draw(st.lists(st.integers(min_value=1, max_value=60), min_size=2, max_size=4)):
        days.append(days[-1] + timedelta(days=gap))
    pairs = list(zip(days[:-1], days[1:], strict=True))
    uploaded_at = datetime.combine(days[-1] + timedelta(days=draw(st.integers(0, 30))), time(10, 0), IST)
    filing = f"{draw(st.integers(1, 9999))}/{first.year - 1}"
    rows = [f"{case.court or 'Court'}    {day:%d-%m-%Y}         {nxt:%d-%m-%Y}     Evidence" for day, nxt in pairs]
    text = "\n".join([
        "Case Status : PENDING", f"Case Type : {kind}        Filing Number : {filing}     Filing Date : "
        f"{first - timedelta(days=400):%d-%m-%Y}", f"Registration Number : {number}", "",
        "History of Case Hearing", "Judge                          Business On Date   Hearing Date   Purpose",
        *rows])
    return text, case, pairs, uploaded_at


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ecourts_printouts())
def test_an_ecourts_printout_files_under_its_registration_number(
        sheet: tuple[str, CaseRecord, list[tuple[date, date]], datetime]) -> None:
    text, case, pairs, uploaded_at = sheet
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert sorted((e.case_id, e.hearing_date, e.next_date) for e in entries) == \
        [(case.case_id, day, nxt) for day, nxt in pairs], text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets_with_purpose_after_next())
def test_an_order_sheet_naming_its_case_only_under_its_rows_files_every_row_there(
        sheet: tuple[str, CaseRecord, list[tuple[date, date]], datetime]) -> None:
    text, case, pairs, uploaded_at = sheet
    header, _, rows = text.partition("\n\n")
    footer = header.splitlines()[0]  # the case number, moved under the table as a footer
    entries = segment(f"Sl  Date  Order\n{rows}\n{footer}", REGISTER, _upload(uploaded_at))
    assert sorted((e.case_id, e.hearing_date, e.next_date) for e in entries) == \
        [(case.case_id, day, nxt) for day, nxt in pairs], text
