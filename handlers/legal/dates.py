"""Finding dates in legal text, and telling the hearing date from the dates that are not it.

A note is full of dates and exactly one is the hearing: the next date (N.D., next date, adjourned to, call
on), filing dates and dates quoted in a deed are never it. Dates without a year (`12/9`) get the year that
puts them on or before a reference day (the upload), or on or after it (a next date after the hearing).
"""

import re
from datetime import date

from pydantic import BaseModel

MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_ORD = r"(?:st|nd|rd|th)?"

_NUMERIC = re.compile(r"(?<![\d/.\-])(\d{1,2})\s?([./\-])\s?(\d{1,2})(?:\2(\d{4}|\d{2}))?(?![\d/\-]|\.\d)")
_DAY_MONTH = re.compile(
    rf"(?<![\d])(\d{{1,2}}){_ORD}(?:\s+day)?(?:\s+of)?[\s,]+{_MONTH}\.?(?:[\s,]+(\d{{4}}))?(?![a-z])", re.I
)
_MONTH_DAY = re.compile(rf"(?<![a-z]){_MONTH}\.?\s+(\d{{1,2}}){_ORD},?\s+(\d{{4}})", re.I)

NEXT_MARKERS = re.compile(
    r"(n\.\s?d\.?|\bnd\b|next\s+date|next\s+hearing|adjourned\s+to|adj\.?\s+to|call\s+on|posted\s+to|"
    r"list\s+on|listed\s+on|stands\s+over\s+to|to\s+come\s+up\s+on|వాయిదా|తదుపరి\s+తేదీ)\s*[:\-]?\s*(?:on\s+)?$",
    re.I,
)
NOT_HEARING_MARKERS = re.compile(
    r"(filed\s+on|presented\s+on|instituted\s+on|registered\s+on|dated|executed\s+on(?:\s+this)?(?:\s+the)?|"
    r"issued\s+on|applied\s+on|made\s+ready\s+on|delivered\s+on|copy\s+on|born\s+on|since|from|w\.e\.f\.?)\s*[:\-]?\s*$",
    re.I,
)
_LOOKBEHIND = 28


class FoundDate(BaseModel):
    """A date as written: its position, its parts (year may be missing) and what the words before it say."""

    start: int
    end: int
    day: int
    month: int
    year: int | None
    role: str
    """"next" after a next-date marker, "other" after a filing or document marker, else "plain"."""

    def on(self, reference: date, after: bool = False) -> date | None:
        """Return the date, choosing a missing year to fall on/before (or on/after) the reference day."""
        if self.year is not None:
            return _safe(self.year, self.month, self.day)
        for year in ((reference.year, reference.year + 1) if after else (reference.year, reference.year - 1)):
            candidate = _safe(year, self.month, self.day)
            if candidate is not None and (candidate >= reference if after else candidate <= reference):
                return candidate
        return None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    value = int(raw)
    return value + 2000 if value < 100 else value


def _role(text: str, start: int) -> str:
    before = text[max(0, start - _LOOKBEHIND):start]
    if NEXT_MARKERS.search(before):
        return "next"
    if NOT_HEARING_MARKERS.search(before):
        return "other"
    return "plain"


def find_dates(text: str, excluded: list[tuple[int, int]] | None = None) -> list[FoundDate]:
    """Return every date in the text in order, skipping spans (case numbers) that only look like dates."""
    found: list[FoundDate] = []
    taken: list[tuple[int, int]] = list(excluded or [])

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    for match in _DAY_MONTH.finditer(text):
        day, month, year = int(match.group(1)), MONTHS[match.group(2)[:3].lower()], _year(match.group(3))
        if 1 <= day <= 31 and free(match.start(), match.end()):
            found.append(FoundDate(start=match.start(), end=match.end(), day=day, month=month, year=year,
                                   role=_role(text, match.start())))
            taken.append((match.start(), match.end()))
    for match in _MONTH_DAY.finditer(text):
        month, day, year = MONTHS[match.group(1)[:3].lower()], int(match.group(2)), _year(match.group(3))
        if 1 <= day <= 31 and free(match.start(), match.end()):
            found.append(FoundDate(start=match.start(), end=match.end(), day=day, month=month, year=year,
                                   role=_role(text, match.start())))
            taken.append((match.start(), match.end()))
    for match in _NUMERIC.finditer(text):
        day, month, year = int(match.group(1)), int(match.group(3)), _year(match.group(4))
        if year is None and match.group(2) != "/":
            continue  # "4.5" or "2-3" without a year is a number, not a date; only "12/9" is a short date
        if not (1 <= day <= 31 and 1 <= month <= 12) or not free(match.start(), match.end()):
            continue
        if year is not None and _safe(year, month, day) is None:
            continue
        found.append(FoundDate(start=match.start(), end=match.end(), day=day, month=month, year=year,
                               role=_role(text, match.start())))
        taken.append((match.start(), match.end()))
    return sorted(found, key=lambda d: d.start)


def leading_date(line: str, excluded: list[tuple[int, int]] | None = None) -> FoundDate | None:
    """Return the date a line starts with (an order-sheet row, a typed note), if it starts with one."""
    stripped = len(line) - len(line.lstrip(" \t*•-("))
    for found in find_dates(line, excluded):
        if found.start <= stripped + 1 and found.role == "plain":
            return found
        break
    return None


def ends_with_marker(line: str) -> bool:
    """Return True when a line ends with "N.D.", "call on", "filed on"...: a date on the next line belongs to it."""
    tail = line[-_LOOKBEHIND:] + " "
    return bool(NEXT_MARKERS.search(tail) or NOT_HEARING_MARKERS.search(tail))


def next_date_in(text: str, hearing: date, excluded: list[tuple[int, int]] | None = None) -> date | None:
    """Return the first next date the text announces (after N.D., adjourned to ...), on or after the hearing."""
    for found in find_dates(text, excluded):
        if found.role == "next":
            value = found.on(hearing, after=True)
            if value is not None and value >= hearing:
                return value
    return None


def file_name_date(name: str) -> date | None:
    """Return the date a camera or scanner wrote into a file name (IMG_20250618_114747.jpg), if any."""
    match = re.search(r"(20\d{2})[-_]?(\d{2})[-_]?(\d{2})", name)
    if not match:
        return None
    return _safe(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def parse_day(value: str, reference: date | None = None) -> date:
    """Return the date a person typed (2026-09-24, 24.09.2026, 24 Sep 2026, 24/9); raise ValueError if none."""
    value = value.strip()
    try:
        return date.fromisoformat(value)
    except ValueError:
        pass
    found = find_dates(value)
    if not found:
        raise ValueError("not a date")
    parsed = found[0].on(reference or date.today())
    if parsed is None:
        raise ValueError("not a real calendar date")
    return parsed
