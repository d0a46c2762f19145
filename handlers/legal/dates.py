"""Finding dates in legal text, as clerks write them, each with what the words around it say it is.

Numeric dates are day first (22/06/26, 22-06-2026, 22.6.26, 12/9 without a year); dates in words take
ordinals and either order (25th Nov 2026, 25 November, 2026, Nov 25, 2026, the 14th day of March, 2011),
in English or Telugu month names. "today" / "yesterday" (ఈ రోజు, నిన్న, ivala, ninna) are dates too, relative
to the upload. A date without a year gets the year that puts it on or before a reference day (the upload),
or on or after it (a next date after the hearing).
"""

import re
from datetime import date, timedelta

from handlers.legal.after import Shift, shifts

from pydantic import BaseModel

from handlers.legal.markers import ends_with_marker, role_of

__all__ = ["MONTHS", "FoundDate", "announces_next", "ends_with_marker", "file_name_date", "find_dates", "find_weekday", "leading_date",
           "next_date_in", "parse_day"]

MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_TELUGU_MONTHS = {
    "జనవరి": 1, "ఫిబ్రవరి": 2, "మార్చి": 3, "ఏప్రిల్": 4, "మే": 5, "జూన్": 6, "జులై": 7, "జూలై": 7,
    "ఆగస్టు": 8, "ఆగష్టు": 8, "సెప్టెంబర్": 9, "సెప్టెంబరు": 9, "అక్టోబర్": 10, "అక్టోబరు": 10,
    "నవంబర్": 11, "నవంబరు": 11, "డిసెంబర్": 12, "డిసెంబరు": 12,
}
# Telugu month names typed in Latin letters, as said: Janavari, Phibravari, Disambar (spellings vary by writer).
_ROMAN_TELUGU_MONTHS = {
    r"jana?va?r[iy]": 1, r"(?:ph|f|p)[ie]b[ru]+a?var[iy]": 2, r"marchi": 3, r"(?:e|ae|ye)pril": 4,
    r"ju?oon": 6, r"jul+ai": 7, r"aga(?:s|sh)tu": 8, r"sep?tembaru?": 9, r"akto?baru?": 10,
    r"nava?mbaru?": 11, r"di(?:s|sh)[ae]mbaru?": 12,
}
_EN_MONTH = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
             r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_MONTH = ("(" + "|".join(_ROMAN_TELUGU_MONTHS) + "|" + _EN_MONTH + "|"
          + "|".join(sorted(_TELUGU_MONTHS, key=len, reverse=True)) + ")")
_ORD = r"(?:st|nd|rd|th)?"
# A two-digit year is not one when a four-digit year follows: "Jan 10, 2021" is the 10th, not 2010.
_YEAR = r"(?:'|’)?(\d{4}|\d{2}(?!,?\s*\d{4}))(?!\d)"

_ISO = re.compile(r"(?<![\d/.\-])((?:19|20)\d{2})-(\d{2})-(\d{2})(?![\d/.\-])")
_NUMERIC = re.compile(r"(\d{1,2})\s?([./\-])\s?(\d{1,2})(?:\s?\2\s?(\d{4}|\d{2}))?"
                      r"(?![\d/\-]|\.\d|\s?[./\-]\s?\d|\s?(?:th|rd)\b)")
