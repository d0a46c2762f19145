"""The window a date read from a document or a note must fall in to be taken without a person looking at it.

A hearing in 1900 or an invoice dated 9999 is a misreading (or a trap), not a fact: such a date is held for
review, never saved on its own. The window is wide on purpose: records from 1990 on, plans up to two years ahead.
"""

from datetime import date

EARLIEST = date(1990, 1, 1)
AHEAD_YEARS = 2


def latest(today: date | None = None) -> date:
    today = today or date.today()
    try:
        return today.replace(year=today.year + AHEAD_YEARS)
    except ValueError:  # 29 February
        return today.replace(year=today.year + AHEAD_YEARS, day=28)


def plausible_date(day: date, today: date | None = None) -> bool:
    """Whether `day` lies between 1 January 1990 and two years after `today`."""
    return EARLIEST <= day <= latest(today)
