"""A step is dated by the act it records ("counter filed on 12.11.2026", "summons served on the accused on ...",
"vakalat ... dated ..."), not by the day it was sent; its due date is counted from that day and stays apart from
it (walk5al 45, 83: a report filed on 5 Dec and sent on 6 Dec was a step of 6 Dec, due two weeks after the 6th)."""

from datetime import date

import pytest

from handlers.legal.segment import segment
from tests.legal.kinds_corpus import REGISTER, upload


@pytest.mark.parametrize(("note", "case_id", "done", "due"), [
    ("Mothe appeal: counter filed on 12.11.2026 by the respondents. Rejoinder within 10 days.",
     "as-112-2023", date(2026, 11, 12), date(2026, 11, 22)),
    ("O.S. 231/2024 - surveyor's report presented on 3rd December 2026; objections to be filed before 18.12.2026.",
     "os-231-2024", date(2026, 12, 3), date(2026, 12, 18)),
    ("Nandigama writ: copy of the petition served upon the Government Pleader on 30/11/2026 in office.",
     "wp-1234-2026", date(2026, 11, 30), None),
    ("Memo of appearance for accused in C.C. 77/2025 sent by courier, dated 01.12.2026.",
     "cc-77-2025", date(2026, 12, 1), None),
    ("Durga cheque case - process fee deposited on 2/12. Reply due 21.12.2026.",
     "cc-77-2025", date(2026, 12, 2), date(2026, 12, 21)),
])
def test_a_step_is_dated_by_the_day_it_says_its_act_was_done(note: str, case_id: str, done: date,
                                                               due: date | None) -> None:
    [entry] = segment(note, REGISTER, upload("2026-12-06T11:30"))
    assert (entry.case_id, entry.kind, entry.hearing_date, entry.next_date, entry.due_date) == (
        case_id, "step", done, None, due), note
    assert not entry.guessed, note


@pytest.mark.parametrize("note", [
    "Pendyala suit: reply to be filed by 01.12.2026, not yet done; client to send papers.",
    "Mothe appeal - written statement to be filed on 02.12.2026 in office.",
])
def test_a_deadline_already_past_is_not_the_day_a_step_was_done(note: str) -> None:
    [entry] = segment(note, REGISTER, upload("2026-12-06T11:30"))
    assert entry.kind == "step" and entry.hearing_date == date(2026, 12, 6) and entry.guessed, note


def test_a_steps_due_date_read_from_a_span_counts_from_the_corrected_day() -> None:
    """walk5al 46: the step's date corrected on its card, "within 2 weeks" still counted from the old day."""
    from handlers.legal.cards import edit_field

    page = upload("2026-12-06T11:30")
    [entry] = segment("Pendyala suit - surveyor's sketch received in office. Objections within 2 weeks.", REGISTER,
                      page)
    assert entry.kind == "step" and entry.due_date == date(2026, 12, 20)
    edited = edit_field(entry, "hearing_date", "05.12.2026", page)
    assert (edited.hearing_date, edited.due_date) == (date(2026, 12, 5), date(2026, 12, 19))
    [fixed] = segment("Pendyala suit - copy served in office. Reply to be filed before 18.12.2026.", REGISTER, page)
    assert edit_field(fixed, "hearing_date", "04.12.2026", page).due_date == date(2026, 12, 18)
    set_by_hand = edit_field(edited, "next_date", "30.12.2026", page)
    assert edit_field(set_by_hand, "hearing_date", "03.12.2026", page).due_date == date(2026, 12, 30)


def test_what_happened_on_the_day_a_step_was_done_answers_with_it() -> None:
    """walk5al 83: a vakalat dated 05.12.2026 (sent on the 6th) was not found by "what happened on 05.12.2026"."""
    from handlers.legal.compose import compose
    from handlers.legal.question import parse_question
    from handlers.legal.records import entry_record
    from tests.legal.kinds_corpus import CASES

    page = upload("2026-12-06T11:30")
    [entry] = segment("Nandigama writ: vakalat of the 3rd respondent filed by Sri P. Ravi, Advocate, dated 04.12.2026.",
                      REGISTER, page)
    record = entry_record(entry, "wp-1234-2026", page)
    case = next(c for c in CASES if c.case_id == "wp-1234-2026")
    asked = parse_question("what happened on 04.12.2026 in W.P. 1234/2026?", date(2026, 12, 6))
    answer = compose("en", case, asked, [record], [], date(2026, 12, 6))
    assert "vakalat of the 3rd respondent" in answer.answer and "4 Dec 2026" in answer.answer, answer.answer


@pytest.mark.parametrize(("note", "done"), [
    ("Pendyala suit: written statement filed by D1 on 03/12/2026 in office.", date(2026, 12, 3)),
    ("Mothe appeal: notice served by the process server on 2.12.2026 upon R2, acknowledgment received.",
     date(2026, 12, 2)),
    ("Pendyala suit lo counter 03.12.2026 na file chesaru, copy office lo undi.", date(2026, 12, 3)),
])
def test_an_act_done_by_someone_or_said_in_telugu_dates_its_step(note: str, done: date) -> None:
    [entry] = segment(note, REGISTER, upload("2026-12-06T11:30"))
    assert (entry.kind, entry.hearing_date, entry.next_date) == ("step", done, None), note
