"""Dates as lawyers say them: a day and month with no year, "tomorrow", "next Monday", "this week" and "next week"
in commands, questions and the Edit field, and "what happened on DATE in CASE"."""

import uuid
from datetime import date, datetime

import pytest

from bot.core.app import App
from bot.core.messages import Incoming
from handlers.legal.dates import parse_day
from handlers.legal.pack import LegalPack
from handlers.legal.question import parse_question
from handlers.legal.when import listing_question
from memory import tags
from memory.asof import IST
from tests.legal.helpers import button
from tests.legal.kinds_corpus import CASES

FRIDAY = date(2026, 12, 4)


@pytest.mark.parametrize(("said", "meant"), [
    ("11/12", date(2026, 12, 11)), ("18th December", date(2026, 12, 18)), ("1/12", date(2026, 12, 1)),
    ("5/1", date(2027, 1, 5)), ("tomorrow", date(2026, 12, 5)), ("next Monday", date(2026, 12, 7)),
    ("Monday", date(2026, 12, 7)), ("this Friday", FRIDAY), ("yesterday", date(2026, 12, 3)),
    ("December 28", date(2026, 12, 28)), ("2nd Jan", date(2027, 1, 2)), ("24.08.2026", date(2026, 8, 24)),
])
def test_a_day_asked_about_is_the_nearest_one_and_relative_words_count_from_today(said: str, meant: date) -> None:
    assert parse_day(said, FRIDAY, nearest=True) == meant


def test_a_next_date_typed_as_next_monday_counts_from_when_the_page_was_written() -> None:
    assert parse_day("next Monday", date(2026, 11, 21), after=True, today=FRIDAY) == date(2026, 12, 7)
    assert parse_day("9/1", date(2026, 11, 21), after=True) == date(2027, 1, 9)


@pytest.mark.parametrize(("question", "first", "days"), [
    ("what is listed next week?", date(2026, 12, 7), 6), ("what is listed this week?", FRIDAY, 2),
    ("what's on tomorrow?", date(2026, 12, 5), 1), ("which matters are listed on Monday?", date(2026, 12, 7), 1),
    ("cause list for 11/12", date(2026, 12, 11), 1), ("anything listed on 18th December?", date(2026, 12, 18), 1),
])
def test_a_listing_question_names_its_days(question: str, first: date, days: int) -> None:
    found = listing_question(question, FRIDAY)
    assert found is not None and found[0] == first and len(found) == days


def test_what_happened_on_a_date_asks_for_that_day() -> None:
    asked = parse_question("what happened on 24.08.2026 in AS 112/2023?", FRIDAY)
    assert (asked.intent, asked.day) == ("day", date(2026, 8, 24))
    assert parse_question("what happened last time in A.S. 112/2023?", FRIDAY).intent == "last"
    assert listing_question("what happened last time in Gorle?", FRIDAY) is None


def _say(sender: str, text: str | None = None, callback: str | None = None,
         at: datetime | None = None) -> Incoming:
    return Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=text, callback=callback,
                    received_at=at or datetime(2026, 12, 4, 12, 0, tzinfo=IST))


@pytest.mark.hindsight
async def test_commands_questions_and_the_edit_field_read_dates_as_lawyers_say_them(app: App) -> None:
    object.__setattr__(app.services, "clock", lambda: datetime(2026, 12, 4, 12, 0, tzinfo=IST))  # a Friday
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    pack.registers.add("demo", CASES)
    bank = app.services.bank_of("demo", "legal")
    for case in CASES:
        for document in await app.services.memory.list_documents(bank, tags=[tags.case(case.case_id)]):
            await app.services.memory.delete_document(bank, document.document_id)
    evening = datetime(2026, 12, 1, 19, 0, tzinfo=IST)
    for note in ("1/12 Pendyala suit - PW1 chief in part. N.D. 11/12", "24/8 Mothe appeal - admitted. N.D. 3/11",
                 "3/11 Mothe appeal - arguments heard. N.D. 9/12"):
        replies = await app.conversation.handle(_say("aditya", note, at=evening))
        card = next(r for r in replies if r.card_id)
        await app.conversation.handle(_say("aditya", callback=button(card, "Save")))
    [listing] = await app.conversation.handle(_say("aditya", "/today 11/12"))
    assert "11 Dec 2026" in listing.text and "Pendyala suit" in listing.text
    [week] = await app.conversation.handle(_say("aditya", "what is listed next week?"))
    assert "Pendyala suit" in week.text and "Mothe appeal" in week.text and "9 Dec 2026" in week.text
    [day] = await app.conversation.handle(_say("aditya", "what happened on 24.08.2026 in A.S. 112/2023?"))
    assert "admitted" in day.text and "arguments heard" not in day.text
    # The Edit field takes "next Monday" for a next date, counted from when the note was written.
    replies = await app.conversation.handle(_say("aditya", "1/12 Durga cheque case - accused absent", at=evening))
    card = next(r for r in replies if r.card_id)
    [menu] = await app.conversation.handle(_say("aditya", callback=button(card, "Edit")))
    await app.conversation.handle(_say("aditya", callback=button(menu, "Next date")))
    [shown] = await app.conversation.handle(_say("aditya", "next Monday"))
    assert "Next date: 7 Dec 2026" in shown.text
