"""Invariants of the keyless reader over generated uploads (hypothesis), on the corpus's own register.

For any page built from a hearing date H, an upload time U >= H and a next date N > H, in any date format and
with any next-date marker (before or after the date, across a line break), the entry for the case has hearing
date H and next date N, and no entry has a hearing after U.
"""

from datetime import date, datetime, time, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.legal_corpus import load_register
from handlers.legal.extract import ModelEntry, ModelSegments, check_model_split
from handlers.legal.models import CaseRecord, ProposedEntry, Upload
from handlers.legal.segment import segment
from memory.asof import IST

REGISTER = load_register()
CASES = REGISTER.cases
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]
_TELUGU = ["జనవరి", "ఫిబ్రవరి", "మార్చి", "ఏప్రిల్", "మే", "జూన్", "జులై", "ఆగస్టు", "సెప్టెంబర్", "అక్టోబర్",
           "నవంబర్", "డిసెంబర్"]


def _ordinal(day: int) -> str:
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


FULL_FORMATS = [
    lambda d: d.strftime("%d.%m.%Y"), lambda d: d.strftime("%d/%m/%Y"), lambda d: d.strftime("%d-%m-%Y"),
    lambda d: d.strftime("%d.%m.%y"), lambda d: d.strftime("%d/%m/%y"), lambda d: f"{d.day}.{d.month}.{d:%y}",
    lambda d: f"{d.day}-{d.month}-{d.year}", lambda d: f"{d.day} {_MONTHS[d.month - 1]} {d.year}",
    lambda d: f"{_ordinal(d.day)} {_MONTHS[d.month - 1][:3]} {d.year}",
    lambda d: f"{_ordinal(d.day)} {_MONTHS[d.month - 1]}, {d.year}",
    lambda d: f"{_MONTHS[d.month - 1][:3]} {d.day}, {d.year}", lambda d: f"{d.day} {_TELUGU[d.month - 1]} {d.year}",
    lambda d: f"{d:%d} . {d:%m} . {d.year}",
]
ROW_STARTS = ["{n} | {d} |", "{n}. {d}", "Sl.No. {n}   Date: {d}  ", "{d} :", "Dt. {d} -", "({n}) {d}"]
SHORT_FORMATS = [lambda d: f"{d.day}/{d.month}", lambda d: f"{_ordinal(d.day)} {_MONTHS[d.month - 1]}"]

NEXT_MARKERS = [
    "N.D. {d}", "N.D {d}", "ND: {d}", "NDOH {d}", "NDOH: {d}", "Adjd. to {d}", "adj. to {d}", "Adj {d}",
    "adjourned to {d}", "Next {d}", "next date {d}", "Next hearing: {d}", "posted to {d}", "Posted for cross to {d}",
    "call on {d}", "Call on\n{d}", "list on {d}", "for orders on {d}", "reserved for judgment on {d}",
    "Reserved for pronouncement on\n{d}", "stands over to {d}", "defendants to argue on {d}",
    "to come up for orders on {d}", "For arguments on {d}", "{d} (N.D.)", "{d} is the next date",
    "{d} కు వాయిదా", "వాయిదా {d}", "తదుపరి తేదీ {d}", "{d} ki vaayida", "judgment on {d}",
    "Next date of hearing is {d}", "nd {d}", "NDOH-{d}", "N.D : {d}", "fixed to {d}", "For judgment {d}",
]
FILLERS = [
    "counter filed", "PW1 cross part heard", "arguments heard in part", "counsel sought time, granted",
    "petitioner absent, counsel present", "IA 455/2026 heard", "W.S. filed, issues settled",
    "వాది సాక్షి హాజరు కాలేదు", "DW2 chief affidavit filed, marked Ex.B1 to B4", "no time, not reached",
]


def _ref(case: CaseRecord, how: int) -> str:
    names = [*case.aliases, case.numbers[0], f"{case.aliases[0]} ({case.numbers[0]})"]
    return names[how % len(names)]


@st.composite
def dates_and_upload(draw: st.DrawFn) -> tuple[date, date, datetime]:
    hearing = draw(st.dates(min_value=date(2021, 1, 1), max_value=date(2029, 6, 30)))
    lag = draw(st.integers(min_value=0, max_value=500))
    upload_day = hearing + timedelta(days=lag)
    nxt = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=200)))
    at = time(draw(st.integers(min_value=7, max_value=23)), draw(st.sampled_from([0, 15, 40, 59])))
    return hearing, nxt, datetime.combine(upload_day, at, IST)


