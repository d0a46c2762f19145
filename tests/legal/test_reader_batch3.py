"""Invariants over generated uploads for the formats the third (blind) corpus batch found missing.

Each family of batch 3's misses, generated rather than copied: Telugu month names typed in Latin letters, a
day written alone after a next-date marker ("further cross 22nd"), a summons "R/by" date in an order sheet, a
copy "applied again on", an order sheet whose title lists parties and numbered respondents, a board dated after
its upload, and a party's name naming its case ("<name> cheque case", "<name> v. <other>") unless the line
names a case number the register does not have.
"""

from datetime import date, datetime, time, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.legal.dates import find_dates
from handlers.legal.models import CaseRecord
from handlers.legal.register import CaseRegister
from handlers.legal.segment import segment
from memory.asof import IST
from tests.legal.test_hearing_invariants import (
    CASES,
    FILLERS,
    FULL_FORMATS,
    REGISTER,
    _ordinal,
    _ref,
    _upload,
    dates_and_upload,
)

# Each month as people type it in Latin letters, several spellings.
ROMAN_MONTHS = [["Janavari", "janavary", "Janvari"], ["Phibravari", "Fibravari", "Pebruvari"], ["Marchi"],
                ["Epril", "Aepril"], ["May"], ["Joon", "Jun"], ["Julai", "Jullai"], ["Agastu", "Agashtu"],
                ["Septembar", "Septembaru"], ["Aktobar", "Aktobaru"], ["Navambar", "Navambaru"],
                ["Disambar", "Disembar", "Dishambar", "Disambaru"]]
DAY_ALONE_MARKERS = ["Further cross {o}.", "further chief {o}", "N.D. {o}", "adjd. to {o}", "Call on {o}",
                     "posted to the {o} for evidence", "Balance arguments {o}", "NDOH {o}"]
TITLE_PARTIES = ["1. Gudala Ramesh (driver)\n2. United India Insurance Co. Ltd., Kakinada  ..Respondents",
                 "Vs.\n1. Bolla Narsimha\n2. Bolla Yellaiah", "AND\n1) The Tahsildar, Kodad\n2) The RDO, Suryapet"]
FIRST_NAMES = ["Anusha", "Sridevi", "Nagamani", "Yellaiah", "Pochaiah", "Kistamma", "Shankaraiah", "Bhavani",
               "Jayamma", "Rajitha", "Lingaiah", "Mallamma"]
SURNAMES = ["Kavuri", "Thummala", "Boyini", "Eerla", "Manda", "Jakkula", "Vemula", "Pendyala"]
OTHERS = ["Greenfield", "Suvarna", "Harivillu", "Kakatiya", "Srinidhi", "Navodaya"]
KINDS = ["cheque", "maintenance", "eviction", "custody", "injunction", "recovery", ""]


def _filed(text: str, uploaded_at: datetime) -> list[tuple[str | None, date, date | None]]:
    """What the rules file for a page: (case, hearing date, next date) per entry, sorted; no hearing after upload."""
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert all(e.hearing_date <= uploaded_at.date() for e in entries), text
    return sorted((e.case_id, e.hearing_date, e.next_date) for e in entries)


def _roman(draw: st.DrawFn, day: date, with_year: bool) -> str:
    month = draw(st.sampled_from(ROMAN_MONTHS[day.month - 1]))
    with_year = with_year or month == "May"  # "2 May" with no year is the verb (a rule of dates.py)
    return f"{day.day} {month} {day.year}" if with_year else f"{day.day} {month}"


@st.composite
def roman_month_pages(draw: st.DrawFn) -> tuple[str, CaseRecord, date, date, datetime]:
    hearing, nxt, uploaded_at = draw(dates_and_upload())
    case = draw(st.sampled_from(CASES))
    ref = _ref(case, draw(st.integers(0, 9)))
    # Without a year only when the day is near: a year-less hearing falls in the year before the upload.
    short_h = (uploaded_at.date() - hearing).days < 300 and draw(st.booleans())
    short_n = (nxt - hearing).days < 300 and draw(st.booleans())
    written_h, written_n = _roman(draw, hearing, not short_h), _roman(draw, nxt, not short_n)
    filler = draw(st.sampled_from(FILLERS))
    marker = draw(st.sampled_from(["{d} ki vaayida", "{d} ki posted", "vaayida {d}", "N.D. {d}", "{d} కు వాయిదా"]))
    layout = draw(st.sampled_from(["{h}: {r} - {f}. {n}", "{r}\n{h} - {f}.\n{n}", "{r} {h} lo {f}, {n}"]))
    return layout.format(h=written_h, r=ref, f=filler, n=marker.format(d=written_n)), case, hearing, nxt, uploaded_at


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roman_month_pages())
def test_telugu_month_names_in_latin_letters_are_dates(page: tuple[str, CaseRecord, date, date, datetime]) -> None:
    text, case, hearing, nxt, uploaded_at = page
    assert _filed(text, uploaded_at) == [(case.case_id, hearing, nxt)], text


