"""Which days a lawyer's words name: a week ("this week", "next week"), a day ("tomorrow", "Monday", "11/12",
"18th December"), and whether a question asks what is listed on them ("what is listed next week?")."""

import re
from datetime import date, timedelta

from handlers.legal.dates import parse_day

_WEEK = re.compile(r"\b(this|next|coming|last|previous)\s+week\b", re.I)
_LISTING = re.compile(
    r"\b(?:listed|cause\s*-?\s*list|board|posted|coming\s+up|due|deadlines?|on\s+the\s+list|any\s+matters?|what\s+matters|"
    r"which\s+(?:cases|matters)|what(?:'s|\s+is|\s+do\s+we\s+have|\s+have\s+we\s+got)\s+(?:on|up|there|listed))\b",
    re.I)
_DAY_NAMES = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)
_DAYS_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MAX_DAYS = 14


def week(text: str, today: date) -> list[date] | None:
    """The days of the week the words name: this week from today to Sunday, next week Monday to Sunday."""
    found = _WEEK.search(text)
    if found is None:
        return None
    monday = today - timedelta(days=today.weekday())
    said = found.group(1).lower()
    if said == "this":
        start, end = today, monday + timedelta(days=6)
    elif said in ("next", "coming"):
        start, end = monday + timedelta(days=7), monday + timedelta(days=13)
    else:
        start, end = monday - timedelta(days=7), monday - timedelta(days=1)
    return [start + timedelta(days=n) for n in range((end - start).days + 1)]


def days_named(text: str, today: date) -> list[date] | None:
    """The days some words name, read forward as a day asked about is meant; None when they name none."""
    span = week(text, today)
    if span is not None:
        return span
    named = _DAY_NAMES.search(text)
    if named is not None and not re.search(r"\b(?:next|last|this|coming)\s+\w+day\b", text, re.I):
        wanted = _DAYS_NAMES.index(named.group(1).lower())
        return [today + timedelta(days=(wanted - today.weekday()) % 7)]
    try:
        return [parse_day(text, today, nearest=True)]
    except ValueError:
        return None


def listing_question(text: str, today: date) -> list[date] | None:
    """The days a question asks the cause list of ("what is listed next week?", "what's on tomorrow?",
    "cause list for 11/12"): today when it names none; None when it is not such a question."""
    if _LISTING.search(text) is None:
        return None
    return (days_named(text, today) or [today])[:MAX_DAYS]
