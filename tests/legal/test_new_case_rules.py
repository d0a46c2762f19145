"""Case numbers as lawyers write them, generated: `/case add` reads the number, title and court in any of the
common forms (not "OS311/2024" with no space: the register reads 5, 1, 0 in a type as OCR letters), one case gets one id however its number is written, and a case added is then named by that
number (and by the number written another way) in notes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.legal.backlog import CASES_FILE
from handlers.legal.newcase import case_record, cited_case, parse_case
from handlers.legal.register import CaseRegister

REGISTER = CaseRegister.load(CASES_FILE)
_TYPES = {"OS": ["O.S.", "OS", "O.S"], "CC": ["C.C.", "CC", "C.C"], "WP": ["W.P.", "WP", "W.P"],
          "AS": ["A.S.", "AS", "A.S"], "MVOP": ["M.V.O.P.", "MVOP"], "EP": ["E.P.", "EP"]}
_SURNAMES = ["Pendyala", "Kommineni", "Sangem", "Boya", "Thumma", "Chakali", "Nallapati", "Yerram", "Dasari",
             "Gundu", "Mekala", "Vemula"]


@st.composite
def written_case(draw: st.DrawFn) -> tuple[str, str, str, str, str]:
    kind = draw(st.sampled_from(sorted(_TYPES)))
    number = draw(st.integers(min_value=1, max_value=99999))
    year = draw(st.integers(min_value=2001, max_value=2026))
    style = draw(st.sampled_from(["{t} {n}/{y}", "{t} No. {n}/{y}", "{t} No. {n} of {y}",
                                  "{t} {n} of {y}"]))
    written = style.format(t=draw(st.sampled_from(_TYPES[kind])), n=number, y=year)
    other = f"{_TYPES[kind][0]} {number}/{year}"
    first, second = draw(st.lists(st.sampled_from(_SURNAMES), min_size=2, max_size=2, unique=True))
    title = f"{first} {draw(st.sampled_from(['v', 'vs', 'vs.', 'v.', 'versus']))} {second}"
    court = draw(st.sampled_from(["", "Vikarabad", "Principal JCJ, Tandur", "II Addl. District Judge"]))
    return written, other, title, court, f"{kind}-{number}-{year}".lower()


@settings(max_examples=80, deadline=None)
@given(case=written_case())
def test_case_add_reads_number_title_and_court_in_every_common_form(case: tuple[str, str, str, str, str]) -> None:
    written, other, title, court, case_id = case
    typed = f"{written} {title}" + (f", {court}" if court else "")
    new = parse_case(typed)
    assert new is not None and new.number == written and new.title == title and new.court == court
    record = case_record(new, REGISTER)
    assert record.case_id == case_id and record.numbers == [written]
    assert case_record(parse_case(f"{other} {title}"), REGISTER).case_id == case_id  # type: ignore[arg-type]
    register = CaseRegister([*REGISTER.cases, record])
    for said in (written, other):
        note = f"12/11 {said} - summons served, N.D. 3/12"
        assert [m.case_id for m in register.mentions(note)] == [case_id], note
        assert cited_case(note, note, register) is None  # known now: nothing more to propose
    assert cited_case(f"12/11 {written} - summons served", "", REGISTER) is not None
