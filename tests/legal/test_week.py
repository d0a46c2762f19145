"""A week as a practice means it: the court week, Monday to Saturday. "this week" asked on a Sunday is the coming
Monday to Saturday (walk5al 37, 91: "what is due this week?" on Sunday 6 Dec answered for the 6th only, though
8, 10 and 11 Dec had matters); "next week" is the week after that; the same in Telugu (ఈ వారం, వచ్చే వారం)."""

from datetime import date, timedelta

import pytest

from handlers.legal.when import days_named, listing_question


def _span(days: list[date] | None) -> tuple[date, date, int]:
    assert days
    return days[0], days[-1], len(days)


@pytest.mark.parametrize(("today", "said", "first", "last"), [
    (date(2027, 3, 14), "what is listed this week?", date(2027, 3, 15), date(2027, 3, 20)),  # a Sunday
    (date(2027, 3, 14), "any deadlines this week", date(2027, 3, 15), date(2027, 3, 20)),
    (date(2027, 3, 14), "what is listed next week?", date(2027, 3, 22), date(2027, 3, 27)),
    (date(2027, 3, 14), "matters posted last week", date(2027, 3, 8), date(2027, 3, 13)),
    (date(2027, 3, 17), "what is due this week?", date(2027, 3, 17), date(2027, 3, 20)),     # a Wednesday
    (date(2027, 3, 17), "which matters are listed next week?", date(2027, 3, 22), date(2027, 3, 27)),
    (date(2027, 3, 15), "cause list this week", date(2027, 3, 15), date(2027, 3, 20)),        # a Monday
    (date(2027, 3, 14), "ee vaaram emi list ayyayi", date(2027, 3, 15), date(2027, 3, 20)),
    (date(2027, 3, 14), "వచ్చే వారం ఏమి లిస్ట్ అయ్యాయి?", date(2027, 3, 22), date(2027, 3, 27)),
])
def test_a_week_asked_about_is_the_court_week_the_lawyer_means(today: date, said: str, first: date,
                                                                last: date) -> None:
    assert _span(listing_question(said, today)) == (first, last, (last - first).days + 1), said


@pytest.mark.parametrize("offset", range(7))
def test_this_week_never_is_today_alone_on_a_sunday_and_next_week_follows_it(offset: int) -> None:
    today = date(2026, 12, 6) + timedelta(days=offset)
    this, following = days_named("this week", today), days_named("next week", today)
    assert this and following
    assert this[0] >= today and this[-1].weekday() == 5 and all(d.weekday() < 6 for d in this)
    assert following[0] == this[-1] + timedelta(days=2) and len(following) == 6