@st.composite
def day_alone_pages(draw: st.DrawFn) -> tuple[str, CaseRecord, date, date, datetime]:
    hearing, _, uploaded_at = draw(dates_and_upload())
    # Within four weeks the day alone names one date: the first such day after the hearing.
    nxt = hearing + timedelta(days=draw(st.integers(min_value=1, max_value=27)))
    case = draw(st.sampled_from(CASES))
    written_h = str(draw(st.sampled_from(FULL_FORMATS))(hearing))
    marker = draw(st.sampled_from(DAY_ALONE_MARKERS)).format(o=_ordinal(nxt.day))
    text = f"{written_h} {_ref(case, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}. {marker}"
    return text, case, hearing, nxt, uploaded_at


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(day_alone_pages())
def test_a_day_written_alone_after_a_marker_is_the_next_such_day(
        page: tuple[str, CaseRecord, date, date, datetime]) -> None:
    text, case, hearing, nxt, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert [(e.case_id, e.hearing_date, e.next_date) for e in entries] == [(case.case_id, hearing, nxt)], text
    assert entries[0].doubt is None, text


@given(st.integers(min_value=1, max_value=31), st.sampled_from(["PW3", "witness", "Sunday", "defendant", "appeal"]))
def test_an_ordinal_with_no_marker_is_not_a_date(day: int, word: str) -> None:
    assert find_dates(f"Every {_ordinal(day)} {word}, the {_ordinal(day)} time.", today=date(2026, 12, 4)) == []


@st.composite
def sheets_with_summons_and_parties(draw: st.DrawFn) -> tuple[str, CaseRecord, list[tuple[date, date]], datetime]:
    first, _, _ = draw(dates_and_upload())
    days = [first]
    for gap in draw(st.lists(st.integers(min_value=7, max_value=80), min_size=2, max_size=5)):
        days.append(days[-1] + timedelta(days=gap))
    hearings = days[:-1]
    uploaded_at = datetime.combine(hearings[-1] + timedelta(days=draw(st.integers(0, 40))), time(11, 0), IST)
    case = draw(st.sampled_from(CASES))
    rows = []
    for serial, (day, nxt) in enumerate(zip(hearings, days[1:], strict=True), start=1):
        written = draw(st.sampled_from(FULL_FORMATS[:7]))
        purpose = (draw(st.sampled_from(["Summons to D1 & D2, R/by {d}", "Notice to R1, returnable by {d}"]))
                   if serial == 1 else draw(st.sampled_from(["Adj. {d}", "Call on {d}", "Further cross {d}"])))
        rows.append(f"{written(day)}  {draw(st.sampled_from(FILLERS))}. {purpose.format(d=written(nxt))}")
    title = [draw(st.sampled_from(["DOCKET PROCEEDINGS", "CERTIFIED COPY OF PROCEEDINGS", "ORDER SHEET"])),
             case.numbers[0], case.title, draw(st.sampled_from(TITLE_PARTIES)), "Date        Proceedings"]
    return "\n".join(title + rows), case, list(zip(hearings, days[1:], strict=True)), uploaded_at


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets_with_summons_and_parties())
def test_an_order_sheet_title_with_parties_is_no_entry_and_a_summons_date_is_the_next_date(
        sheet: tuple[str, CaseRecord, list[tuple[date, date]], datetime]) -> None:
    text, case, expected, uploaded_at = sheet
    assert _filed(text, uploaded_at) == [(case.case_id, day, nxt) for day, nxt in expected], text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dates_and_upload(), st.sampled_from(CASES), st.integers(0, 9), st.integers(1, 20),
       st.sampled_from(["again", "already", "afresh", ""]))