_DAY_MONTH = re.compile(
    rf"(?<![\w/])(\d{{1,2}}){_ORD}(?:\s+day)?(?:\s+of)?[\s,./\-]*{_MONTH}\.?(?![a-z])(?:[\s,./\-]+{_YEAR})?", re.I
)
# "Sep 22:30" is a time; "September 22: args concluded" is a date heading a note.
_MONTH_DAY = re.compile(rf"(?<![a-z]){_MONTH}\.?\s+(\d{{1,2}}){_ORD}(?!\d|:\d)(?:,?\s+{_YEAR})?", re.I)
# "22nd" alone: a date only after a next-date marker ("further cross 22nd"); else a witness or a Sunday.
_DAY_ALONE = re.compile(r"(?<![\w/.\-])(\d{1,2})(?:st|nd|rd|th)(?![\w/\-]|\.\d|\s*(?:day|of)\b|\s?[-/]\s?\d)", re.I)
_RELATIVE = re.compile(
    r"(?<![\w\u0C00-\u0C7F])(day\s+before\s+yesterday|yesterday|to-?day|this\s+morning|tomorrow|"
    r"ఈ\s?రోజు|ఇవాళ|ఇవ్వాళ|నేడు|మొన్న|నిన్న|రేపు|ivv?aa?la|ee\s?roju|nedu|ninna|monna|repu|aaj)"
    r"(?![\w\u0C00-\u0C7F])", re.I,
)
_RELATIVE_DAYS = {"day before yesterday": -2, "yesterday": -1, "today": 0, "to-day": 0, "this morning": 0,
                  "tomorrow": 1, "ఈ రోజు": 0, "ఈరోజు": 0, "ఇవాళ": 0, "ఇవ్వాళ": 0, "నేడు": 0, "మొన్న": -2,
                  "నిన్న": -1, "రేపు": 1, "nedu": 0, "ninna": -1, "monna": -2, "repu": 1, "aaj": 0}


# "on Monday", "last Friday" (a weekday with no date beside it) name a day counted from the upload too.
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
# The days of the week in Telugu, in its script and typed in Latin letters as said (spellings vary: somavaram,
# somvaram, sOmavaaramu; Thursday is also lakshmivaram or bestavaram), and in the Hindi forms clerks use.
_TELUGU_WEEKDAYS = ["సోమ", "మంగళ", "బుధ", "(?:గురు|లక్ష్మి|బేస్త)", "శుక్ర", "శని", "(?:ఆది|రవి)"]
_LATIN_WEEKDAYS = [r"s[oa]ma?", r"mangal(?:a)?", r"budh(?:a)?", r"(?:guru|lakshmi|laxmi|besta|brihaspati|bruhaspati)",
                   r"s?h?ukra?", r"s?h?ani", r"(?:aa?di|ravi|it)"]
_TE = r"\u0C00-\u0C7F"
_WEEKDAY_WORD = re.compile(
    rf"(?<![\w{_TE}])(?:(" + "|".join(_WEEKDAYS) + r")\b|"
    + "".join(rf"({stem})వార(?:ం|ము|ాన|ాన్ని|ం\s?నాడు)?(?![{_TE}])|" for stem in _TELUGU_WEEKDAYS)
    + "|".join(rf"({stem})\s?va+a?r(?:a+m|a+mu|u|am\s?naadu|am\s?nadu)?\b" for stem in _LATIN_WEEKDAYS) + ")",
    re.I)

# "on Monday", "last somavaram": a weekday with no date beside it.
_WEEKDAY = re.compile(r"(?<![\w])(on|last|next|this|coming)\s+(" + re.sub(r"\((?!\?)", "(?:", _WEEKDAY_WORD.pattern)
                      + r")(?!\s*[,(]?\s*\d)", re.I)


def find_weekday(text: str) -> tuple[int, int] | None:
    """The first day of the week named in the text, in English or Telugu (script or Latin letters): its index
    (Monday 0) and where it starts; None when it names none."""
    found = _WEEKDAY_WORD.search(text)
    if found is None:
        return None
    group = next(i for i, value in enumerate(found.groups()) if value is not None)
    index = _WEEKDAYS.index(found.group(1).lower()) if group == 0 else (group - 1) % 7
    return index, found.start()


