"""Which days a lawyer's words name: a week ("this week", "next week"), a day ("tomorrow", "Monday", "11/12",
"18th December"), and whether a question asks what is listed on them ("what is listed next week?")."""

import re
from datetime import date, timedelta

from handlers.legal.dates import find_weekday, parse_day

_T = r"\u0C00-\u0C7F"  # Telugu letters and signs: \b does not see a word's edge after a vowel sign
_THIS = r"this|ee|ఈ"
_NEXT = r"next|coming|va(?:c|ch)+h?e+y?|raboye|వచ్చే|రాబోయే"
_LAST = r"last|previous|poyina|gatha|గత|పోయిన"
_WEEK = re.compile(rf"(?<![\w{_T}])({_THIS}|{_NEXT}|{_LAST})\s+(?:week|vaa?ram|వారం|వారము)(?![\w{_T}])", re.I)
_LISTING = re.compile(
    r"\b(?:listed|cause\s*-?\s*list|board|posted|coming\s+up|due|deadlines?|on\s+the\s+list|any\s+matters?|what\s+matters|"
    r"which\s+(?:cases|matters)|what(?:'s|\s+is|\s+do\s+we\s+have|\s+have\s+we\s+got)\s+(?:on|up|there|listed))\b|"
    rf"(?<![\w{_T}])(?:లిస్ట్|లిస్టు|జాబితా|కాజ్\s*లిస్ట్|వాయిదాలు|వాయిదా\s+ఉన్న|ఏ\s+కేసులు|ఏమి\s+కేసులు|ఏం\s+కేసులు|"
    r"list\s+ayy?|emi\s+(?:list|cases|kesulu)|ye\s+kesulu|vaayidalu)", re.I)
# "what is there" said of a day ("సోమవారం ఏమి ఉంది?", "repu emunnayi"): a listing question only when it names one.
_WHATS_THERE = re.compile(rf"(?<![\w{_T}])(?:ఏమి\s*ఉంది|ఏం\s*ఉంది|ఏముంది|ఏమి\s*ఉన్నాయి|ఏమున్నాయి|ఏం\s*ఉన్నాయి|"
                          r"emi\s*undi|em\s*undi|emundi|emi\s*unnayi|emunnayi|em\s*unnayi)(?![\w{_T}])".replace(
                              "{_T}", _T), re.I)
_NEXT_DAY = re.compile(rf"(?<![\w{_T}])(?:{_NEXT})\s+$", re.I)
MAX_DAYS = 14


def working_week(today: date) -> date:
    """The Monday of the week a lawyer means by "this week": the current one, or on a Sunday (no court sits
    and the week is over) the one starting tomorrow."""
    return today + timedelta(days=1) if today.weekday() == 6 else today - timedelta(days=today.weekday())


def week(text: str, today: date) -> list[date] | None:
    """The court days (Monday to Saturday) of the week the words name: this week from today on (on a Sunday,
    the coming week); the coming week the first one starting after today; next week the one after this week;
    last week the one before it."""
    found = _WEEK.search(text)
    if found is None:
        return None
    monday = working_week(today)
    said = found.group(1).lower()
    if re.fullmatch(_THIS, said, re.I):
        start = max(today, monday)
    elif said == "coming":
        start = monday if monday > today else monday + timedelta(days=7)
    elif re.fullmatch(_NEXT, said, re.I):
        start = monday + timedelta(days=7)
    else:
        start = monday - timedelta(days=7)
    end = start - timedelta(days=start.weekday()) + timedelta(days=5)
    return [start + timedelta(days=n) for n in range((end - start).days + 1)]


def days_named(text: str, today: date) -> list[date] | None:
    """The days some words name, read forward as a day asked about is meant; None when they name none."""
    span = week(text, today)
    if span is not None:
        return span
    named = find_weekday(text)
    if named is not None:
        wanted, start = named
        if _NEXT_DAY.search(text[:start]):  # "next Monday", "vachche somavaram": the first one after today
            return [today + timedelta(days=(wanted - today.weekday() - 1) % 7 + 1)]
        if not re.search(r"\b(?:last|this)\s+$", text[:start], re.I):  # "Monday", "on somavaram": the coming one
            return [today + timedelta(days=(wanted - today.weekday()) % 7)]
    try:
        return [parse_day(text, today, nearest=True)]
    except ValueError:
        return None


def listing_question(text: str, today: date) -> list[date] | None:
    """The days a question asks the cause list of ("what is listed next week?", "what's on tomorrow?",
    "cause list for 11/12"): today when it names none; None when it is not such a question."""
    if _LISTING.search(text) is None:
        named = days_named(text, today) if _WHATS_THERE.search(text) else None
        return named[:MAX_DAYS] if named else None
    return (days_named(text, today) or [today])[:MAX_DAYS]