def _written(draw: st.DrawFn, day: date, short_ok: bool) -> str:
    formats = FULL_FORMATS + (SHORT_FORMATS if short_ok else [])
    return str(draw(st.sampled_from(formats))(day))


def _upload(uploaded_at: datetime, name: str = "note.txt") -> Upload:
    return Upload(upload_id="h", source_file=name, uploaded_at=uploaded_at, author="Clerk", author_id="clerk")


def _no_hearing_after_upload(entries: list[ProposedEntry], uploaded_at: datetime) -> None:
    assert all(e.hearing_date <= uploaded_at.astimezone(IST).date() for e in entries)


@st.composite
def one_case_pages(draw: st.DrawFn) -> tuple[str, CaseRecord, date, date, datetime]:
    hearing, nxt, uploaded_at = draw(dates_and_upload())
    case = draw(st.sampled_from(CASES))
    ref = _ref(case, draw(st.integers(min_value=0, max_value=9)))
    written_h = _written(draw, hearing, (uploaded_at.date() - hearing).days < 300)
    next_part = draw(st.sampled_from(NEXT_MARKERS)).format(d=_written(draw, nxt, (nxt - hearing).days < 300))
    filler = draw(st.sampled_from(FILLERS))
    # Dates that are neither: a filing date and a previous date before H, a deadline after it.
    before = hearing - timedelta(days=draw(st.integers(min_value=1, max_value=700)))
    deadline = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=60)))
    filler += draw(st.sampled_from(["", f". Plaint presented on {before:%d.%m.%Y}", f". P.D. was {before:%d/%m/%Y}",
                                    f". Batta to be paid by {deadline:%d.%m.%Y}"]))
    layouts = [
        f"{written_h} {ref} - {filler}. {next_part}",
        f"{ref} — {written_h} — {filler}. {next_part}",
        f"{hearing:%A} {written_h}\n{ref} - {filler}. {next_part}",
        (f"IN THE COURT OF THE SENIOR CIVIL JUDGE, NALGONDA\n{case.numbers[0]}\n{case.title}\n\n"
         f"Sl. | Date | Order\n1 | {written_h} | {filler}. {next_part}"),
    ]
    today = draw(st.sampled_from(["today", "this morning", "ఈ రోజు", "నేడు", "ivala", "ee roju"]))
    yesterday = draw(st.sampled_from(["yesterday", "నిన్న", "ninna"]))
    if uploaded_at.date() == hearing:
        layouts.append(f"{ref} {today} - {filler}. {next_part}")
    if uploaded_at.date() == hearing + timedelta(days=1):
        layouts.append(f"{ref}: {yesterday} {filler}. {next_part}")
    return draw(st.sampled_from(layouts)), case, hearing, nxt, uploaded_at


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_case_pages())
def test_the_hearing_is_h_and_the_next_date_n_in_any_format_and_marker(
        page: tuple[str, CaseRecord, date, date, datetime]) -> None:
    text, case, hearing, nxt, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    _no_hearing_after_upload(entries, uploaded_at)
    mine = [e for e in entries if e.case_id == case.case_id]
    assert [(e.hearing_date, e.next_date) for e in mine] == [(hearing, nxt)], text
    assert not mine[0].needs_review, text


@st.composite
def order_sheets(draw: st.DrawFn) -> tuple[str, CaseRecord, list[tuple[date, date]], datetime]:
    first, _, _ = draw(dates_and_upload())
    gaps = draw(st.lists(st.integers(min_value=1, max_value=90), min_size=2, max_size=6))
    days = [first]
    for gap in gaps:
        days.append(days[-1] + timedelta(days=gap))
    hearings = days[:-1]
    uploaded_at = datetime.combine(hearings[-1] + timedelta(days=draw(st.integers(0, 60))), time(16, 0), IST)
    case = draw(st.sampled_from(CASES))
    rows = []
    for serial, (day, nxt) in enumerate(zip(hearings, days[1:], strict=True), start=1):
        marker = draw(st.sampled_from(NEXT_MARKERS)).format(d=_written(draw, nxt, False))
        start = draw(st.sampled_from(ROW_STARTS)).format(n=serial, d=_written(draw, day, False))
        rows.append(f"{start} {draw(st.sampled_from(FILLERS))}. {marker}")
    title = draw(st.sampled_from(["CERTIFIED COPY OF PROCEEDINGS", "ORDER SHEET", "DOCKET", "PROCEEDINGS"]))
    text = "\n".join([title, f"{case.numbers[0]} on the file of the court at Khammam", case.title,
                      "Sl. | Date | Order", *rows, "// true copy //"])
    return text, case, list(zip(hearings, days[1:], strict=True)), uploaded_at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order_sheets())
