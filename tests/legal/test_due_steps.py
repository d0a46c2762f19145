"""A step with a deadline ("reply to be filed before 10-12-2026", "written statement due by 15/12", "deposit
within two weeks") is kept under its case, due on that day: /today of that day and "what is due this week" show
it as a due item, never as a hearing, and no hearing or next date moves (walk: a new practice's office notes were
stored as steps of the day they were typed and never came back on the deadline)."""

from datetime import date, datetime, timedelta, timezone

import pytest

from bot.core.app import App
from handlers.legal.case_dates import next_date
from handlers.legal.cards import edit_field
from handlers.legal.models import CauseList, HearingRecord
from handlers.legal.records import entry_record, memory_item
from handlers.legal.segment import segment
from handlers.legal.today import render_cause_list
from memory.asof import IST
from tests.legal.helpers import button, say
from tests.legal.kinds_corpus import CASES, REGISTER, upload


@pytest.mark.parametrize(("note", "case_id", "due"), [
    ("Pendyala suit: GP served counter copy on us today in office. Reply to be filed before 10-12-2026.",
     "os-231-2024", date(2026, 12, 10)),
    ("Mothe appeal - written statement due by 15/12. Client informed.", "as-112-2023", date(2026, 12, 15)),
    ("C.C. 77/2025: cost to be deposited within two weeks, received the order copy in office.", "cc-77-2025",
     date(2026, 12, 21)),
    ("Nandigama writ: counter affidavit to be filed on or before 4.1.2027; draft sent to client.", "wp-1234-2026",
     date(2027, 1, 4)),
    ("Durga cheque case: last date for filing the vakalat is 11/12, collect stamp papers.", "cc-77-2025",
     date(2026, 12, 11)),
])
def test_a_steps_deadline_is_its_due_date_and_not_a_next_date(note: str, case_id: str, due: date) -> None:
    page = upload("2026-12-07T18:00")
    [entry] = segment(note, REGISTER, page)
    assert (entry.case_id, entry.kind, entry.hearing_date, entry.next_date, entry.due_date) == (
        case_id, "step", date(2026, 12, 7), None, due), note
    case = next(c for c in CASES if c.case_id == case_id)
    record = entry_record(entry, case_id, page)
    memory = memory_item(record, case)
    assert memory.metadata["due_date"] == due.isoformat() and memory.metadata["next_date"] == ""
    assert f"Due on {due.day} {due:%b %Y}" in memory.content


def test_a_due_step_moves_no_date_and_is_shown_under_its_day() -> None:
    heard = HearingRecord(document_id="h", case_id="os-231-2024", kind="hearing", hearing_date=date(2026, 12, 1),
                          next_date=date(2026, 12, 18))
    step = HearingRecord(document_id="s", case_id="os-231-2024", kind="step", hearing_date=date(2026, 12, 7),
                         due_date=date(2026, 12, 10), summary="Reply to be filed", author="clerk")
    found = next_date([heard, step])
    assert found is not None and found.day == date(2026, 12, 18)
    shown = render_cause_list("en", CauseList(day=date(2026, 12, 10), items=[], due=[step]), REGISTER)
    assert "Nothing is listed" in shown and "Due on 10 Dec 2026 (1 item)" in shown
    assert "Pendyala suit (O.S. 231/2024): Reply to be filed" in shown


def test_a_person_sets_or_clears_a_steps_due_day_on_its_card() -> None:
    page = upload("2026-12-07T18:00")
    [entry] = segment("Pendyala suit: counter copy served on us in office.", REGISTER, page)
    assert entry.kind == "step" and entry.due_date is None
    edited = edit_field(entry, "next_date", "14/12", page)
    assert (edited.due_date, edited.next_date, edited.hearing_date) == (date(2026, 12, 14), None, date(2026, 12, 7))
    assert edit_field(edited, "next_date", "none", page).due_date is None


@pytest.mark.hindsight
async def test_a_typed_deadline_comes_back_on_its_day(app: App) -> None:
    today = app.services.clock().astimezone(IST).date()
    due = today + timedelta(days=2 if today.weekday() == 5 else 1)  # a court day: the week is Monday to Saturday
    week = "next week" if today.weekday() == 5 else "this week"  # on a Sunday "this week" is the coming one
    replies = await app.conversation.handle(say(
        "aditya", f"Gorle partition: counter copy served on us in office. Reply to be filed before {due:%d-%m-%Y}."))
    [card] = [r for r in replies if r.card_id]
    assert "step" in card.text and f"Due: {due.day} {due:%b %Y}" in card.text, card.text
    await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    [shown] = await app.conversation.handle(say("aditya", f"/today {due:%d.%m.%Y}"))
    assert f"Due on {due.day} {due:%b %Y} (1 item)" in shown.text and "Reply to be filed" in shown.text, shown.text
    assert "Gorle" in shown.text.split("Due on")[1]
    [asked] = await app.conversation.handle(say("aditya", f"what is due {week}?"))
    assert "Reply to be filed" in asked.text, asked.text
    [before] = await app.conversation.handle(say("aditya", f"/today {today:%d.%m.%Y}"))
    assert "Reply to be filed" not in before.text


def test_a_cases_history_says_when_a_step_is_due_and_what_the_register_gave() -> None:
    from handlers.legal.compose import compose
    from handlers.legal.question import Question
    from handlers.legal.register_dates import register_listing

    case = CASES[0].model_copy(update={"next_date": date(2026, 12, 18)})
    listing = register_listing(case, date(2026, 12, 5), datetime(2026, 12, 5, 9, tzinfo=timezone.utc))
    assert listing is not None
    step = HearingRecord(document_id="s", case_id=case.case_id, kind="step", hearing_date=date(2026, 12, 7),
                         due_date=date(2026, 12, 10), summary="Reply to be filed", source_file="note", author="clerk")
    heard = HearingRecord(document_id="h", case_id=case.case_id, kind="hearing", hearing_date=date(2026, 12, 1),
                          next_date=date(2026, 12, 18), summary="Heard", source_file="diary", author="clerk")
    answer = compose("en", case, Question(text="history", intent="history"), [heard, listing, step], [],
                     date(2026, 12, 8))
    assert "due on 10 Dec 2026: Reply to be filed" in answer.answer
    assert "next date 18 Dec 2026 in the case register" in answer.answer and "cause list" not in answer.answer


def test_the_history_of_a_case_with_no_hearing_yet_shows_its_listings_and_steps() -> None:
    from handlers.legal.compose import compose
    from handlers.legal.question import Question

    step = HearingRecord(document_id="s", case_id="os-231-2024", kind="step", hearing_date=date(2026, 12, 7),
                         due_date=date(2026, 12, 10), summary="Reply to be filed", source_file="note", author="clerk")
    answer = compose("en", CASES[0], Question(text="history", intent="history"), [step], [], date(2026, 12, 8))
    assert "(0 hearings)" in answer.answer and "due on 10 Dec 2026: Reply to be filed" in answer.answer