class FoundDate(BaseModel):
    """A date as written: its position, its parts (year may be missing) and what the words around it say."""

    start: int
    end: int
    day: int
    month: int | None
    """None for a day written alone after a next-date marker ("further cross 22nd"): the first such day after."""
    year: int | None
    role: str
    """"next" for a next date, "other" for a filing date, deadline or previous date, else "plain"."""
    fixed: date | None = None
    """The day a relative word ("yesterday") names, counted from the upload."""
    shift: Shift | None = None
    """A span counted from the reference day (the hearing): "after four weeks", "10 din baad"; or a day no one
    can know yet ("after vacation")."""

    @property
    def relative(self) -> bool:
        return self.fixed is not None or self.shift is not None

    def on(self, reference: date, after: bool = False, nearest: bool = False) -> date | None:
        """Return the date, choosing a missing year to fall on/before (or on/after) the reference day, or with
        `nearest` the nearest such date either way (a later one on a tie), as a date asked about is meant."""
        if self.fixed is not None:
            return self.fixed
        if self.shift is not None:
            return self.shift.from_day(reference)
        if self.month is None:
            return _day_alone(self.day, reference, after)
        if self.year is not None:
            return _safe(self.year, self.month, self.day)
        if nearest:
            month, day = self.month, self.day
            near = (_safe(y, month, day) for y in range(reference.year - 1, reference.year + 5))
            return min((d for d in near if d is not None), default=None,
                       key=lambda d: (abs((d - reference).days), d < reference))
        # Four years either way, so that 29/2 still finds its leap year.
        years = range(reference.year, reference.year + 5) if after else range(reference.year, reference.year - 5, -1)
        for year in years:
            candidate = _safe(year, self.month, self.day)
            if candidate is not None and (candidate >= reference if after else candidate <= reference):
                return candidate
        return None


