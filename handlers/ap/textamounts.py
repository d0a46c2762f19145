"""The figures of a printed invoice: amounts in Indian digit grouping, amounts in words, dates as offices print them.

Everything here is a pure function of one string. Dates are read day first, the way Indian offices write
them (18/04/2026 is the 18th of April); a two-digit year is this century.
"""

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from handlers.ap.money import PAISE

_NUMBER = re.compile(r"^(?:₹|rs\.?|inr|=)?\(?([-+]?)\)?(\d{1,3}(?:,\d{2,3})+|\d+)(\.\d{1,3})?(?:/-)?$", re.IGNORECASE)
_CURRENCY = re.compile(r"^(?:₹|rs\.?|inr|rupees|=)$", re.IGNORECASE)
"""A scan reads the rupee sign as "=" as often as not."""
_SIGN = re.compile(r"^\(?[-+]\)?$")

_MONTHS = {name: number for number, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
    ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
    ("dec", "december"),
), start=1) for name in names}
# A scan reads the O of "Oct" / "Nov" as a zero ("4-0ct-26").
_MONTHS |= {name.replace("o", "0"): number for name, number in list(_MONTHS.items()) if "o" in name}
_MONTH_WORD = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b"), "ymd"),
    (re.compile(r"\b(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4}|\d{2})\b"), "dmy"),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?[\s\-/.,]*({_MONTH_WORD})\.?[\s\-/.,']*(\d{{4}}|\d{{2}})\b", re.IGNORECASE),
     "dMy"),
    (re.compile(rf"\b({_MONTH_WORD})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.IGNORECASE), "Mdy"),
]

_UNITS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_TENS = {w: 10 * i for i, w in enumerate(["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]) if i > 1}
_TENS["fourty"] = 40
_SCALES = {"hundred": 100, "thousand": 1000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000, "lacs": 100_000,
           "crore": 10_000_000, "crores": 10_000_000, "million": 1_000_000}
_WORDS_START = re.compile(r"\b(?:rupees|inr|rs\.?)\b", re.IGNORECASE)


MAX_AMOUNT_DIGITS = 15
"""Rupees before the decimal point: a hundred lakh crore is already more than any invoice."""


def amount_of(token: str) -> Decimal | None:
    """Return the amount a printed token stands for ("4,58,784.00", "₹1,650", "Rs.500/-"), else None."""
    match = _NUMBER.match(token.strip())
    if not match:
        return None
    sign, whole, fraction = match.groups()
    digits = whole.replace(",", "")
    if len(digits) > MAX_AMOUNT_DIGITS:
        return None  # a run of digits no invoice amount has (a number too long for Decimal's context, too)
    try:
        value = Decimal(digits + (fraction or ""))
        return (-value if sign == "-" else value).quantize(PAISE, rounding=ROUND_HALF_UP)
    except InvalidOperation:
        return None


def is_currency(token: str) -> bool:
    return bool(_CURRENCY.match(token.strip(" :")))


def is_sign(token: str) -> bool:
    return bool(_SIGN.match(token))


def last_amount(text: str) -> Decimal | None:
    """Return the last amount on a line, ignoring percentages ("CGST @ 9% on 4,00,000 36,000.00" -> 36000)."""
    for token in reversed(text.replace("|", " ").split()):
        if token.endswith("%"):
            continue
        # A scan reads the rupee sign as "%", "*" or "~" stuck to the figure.
        value = amount_of(token.rstrip(":").lstrip("%*~"))
        if value is not None:
            return value
    return None


def _year(value: str) -> int:
    number = int(value)
    return number + 2000 if number < 100 else number


def find_date(text: str) -> tuple[date, int, int] | None:
    """Return the first date printed in the text, with where it starts and ends, or None."""
    found: list[tuple[int, int, date]] = []
    for pattern, order in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            a, b, c = match.groups()
            try:
                if order == "ymd":
                    day = date(int(a), int(b), int(c))
                elif order == "dmy":
                    day = date(_year(c), int(b), int(a))
                elif order == "dMy":
                    day = date(_year(c), _MONTHS[b.lower()], int(a))
                else:
                    day = date(int(c), _MONTHS[a.lower()], int(b))
            except (ValueError, KeyError):
                continue
            if 2000 <= day.year <= 2099:
                found.append((match.start(), match.end(), day))
    if not found:
        return None
    start, end, day = min(found, key=lambda f: (f[0], -f[1]))
    return day, start, end


def parse_date(value: str) -> date | None:
    """Return the date printed in `value` (22-Apr-26, 18/04/2026, 19.04.2026, 22 April 2026, 2026-04-22)."""
    found = find_date(value)
    return found[0] if found else None


def _number_of(words: list[str]) -> int | None:
    """Return the integer the number words spell, the Indian way (lakh, crore), or None if none are numbers."""
    current, total, seen = 0, 0, False
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        else:
            continue
        seen = True
    return total + current if seen else None


def words_to_amount(text: str) -> Decimal | None:
    """Return the amount written in words ("Rupees Four Lakh Fifty Eight Thousand ... and Paise Ten Only").

    Paise are read whether printed before or after the word "paise". None when no number words are found.
    """
    words = re.sub(r"[^a-z ]", " ", text.lower().replace("-", " ")).split()
    rupee_words, paise_words = words, []
    marker = next((i for i, w in enumerate(words) if w in ("paise", "paisa")), None)
    if marker is not None:
        after = [w for w in words[marker + 1:] if w != "only"]
        if _number_of(after) is not None:
            rupee_words, paise_words = words[:marker], after
        else:
            cut = max((i for i, w in enumerate(words[:marker]) if w in ("and", "rupees", "rupee")), default=-1)
            rupee_words, paise_words = words[:max(cut, 0)], words[cut + 1:marker]
    rupees = _number_of(rupee_words)
    paise = _number_of(paise_words) or 0
    if rupees is None and not paise:
        return None
    return (Decimal(rupees or 0) + Decimal(paise) / 100).quantize(PAISE)


def words_line(text: str) -> bool:
    """True when a line states an amount in words (a cross-check of the total, never the total itself)."""
    lowered = text.lower()
    if "in words" in lowered or "in word" in lowered:
        return True
    return bool(_WORDS_START.search(text)) and bool(re.search(r"\bonly\b", lowered)) and words_to_amount(text) is not None
