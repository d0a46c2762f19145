"""A past day as an officer types it into a card's Date field: today, yesterday, the day before yesterday, "3 days
ago" / "2 weeks back" / "3 rojula kritam", a weekday (the most recent one; "last Monday" the one before today),
or a written date (day first; a date without a year is the most recent such day). A visit date is never ahead
of today: a day that would be is None, for the field to say so."""

import re
from datetime import date, timedelta

from handlers.agri.textmatch import find_dates, normalise
from handlers.agri.timing import COUNT, count_of, weekday_of

_EDGE = r"(?<![a-z0-9\u0c00-\u0c7f])"
_END = r"(?![a-z\u0c00-\u0c7f])"
# Longest first: "day before yesterday" is not "yesterday". Tomorrow is named too, for the field to refuse it.
_BACK = [
    (re.compile(rf"{_EDGE}(?:day before yesterday|monna|మొన్న){_END}"), 2),
    (re.compile(rf"{_EDGE}(?:yesterday|yday|ninna|నిన్న){_END}"), 1),
    (re.compile(rf"{_EDGE}(?:day after tomorrow|ellundi|elundi|ఎల్లుండి){_END}"), -2),
    (re.compile(rf"{_EDGE}(?:tomorrow|repu|రేపు){_END}"), -1),
    (re.compile(rf"{_EDGE}(?:today|eeroju|ee roju|ivala|ivvala|ivaala|nedu|ఈ\s?రోజు|ఇవాళ|ఇవ్వాళ|నేడు){_END}"), 0),
]
_AGO = re.compile(rf"{_EDGE}{COUNT}\s*(?P<unit>days?|rojula|rojulu|roju|రోజుల|రోజులు|రోజు|weeks?|vaaralu|varala|"
                  rf"vaarala|వారాల|వారాలు)\s*(?:ago|back|before|kritam|kritham|క్రితం|mundu|ముందు){_END}")
_LAST = re.compile(rf"{_EDGE}(?:last|gatha|poyina|పోయిన|గత)\s+$")


def _weekday(norm: str, today: date) -> date | None:
    for word in re.findall(r"[a-z\u0c00-\u0c7f]+", norm):
        index = weekday_of(word)
        if index is None:
            continue
        back = (today.weekday() - index) % 7
        at = norm.index(word)
        if back == 0 and _LAST.search(norm[:at]):
            back = 7
        return today - timedelta(days=back)
    return None


def _written(text: str, today: date) -> date | None:
    for mention in find_dates(text.replace(".", "/")):
        years = [mention.year] if mention.year is not None else [today.year, today.year - 1]
        for year in years:
            try:
                day = date(year, mention.month, mention.day)
            except ValueError:
                continue
            if day <= today or mention.year is not None:
                return day
    return None


def past_day(text: str, today: date) -> date | None:
    """The day the text names, counted back from today; None when it names none. A written date ahead of today
    is returned as written (the caller refuses it as in the future)."""
    norm = normalise(text)
    ago = _AGO.search(norm)
    if ago is not None:
        unit = 7 if re.match(r"w|v|వా", ago["unit"]) else 1
        return today - timedelta(days=count_of(ago["n"]) * unit)
    for pattern, back in _BACK:
        if pattern.search(norm):
            return today - timedelta(days=back)
    return _written(text, today) or _weekday(norm, today)
