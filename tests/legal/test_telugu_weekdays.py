"""Days of the week in Telugu, in its script and typed in Latin letters (సోమవారం, somavaram, shukravaram ...), name
their day in /today and in questions as the English names do (walk5al 77: "/today సోమవారం" asked for a date like
15.10.2026; "what is listed on somavaram" was not understood)."""

from datetime import date, timedelta

import pytest

from handlers.legal.dates import parse_day
from handlers.legal.question import parse_question
from handlers.legal.when import days_named, listing_question

_WEDNESDAY = date(2027, 2, 10)
_NAMES = [
    ("సోమవారం", "somavaram", 0), ("మంగళవారం", "mangalavaram", 1), ("బుధవారం", "budhavaram", 2),
    ("గురువారం", "guruvaram", 3), ("శుక్రవారం", "sukravaram", 4), ("శనివారం", "shanivaram", 5),
    ("ఆదివారం", "aadivaaram", 6),
]


def _coming(index: int, today: date) -> date:
    return today + timedelta(days=(index - today.weekday()) % 7)


@pytest.mark.parametrize(("script", "latin", "index"), _NAMES)
def test_a_telugu_weekday_names_the_coming_such_day_in_today_and_in_questions(script: str, latin: str,
                                                                               index: int) -> None:
    day = _coming(index, _WEDNESDAY)
    assert days_named(script, _WEDNESDAY) == [day]  # /today సోమవారం
    assert days_named(latin.capitalize(), _WEDNESDAY) == [day]  # /today Somavaram
    assert listing_question(f"what is listed on {latin}?", _WEDNESDAY) == [day]
    assert listing_question(f"{script} ఏ కేసులు ఉన్నాయి?", _WEDNESDAY) == [day]
    assert parse_day(latin, _WEDNESDAY) == day  # the Edit field


def test_a_past_telugu_weekday_in_a_question_about_a_case_is_the_last_such_day() -> None:
    asked = parse_question("what happened last mangalavaram in O.S. 231/2024?", _WEDNESDAY)
    assert (asked.intent, asked.day) == ("day", date(2027, 2, 9))
    assert days_named("vachche somavaram", _WEDNESDAY) == [date(2027, 2, 15)]


def test_what_is_there_on_a_day_said_in_telugu_is_a_listing_question() -> None:
    monday, sunday = date(2027, 2, 15), date(2027, 2, 14)
    assert listing_question("సోమవారం ఏమి ఉంది?", _WEDNESDAY) == [monday]
    assert listing_question("somavaram emi undi", _WEDNESDAY) == [monday]
    assert listing_question("vachche vaaram emunnayi?", sunday) == [monday + timedelta(days=7 + n) for n in range(6)]
    assert listing_question("O.S. 231/2024 lo emi undi", _WEDNESDAY) is None  # names no day: not a listing
    assert days_named("vachche somavaram", monday) == [monday + timedelta(days=7)]