def test_a_copy_applied_on_a_date_is_not_a_hearing(moments: tuple[date, date, datetime], case: CaseRecord,
                                                   how: int, ready_in: int, word: str) -> None:
    applied, _, uploaded_at = moments
    ready = applied + timedelta(days=ready_in)
    text = (f"Note for file - {_ref(case, how)}\nCertified copy of the judgment applied {word} on "
            f"{applied:%d/%m/%y}, CA No. 5561/2026. Ready by {ready:%d/%m/%y}.").replace("  ", " ")
    [entry] = segment(text, REGISTER, _upload(uploaded_at, "note.txt"))
    # Never a hearing on that day: a step is dated by the act it records (the copy applied for), anything else
    # read from the note is a guess a person checks.
    assert entry.case_id == case.case_id, text
    if entry.kind == "step":
        assert (entry.hearing_date, entry.next_date) == (applied, None), text
    else:
        assert entry.guessed and entry.needs_review, text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dates(min_value=date(2022, 1, 1), max_value=date(2029, 1, 1)), st.integers(1, 20),
       st.lists(st.sampled_from(CASES), min_size=1, max_size=3, unique_by=lambda c: c.case_id), st.integers(0, 9),
       st.sampled_from(["Tomorrow's board ({d})", "Board for {d}", "Cause list {d}", "Matters listed on {d}:"]))
def test_a_board_dated_after_its_upload_gives_next_dates_and_no_hearing(
        upload_day: date, ahead: int, cases: list[CaseRecord], how: int, heading: str) -> None:
    ahead = 1 if heading.startswith("Tomorrow") else ahead
    listed = upload_day + timedelta(days=ahead)
    lines = [heading.format(d=f"{listed:%d.%m.%Y}")]
    lines += [f"{i}. {_ref(case, how + i)} - evidence" for i, case in enumerate(cases, start=1)]
    uploaded_at = datetime.combine(upload_day, time(20, 0), IST)
    entries = segment("\n".join(lines), REGISTER, _upload(uploaded_at, "board.txt"))
    assert sorted((e.case_id, e.next_date) for e in entries) == sorted((c.case_id, listed) for c in cases)
    # A listing: no hearing; the list is dated by the day printed on it (never its upload), each case's next date.
    assert all(e.kind == "listing" and not e.needs_review and e.hearing_date == listed for e in entries)


@st.composite
def party_registers(draw: st.DrawFn) -> tuple[CaseRegister, list[tuple[str, str, str]]]:
    """A register of cases named for generated parties: (case id, first name, other party)."""
    names = draw(st.lists(st.sampled_from(FIRST_NAMES), min_size=2, max_size=4, unique=True))
    others = draw(st.lists(st.sampled_from(OTHERS), min_size=len(names), max_size=len(names), unique=True))
    cases, parties = [], []
    for index, (name, other) in enumerate(zip(names, others, strict=True)):
        surname = draw(st.sampled_from(SURNAMES))
        case_id = f"case-{index}"
        cases.append(CaseRecord(case_id=case_id, title=f"{surname} {name} v. {other} Traders",
                                numbers=[f"C.C. {100 + index}/2026"], aliases=[f"{name} file"], court="JFCM"))
        parties.append((case_id, name, other))
    return CaseRegister(cases), parties


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(party_registers(), st.data())
def test_a_party_names_its_case_in_a_cause_title_or_before_its_kind_unless_another_number_is_named(
        made: tuple[CaseRegister, list[tuple[str, str, str]]], data: st.DataObject) -> None:
    register, parties = made
    case_id, name, other = data.draw(st.sampled_from(parties))
    kind = data.draw(st.sampled_from(KINDS))
    court = data.draw(st.sampled_from(["Hyd DCDRC-II", "Ongole AJFCM", "JFCM Kodad"]))
    named = data.draw(st.sampled_from([f"{name} v. {other}", f"{other} vs {name}",
                                       f"{name} Rao {kind} case".replace("  ", " "), f"{name} {kind} matter".replace("  ", " ")]))
    assert [m.case_id for m in register.mentions(f"{court}: {named} - counsel sought time")][:1] == [case_id]
    foreign = f"{court}: M.C. 977/2025 ({named}) - counsel sought time"
    assert register.mentions(foreign) == []


NEW_MARKERS = ["p/t {d}", "P/t to {d}", "L/o {d}", "L/o to R for evidence; p/t {d}", "Last chance. {d}",
               "last opportunity {d}", "s/o {d}", "S/O {d} for counter"]