def test_every_order_sheet_row_is_a_hearing_of_the_case_in_the_header(
        sheet: tuple[str, CaseRecord, list[tuple[date, date]], datetime]) -> None:
    text, case, expected, uploaded_at = sheet
    entries = segment(text, REGISTER, _upload(uploaded_at))
    _no_hearing_after_upload(entries, uploaded_at)
    assert sorted((e.case_id, e.hearing_date, e.next_date) for e in entries) == \
        [(case.case_id, day, nxt) for day, nxt in expected], text


@st.composite
def two_case_pages(draw: st.DrawFn) -> tuple[str, list[tuple[str, date]], date, datetime]:
    hearing, _, uploaded_at = draw(dates_and_upload())
    pair = draw(st.lists(st.sampled_from(CASES), min_size=2, max_size=2, unique_by=lambda c: c.case_id))
    lines, expected = [f"{hearing:%a} {_written(draw, hearing, False)}"], []
    for index, case in enumerate(pair):
        nxt = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=120)))
        marker = draw(st.sampled_from(NEXT_MARKERS)).format(d=_written(draw, nxt, False))
        lines.append(f"{index + 1}) {_ref(case, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}. {marker}")
        expected.append((case.case_id, nxt))
    return "\n".join(lines), expected, hearing, uploaded_at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_case_pages())
def test_a_page_naming_two_cases_gives_two_entries_each_with_its_own_next_date(
        page: tuple[str, list[tuple[str, date]], date, datetime]) -> None:
    text, expected, hearing, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert sorted((e.case_id, e.hearing_date, e.next_date) for e in entries) == \
        sorted((case_id, hearing, nxt) for case_id, nxt in expected), text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dates_and_upload(), st.sampled_from(CASES), st.sampled_from(FILLERS), st.integers(0, 9),
       st.integers(min_value=1, max_value=300), st.booleans())
def test_a_date_after_the_upload_is_never_the_hearing(moments: tuple[date, date, datetime], case: CaseRecord,
                                                      filler: str, how: int, ahead: int, marked: bool) -> None:
    _, _, uploaded_at = moments
    future = uploaded_at.date() + timedelta(days=ahead)
    written = future.strftime("%d.%m.%Y")
    text = f"{_ref(case, how)} - {filler}. {'N.D. ' + written if marked else written}"
    [entry] = segment(text, REGISTER, _upload(uploaded_at, "scan.txt"))
    assert entry.hearing_date <= uploaded_at.date() and entry.guessed and entry.needs_review
    assert entry.next_date == future
    if not marked:
        assert entry.doubt == "next_date"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_case_pages(), st.integers(min_value=1, max_value=400))
def test_a_model_split_is_held_to_the_same_invariants(page: tuple[str, CaseRecord, date, date, datetime],
                                                      ahead: int) -> None:
    text, case, hearing, nxt, uploaded_at = page
    upload = _upload(uploaded_at)
    rules = segment(text, REGISTER, upload)

    def claim(day: date, next_day: date | None) -> list[ProposedEntry] | None:
        model = ModelSegments(entries=[ModelEntry(case_id=case.case_id, hearing_date=day, next_date=next_day,
                                                  text="as the model read it")])
        return check_model_split(model, text, REGISTER, upload, rules)

    assert claim(nxt, None) is None, text  # the next date taken for the hearing
    assert claim(uploaded_at.date() + timedelta(days=ahead), nxt) is None, text  # a hearing after the upload
    kept = claim(hearing, nxt)
    assert kept is not None and [(e.hearing_date, e.next_date) for e in kept] == [(hearing, nxt)], text
