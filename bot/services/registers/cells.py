"""Cells as Indian offices write them, read into plain values: dates day first (`12-04-2023`, `12/4/23`,
`12-Apr-2023`, `12 April 2023`, Excel serials), numbers with units and currency (`3 ac`, `Rs 1,200.50`,
`1,20,000/-`), mobiles (`09100 334455`, `+91 91003 34455`) and people's names without their honorifics
(`Sri Anjaiah garu`). Each refusal says what was written and how to
write it, never a pattern."""

import re
from datetime import date, timedelta

_EXCEL_EPOCH = date(1899, 12, 30)
_MONTHS = {name: number for number, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
    ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
    ("dec", "december")), start=1) for name in names}
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?")
_DAY_FIRST = re.compile(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{2}|\d{4})")
_NAMED_MONTH = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s*[-/. ]\s*([A-Za-z]{3,9})\.?\s*[-/., ]\s*(\d{2}|\d{4})")
_SERIAL = re.compile(r"\d{5}(?:\.0+)?")
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")
_CURRENCY = re.compile(r"(?i)\b(?:rs|inr|rupees?)\b\.?|₹|/-")


def _year(written: str) -> int:
    value = int(written)
    return value + 2000 if value < 100 else value


def parse_date(written: str) -> date:
    """A date as an Indian office writes it, day before month; ValueError in plain words when it is not one."""
    text = written.strip()
    try:
        if _SERIAL.fullmatch(text):
            return _EXCEL_EPOCH + timedelta(days=int(float(text)))
        if found := _ISO.fullmatch(text):
            return date(int(found[1]), int(found[2]), int(found[3]))
        if found := _DAY_FIRST.fullmatch(text):
            return date(_year(found[3]), int(found[2]), int(found[1]))
        if (found := _NAMED_MONTH.fullmatch(text)) and found[2].lower() in _MONTHS:
            return date(_year(found[3]), _MONTHS[found[2].lower()], int(found[1]))
    except ValueError:
        raise ValueError(f"{written.strip()!r} is not a date of the calendar") from None
    raise ValueError(f"{written.strip()!r} is not a date (write it like 12-04-2023)")


def date_text(written: str) -> str:
    """A date cell as ISO text ("12-Apr-2023" -> "2023-04-12"); an empty cell stays empty."""
    return parse_date(written).isoformat() if written.strip() else ""


def number_text(written: str | None) -> str | None:
    """A number as written with its currency and unit ("Rs 1,200.50", "3 ac", "1,20,000/-") as plain digits
    ("1200.50", "3", "120000"); None when the cell is empty; ValueError when it holds no number or two."""
    if written is None or not written.strip():
        return None
    text = _CURRENCY.sub(" ", written.replace("\u00a0", " "))
    found: list[str] = _NUMBER.findall(text)
    if not found:
        raise ValueError(f"{written.strip()!r} is not a number")
    if len(found) > 1:
        raise ValueError(f"{written.strip()!r} holds more than one number")
    return str(found[0]).replace(",", "").lstrip("+")


def indian_mobile(written: str) -> str:
    """A mobile number in international form: "09100 334455", "91003-34455", "+91 91003 34455" and
    "0091 9100334455" are "+919100334455"; a number with another country's code is kept with it."""
    digits = re.sub(r"\D", "", written)
    if written.strip().startswith("+") and 8 <= len(digits) <= 15:
        return f"+{digits}"
    if digits.startswith("00") and 10 <= len(digits) <= 17:
        return f"+{digits[2:]}"
    if len(digits) == 11 and digits.startswith("0"):
        digits = digits[1:]
    if len(digits) == 10 and digits[0] in "6789":
        return f"+91{digits}"
    if len(digits) == 12 and digits.startswith("91") and digits[2] in "6789":
        return f"+{digits}"
    raise ValueError(f"mobile number {written.strip()!r} is not a 10-digit mobile; "
                     "a number outside India needs its country code (+..)")


_TITLES_BEFORE = {"sri", "shri", "shree", "sree", "smt", "srimathi", "srimati", "shrimati", "mr", "mrs", "ms", "kum",
                  "adv", "advocate", "శ్రీ", "శ్రీమతి", "కుమారి"}
_TITLES_AFTER = {"garu", "gaaru", "ji", "sir", "saab", "saheb", "madam", "గారు"}
_PERSON_WORD = re.compile(r"\S+")
_GLUED_TITLE = re.compile(r"(?i)^\s*((?:sri|shri|smt|mr|mrs|ms|kum|adv)\.)(?=\S)")


def person_name(written: str) -> str:
    """A person's name as a register keeps it, without the honorific an office writes around it ("Sri
    Anjaiah garu", "Smt. Lakshmamma", "Adv. K. Rao", "శ్రీ రాములు గారు" -> "Anjaiah", "Lakshmamma", "K. Rao",
    "రాములు"); a name that is nothing but a title stays as written."""
    words = _PERSON_WORD.findall(_GLUED_TITLE.sub(r"\1 ", written))

    def bare(word: str) -> str:
        return word.strip(".,:;").casefold()

    start, end = 0, len(words)
    while start < end - 1 and bare(words[start]) in _TITLES_BEFORE:
        start += 1
    while end - 1 > start and bare(words[end - 1]) in _TITLES_AFTER:
        end -= 1
    return " ".join(words[start:end])