ISO = [lambda d: d.isoformat()]


@st.composite
def clerk_marker_pages(draw: st.DrawFn) -> tuple[str, CaseRecord, date, date, datetime]:
    hearing, nxt, uploaded_at = draw(dates_and_upload())
    case = draw(st.sampled_from(CASES))
    written_h = str(draw(st.sampled_from(FULL_FORMATS + ISO))(hearing))
    marker = draw(st.sampled_from(NEW_MARKERS)).format(d=draw(st.sampled_from(FULL_FORMATS + ISO))(nxt))
    text = f"{written_h} {_ref(case, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}. {marker}"
    return text, case, hearing, nxt, uploaded_at


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clerk_marker_pages())
def test_clerks_p_t_l_o_and_last_chance_mark_the_next_date_and_iso_dates_read(
        page: tuple[str, CaseRecord, date, date, datetime]) -> None:
    text, case, hearing, nxt, uploaded_at = page
    entries = segment(text, REGISTER, _upload(uploaded_at))
    assert [(e.case_id, e.hearing_date, e.next_date) for e in entries] == [(case.case_id, hearing, nxt)], text
    assert entries[0].doubt is None, text


def _number_forms(number: str) -> list[str]:
    kind, rest = number.rsplit(" ", 1)
    serial, year = rest.split("/")
    bare = kind.replace(".", "")
    return [f"{bare}-{serial}-{year}", f"{kind}-{serial}-{year}", f"{kind}No.{serial}-{year}",
            f"{bare} No-{serial}-{year}", f"{kind} No. {serial} of {year}", f"{bare}.{serial}/{year[2:]}"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 5), st.sampled_from(FULL_FORMATS[:7]),
       st.dates(min_value=date(2022, 1, 1), max_value=date(2029, 1, 1)))
def test_a_case_number_with_hyphens_names_its_case_and_a_hyphenated_date_is_no_number(
        case: CaseRecord, form: int, written: object, day: date) -> None:
    text = f"{_number_forms(case.numbers[0])[form]} heard on {written(day)}"  # type: ignore[operator]
    assert [m.case_id for m in REGISTER.mentions(text)] == [case.case_id], text
    assert find_dates(text)[-1].day == day.day, text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(party_registers(), st.data())
def test_a_line_naming_one_case_by_number_and_another_by_party_gives_both(
        made: tuple[CaseRegister, list[tuple[str, str, str]]], data: st.DataObject) -> None:
    register, parties = made
    first, second = data.draw(st.lists(st.sampled_from(parties), min_size=2, max_size=2, unique=True))
    number = register.get(first[0]).numbers[0]  # type: ignore[union-attr]
    text = f"CC {number.split(' ', 1)[1]} counter filed; {second[1]} v. {second[2]} heard, adj. to 5/1"
    assert {m.case_id for m in register.mentions(text)} == {first[0], second[0]}, text


@st.composite
def wrapped_two_case_lines(draw: st.DrawFn) -> tuple[str, list[tuple[str, date, date]], datetime]:
    hearing, _, uploaded_at = draw(dates_and_upload())
    first, second = draw(st.lists(st.sampled_from(CASES), min_size=2, max_size=2, unique_by=lambda c: c.case_id))
    next_1, next_2 = (hearing + timedelta(days=draw(st.integers(1, 120))) for _ in range(2))
    written = draw(st.sampled_from(FULL_FORMATS[:7]))
    marker = draw(st.sampled_from(["for args", "adjd. to", "N.D.", "call on", "posted to", "for orders on"]))
    text = (f"{written(hearing)} {_ref(first, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}, "
            f"{marker}\n{written(next_1)}{draw(st.sampled_from([';', ',']))} JFCM Kodad - "
            f"{_ref(second, draw(st.integers(0, 9)))} - {draw(st.sampled_from(FILLERS))}. N.D. {written(next_2)}")
    return text, [(first.case_id, hearing, next_1), (second.case_id, hearing, next_2)], uploaded_at


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wrapped_two_case_lines())
def test_a_wrapped_date_completes_the_marker_above_and_the_rest_is_the_next_matter(
        page: tuple[str, list[tuple[str, date, date]], datetime]) -> None:
    text, expected, uploaded_at = page
    assert _filed(text, uploaded_at) == sorted(expected), text