def _day_alone(day: int, reference: date, after: bool) -> date | None:
    """The first date with that day of the month on/after (or on/before) the reference, within two months."""
    step = 1 if after else -1
    for months in range(3):
        index = reference.year * 12 + reference.month - 1 + step * months
        candidate = _safe(index // 12, index % 12 + 1, day)
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


def _month(raw: str) -> int:
    roman = next((m for pattern, m in _ROMAN_TELUGU_MONTHS.items() if re.fullmatch(pattern, raw, re.I)), None)
    return roman or _TELUGU_MONTHS.get(raw) or MONTHS[raw[:3].lower()]


def _numeric(text: str, free: "_Free") -> list[tuple[int, int, int, int | None, int | None]]:
    """Numeric dates, scanning every start so "1. 14.10.2026" still finds 14.10.2026 after failing on "1. 14"."""
    found: list[tuple[int, int, int, int | None, int | None]] = []
    position = 0
    while True:
        match = _NUMERIC.search(text, position)
        if match is None:
            return found
        start = match.start()
        position = start + 1
        if _inside_word_or_number(text, start):
            continue
        day, month, year = int(match.group(1)), int(match.group(3)), _year(match.group(4))
        if not (1 <= day <= 31 and 1 <= month <= 12) or not free(start, match.end()):
            continue
        if year is not None and _safe(year, month, day) is None:
            continue
        if year is None and match.group(2) != "/" and role_of(text, start, match.end()) != "next":
            continue  # "4.5" or "2-3" is a number; "12/9", or "15.10" after N.D., is a short date
        found.append((start, match.end(), day, month, year))
        position = match.end()


def _bare_may(month: str, year: str | None, written: str, text: str, start: int, end: int) -> bool:
    """Return True for "2 may" with no year, no ordinal and no next-date marker: the verb, not the month."""
    if month.lower() != "may" or year is not None or re.search(r"\d(?:st|nd|rd|th)", written, re.I):
        return False
    return role_of(text, start, end) != "next"


def _inside_word_or_number(text: str, start: int) -> bool:
    """Return True when a digit at `start` continues a number ("2291/2024", "1.5.3") or a word ("B4")."""
    if start == 0:
        return False
    before = text[start - 1]
    if before.isdigit() or (before.isascii() and before.isalpha()):
        return True
    return before in "/.-" and start > 1 and text[start - 2].isdigit()


class _Free:
    def __init__(self, taken: list[tuple[int, int]]) -> None:
        self.taken = taken

    def __call__(self, start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in self.taken)


def find_dates(text: str, excluded: list[tuple[int, int]] | None = None,
               today: date | None = None) -> list[FoundDate]:
    """Return every date in the text in order, skipping spans (case numbers) that only look like dates.

    With `today` (the upload day), relative words ("yesterday", నిన్న) are dates too.
    """
    spans: list[tuple[int, int, int, int | None, int | None]] = []
    free = _Free(list(excluded or []))
    worded: list[tuple[int, int, int, int | None, int | None]] = []
    for match in _DAY_MONTH.finditer(text):
        if not _bare_may(match.group(2), match.group(3), match.group(0), text, match.start(), match.end()):
            worded.append((match.start(), match.end(), int(match.group(1)), _month(match.group(2)),
                           _year(match.group(3))))
    for match in _MONTH_DAY.finditer(text):
        if not _bare_may(match.group(1), match.group(3), match.group(0), text, match.start(), match.end()):
            worded.append((match.start(), match.end(), int(match.group(2)), _month(match.group(1)),
                           _year(match.group(3))))
    # A date with its year wins an overlap: in "2. Jan 3, 2021" the 2 is a serial number.
    for found in sorted(worded, key=lambda w: (w[4] is None, w[0])):
        if 1 <= found[2] <= 31 and free(found[0], found[1]):
            spans.append(found)
            free.taken.append((found[0], found[1]))
    # Year first (2026-12-07), as exports and typed notes from a computer write it: never day first.
    for match in _ISO.finditer(text):
        year, month, day = (int(g) for g in match.groups())
        if _safe(year, month, day) is not None and free(match.start(), match.end()):
            spans.append((match.start(), match.end(), day, month, year))
            free.taken.append((match.start(), match.end()))
    for found in _numeric(text, free):
        spans.append(found)
        free.taken.append((found[0], found[1]))
    for match in _DAY_ALONE.finditer(text):
        day = int(match.group(1))
        if 1 <= day <= 31 and free(match.start(), match.end()) and role_of(text, match.start(), match.end()) == "next":
            spans.append((match.start(), match.end(), day, None, None))
    dates = [FoundDate(start=s, end=e, day=d, month=m, year=y, role=role_of(text, s, e)) for s, e, d, m, y in spans]
    if today is not None:
        for match in _RELATIVE.finditer(text):
            word = re.sub(r"\s+", " ", match.group(1).lower())
            offset = _RELATIVE_DAYS.get(word, _RELATIVE_DAYS.get(word.replace(" ", ""), 0))
            named = today + timedelta(days=offset)
            role = role_of(text, match.start(), match.end())
            if role == "other" and offset <= 0:
                role = "plain"  # "counter filed today": what was done today happened at today's hearing
            dates.append(FoundDate(start=match.start(), end=match.end(), day=named.day, month=named.month,
                                   year=named.year, role=role, fixed=named))
        dates += _weekdays(text, today)
        dates += _shifted(text, free)
    return sorted(dates, key=lambda d: d.start)


# "stands over for 2 months", "deferred by a week": the matter moves by the span.
_MOVED_BY = re.compile(r"\b(?:st(?:an)?ds?|stood)\s+over\s*$|\b(?:deferred|postponed|put\s+off)\s*$", re.I)


def _shifted(text: str, free: "_Free") -> list[FoundDate]:
    """Spans counted from the hearing ("after four weeks", "in 10 days", "4 vaaralu tarvata"), as next dates
    when the words around say so; a span after "filed" or "within" is a deadline ("other"), never a next date."""
    found: list[FoundDate] = []
    for span in shifts(text):
        if not free(span.start, span.end):
            continue
        role = role_of(text, span.start, span.end)
        if role not in ("next", "other"):
            moved = _MOVED_BY.search(text[max(0, span.start - 24):span.start]) is not None
            role = "next" if span.shift.by_itself or moved else "other"
        found.append(FoundDate(start=span.start, end=span.end, day=0, month=None, year=None, role=role,
                               shift=span.shift))
    return found


def announces_next(text: str, excluded: list[tuple[int, int]] | None = None) -> bool:
    """Return True when the text gives its next date, as a date or as a span ("call after four weeks", "after
    vacation"): a line that does is complete, whatever purpose follows."""
    return (any(d.role == "next" for d in find_dates(text, excluded))
            or any(d.role == "next" for d in _shifted(text, _Free(list(excluded or [])))))


def _weekdays(text: str, today: date) -> list[FoundDate]:
    """Return "on Wednesday" as the latest Wednesday on or before the upload ("last": before it); after a
    next-date marker ("posted on Monday"), the first one after the upload."""
    found: list[FoundDate] = []
    for match in _WEEKDAY.finditer(text):
        wanted = find_weekday(match.group(2))[0]  # type: ignore[index]
        role = role_of(text, match.start(), match.end())
        said = match.group(1).lower()
        if said in ("next", "coming", "this"):
            # "next Monday" is the first Monday after the day it was said; "this Friday" the one of this week.
            ahead = (wanted - today.weekday()) % 7 if said == "this" else (wanted - today.weekday() - 1) % 7 + 1
            named = today + timedelta(days=ahead)
            role = "next" if named > today else "plain"
        elif role == "next":
            named = today + timedelta(days=(wanted - today.weekday() - 1) % 7 + 1)
        else:
            back = (today.weekday() - wanted) % 7
            named = today - timedelta(days=back or (7 if match.group(1).lower() == "last" else 0))
            role = "plain"
        found.append(FoundDate(start=match.start(), end=match.end(), day=named.day, month=named.month,
                               year=named.year, role=role, fixed=named))
    return found


# OCR reads "Sl." as "SI." or "S1.".
_ROW_PREFIX = re.compile(r"^[\s|*•\-–(\[]*(?:(?:s\.?\s?no|s[il1]\.?\s?no|s[il1]|item)\.?\s*)?(?:\d{1,3}\s*[.)|]?\s+)?"
                         r"[|\s:]*(?:(?:dt|dated|date)\b\.?\s*[:\-]?\s*)?", re.I)
_PLAIN_PREFIX = re.compile(r"^[\s|*•\-–(\[]*")


def leading_date(line: str, excluded: list[tuple[int, int]] | None = None) -> FoundDate | None:
    """Return the date a line starts with (an order-sheet row, a dated note line), if it starts with one.

    A serial number and table bars before it are allowed: `1 | 14.10.2026 | ...`, `2.  14.10.2026  ...`.
    """
    found = [d for d in find_dates(line, excluded) if not d.relative]
    if not found:
        return None
    first = found[0]
    for prefix in (_PLAIN_PREFIX, _ROW_PREFIX):
        if first.start <= prefix.match(line).end() + 1:  # type: ignore[union-attr]
            return first if first.role == "plain" else None
    return None


def next_date_in(text: str, hearing: date, excluded: list[tuple[int, int]] | None = None) -> date | None:
    """Return the first next date the text announces (after N.D., adjourned to ...), after the hearing."""
    for found in find_dates(text, excluded):
        if found.role == "next":
            value = found.on(hearing, after=True)
            if value is not None and value > hearing:
                return value
    return None


def file_name_date(name: str) -> date | None:
    """Return the date a camera or scanner wrote into a file name (IMG_20250618_114747.jpg), if any."""
    match = re.search(r"(20\d{2})[-_]?(\d{2})[-_]?(\d{2})", name)
    if not match:
        return None
    return _safe(int(match.group(1)), int(match.group(2)), int(match.group(3)))


def parse_day(value: str, reference: date | None = None, after: bool = False, nearest: bool = False,
              today: date | None = None) -> date:
    """Return the date a person typed (2026-09-24, 24.09.2026, 24 Sep 2026, 24/9, 18th December, tomorrow,
    next Monday); raise ValueError if none.

    A year-less date falls on or before the reference day, on or after it with `after` (a next date), or
    nearest to it with `nearest` (a day asked about: "/today 11/12" in December is this year's, never last
    year's). Words like "tomorrow" and "next Monday" count from `today` (default: the reference).
    """
    value = value.strip()
    try:
        return date.fromisoformat(value)
    except ValueError:
        pass
    now = today or reference or date.today()
    # A day and month typed alone ("7.12", "7-12") is a date in a date field, whatever the separator.
    value = re.sub(r"^(\d{1,2})\s?[.\-]\s?(\d{1,2})$", r"\1/\2", value)
    named = find_weekday(value)
    if named is not None and _WEEKDAY_WORD.fullmatch(value):  # "Monday" alone: the coming one (today if it is)
        return now + timedelta(days=(named[0] - now.weekday()) % 7)
    found = find_dates(value, today=now)
    if not found:
        raise ValueError("not a date")
    parsed = found[0].on(reference or now, after=after, nearest=nearest)
    if parsed is None:
        raise ValueError("not a real calendar date")
    return parsed
