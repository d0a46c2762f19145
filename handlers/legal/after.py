"""Next dates written as a span from the hearing, as order sheets give them: "after four weeks", "call after 2
weeks", "in 10 days", "next month", "after vacation", and as said in Telugu or Hindi typed in Latin letters
("4 vaaralu tarvata", "10 rojula taruvata", "do hafte baad", "agle mahine", "vacation ke baad") or in Telugu
script ("నాలుగు వారాల తర్వాత").

A span counts from the hearing it was written at, never from the upload. "After vacation" names a day nobody
can know yet: it is found (so no other date is taken for it) but gives no date. "Next month" gives the same
day a month on, held as a doubt for a person to check.
"""

import calendar
import re
from datetime import date, timedelta

from pydantic import BaseModel

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    # Telugu in Latin letters
    "oka": 1, "okka": 1, "okati": 1, "rendu": 2, "moodu": 3, "mudu": 3, "nalugu": 4, "naalugu": 4, "aidu": 5,
    "ayidu": 5, "aaru": 6, "enimidi": 8, "padi": 10, "padhi": 10, "padihenu": 15,
    # Hindi in Latin letters
    "ek": 1, "do": 2, "teen": 3, "tin": 3, "char": 4, "chaar": 4, "paanch": 5, "panch": 5, "chhe": 6, "chhah": 6,
    "saat": 7, "aath": 8, "nau": 9, "das": 10, "pandrah": 15, "bees": 20,
    # Telugu script
    "ఒక": 1, "ఒకటి": 1, "రెండు": 2, "మూడు": 3, "నాలుగు": 4, "ఐదు": 5, "ఆరు": 6, "ఏడు": 7, "ఎనిమిది": 8,
    "పది": 10, "పదిహేను": 15,
}
_UNITS = {
    "day": 1, "days": 1, "din": 1, "dino": 1, "dinon": 1, "roju": 1, "rojulu": 1, "rojula": 1,
    "రోజు": 1, "రోజులు": 1, "రోజుల": 1,
    "week": 7, "weeks": 7, "wk": 7, "wks": 7, "hafta": 7, "hafte": 7, "hafton": 7, "vaaram": 7, "varam": 7,
    "vaaralu": 7, "varalu": 7, "vaarala": 7, "varala": 7, "వారం": 7, "వారాలు": 7, "వారాల": 7,
    "fortnight": 14,
    "month": -1, "months": -1, "mahina": -1, "mahine": -1, "mahino": -1, "mahinon": -1, "nela": -1,
    "nelalu": -1, "nelala": -1, "నెల": -1, "నెలలు": -1, "నెలల": -1,
}
"""Days per unit; -1 for a calendar month."""

_NUMBER = (r"(?P<n>\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")(?:\s*\(\s*(?:\d{1,3}|[a-z]+)\s*\))?")
_UNIT_WORDS = "|".join(sorted(_UNITS, key=len, reverse=True))
_UNIT = r"(?P<u>" + _UNIT_WORDS + r")"
_LATER = r"(?:ke\s+)?(?:baad|bad|tarvata|taruvata|tarvatha|taruvatha|tarwata|later|hence|తర్వాత|తరువాత)"
_EDGE_L, _EDGE_R = r"(?<![\w\u0C00-\u0C7F])", r"(?![\w\u0C00-\u0C7F])"
_VACATION = (r"(?:(?:the\s+)?(?:summer|winter|dasara|dussehra|dasera|sankranti|sankranthi|christmas|diwali|deepavali|"
             r"annual|civil\s+courts?|court|long)\s+)?(?:vacation|vacations|holidays|recess|chhutti|chhuttiyon|"
             r"selavulu|selavula)")

# (pattern, stands alone as a next date without a marker before it)
_FORMS: list[tuple[re.Pattern[str], bool]] = [
    (re.compile(_EDGE_L + r"after\s+(?:(?:a\s+)?period\s+of\s+)?" + _NUMBER + r"\s+" + _UNIT + _EDGE_R, re.I), True),
    (re.compile(_EDGE_L + r"after\s+(?P<n>a)\s+(?P<u>fortnight)" + _EDGE_R, re.I), True),
    (re.compile(_EDGE_L + _NUMBER + r"\s+" + _UNIT + r"\s+" + _LATER + _EDGE_R, re.I), True),
    (re.compile(_EDGE_L + r"(?:in|for|by|within)\s+(?:(?:a\s+)?period\s+of\s+)?(?:another\s+)?" + _NUMBER + r"\s+" + _UNIT
                + _EDGE_R, re.I), False),
    (re.compile(_EDGE_L + r"(?P<u>nela|mahine|mahina|నెల)\s+(?:ke\s+)?(?:baad|bad|tarvata|taruvata|tarvatha|"
                r"taruvatha|తర్వాత|తరువాత)" + _EDGE_R, re.I), True),  # "nela tarvata": after a month
]
_NEXT_MONTH = re.compile(_EDGE_L + r"(?:next\s+month|agle\s+mahine|agla\s+mahina|vach+(?:h)?e\s+nela|vache\s+nela|"
                         r"vachche\s+nela|వచ్చే\s+నెల)" + _EDGE_R, re.I)
_UNKNOWN = re.compile(_EDGE_L + r"(?:after\s+" + _VACATION + r"|" + _VACATION + r"\s+" + _LATER + r"|"
                      r"సెలవుల\s+(?:తర్వాత|తరువాత))" + _EDGE_R, re.I)


class Shift(BaseModel):
    months: int = 0
    days: int = 0
    unknown: bool = False
    """A day nobody can know yet ("after vacation"): no date."""
    doubtful: bool = False
    """A rough span ("next month"): a date for a person to check."""
    by_itself: bool = True
    """A next date even with no marker before it ("after four weeks"); "in 10 days" needs one ("call in 10
    days"), else it is a deadline ("reply in 10 days")."""

    def from_day(self, day: date) -> date | None:
        if self.unknown:
            return None
        index = day.year * 12 + day.month - 1 + self.months
        year, month = index // 12, index % 12 + 1
        moved = date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
        return moved + timedelta(days=self.days)


class ShiftSpan(BaseModel):
    start: int
    end: int
    shift: Shift


def _shift(number: str | None, unit: str, by_itself: bool) -> Shift | None:
    count = 1 if number is None else int(number) if number.isdigit() else _NUMBERS.get(number.lower())
    per = _UNITS.get(unit.lower())
    if not count or per is None or count > 400:
        return None
    if per < 0:
        return Shift(months=count, by_itself=by_itself)
    return Shift(days=count * per, by_itself=by_itself)


def shifts(text: str) -> list[ShiftSpan]:
    """Every span from the hearing the text writes, in order, none overlapping."""
    found: list[ShiftSpan] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s.start or start >= s.end for s in found)

    for match in _UNKNOWN.finditer(text):
        found.append(ShiftSpan(start=match.start(), end=match.end(), shift=Shift(unknown=True)))
    for match in _NEXT_MONTH.finditer(text):
        if free(match.start(), match.end()):
            found.append(ShiftSpan(start=match.start(), end=match.end(), shift=Shift(months=1, doubtful=True)))
    for pattern, by_itself in _FORMS:
        for match in pattern.finditer(text):
            groups = match.groupdict()
            shift = _shift(groups.get("n"), groups["u"], by_itself)
            if shift is not None and free(match.start(), match.end()):
                found.append(ShiftSpan(start=match.start(), end=match.end(), shift=shift))
    return sorted(found, key=lambda s: s.start)
