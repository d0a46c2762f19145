"""What a clerk typed in chat when it is not an invoice: a move on an earlier invoice by its number ("approve
SVC/26-27/187", "hold invoice 187 of Sri Ram"), a question about one invoice ("what is the state of 187?"), or
a question about a vendor ("what did we pay Lakshmi Traders last month?", "any problems with vendor X?").

Pure parsing: which intent, the invoice number as typed, the words left for the vendor, and the period. Who
and what those words name is looked up in the ledger (handlers/ap/answers.py), never guessed here.
"""

import re
from calendar import monthrange
from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel

Intent = Literal["approve", "hold", "review", "reject", "release", "state", "paid", "problems"]

_ACTIONS: list[tuple[str, Intent]] = [
    (r"release|lift\s+(?:the\s+)?hold(?:\s+on)?|remove\s+(?:the\s+)?hold(?:\s+on)?|un-?hold|విడుదల\s*చేయి", "release"),
    (r"send\s+(?:it\s+)?(?:to\s+)?review|review", "review"), (r"approve|ఆమోదించు", "approve"),
    (r"hold|put\s+on\s+hold|నిలిపివేయి", "hold"), (r"reject|తిరస్కరించు", "reject"),
]
_STATE = re.compile(r"\b(state|status|where\s+is|what\s+happened|stands?)\b|స్థితి", re.I)
_PAID = re.compile(r"\b(pay|paid|payments?)\b|చెల్లించ|చెల్లింపు", re.I)
_PROBLEMS = re.compile(r"\b(problems?|issues?|troubles?|exceptions?|blocks?|blocked|history|know)\b|సమస్య",
                       re.I)
_REASON = re.compile(r"\s(?:because|reason\s*[:\-]|since)\s+(.+)$", re.I | re.S)
_NUMBER = re.compile(r"[^\W_][\w/\-.]*(?:\s*[/\-]\s*[^\W_][\w/\-.]*)*")
"""A number as printed: letters, digits and separators, the separators maybe spaced ("SVC / 26-27 / 187")."""
_INVOICE_WORD = re.compile(r"(?<![\w/\-.])(?:invoice|inv|bill|no|number)(?![\w/\-]|\s*[/\-]\s*\w)\.?\s*[:#]?\s*|#\s*",
                           re.I)
"""The words before a number ("invoice no. 187"), never the same letters inside it ("DPD-INV-8540")."""
_VENDOR_TAIL = re.compile(r"\s(?:of|from|by)\s+(?:vendor\s+)?(.+)$", re.I)

STOPWORDS = frozenset("""
a about after all am an and any anything are as at been bill bills by can did do does done ever far for from get give
got had has have how i in into invoice invoices is it its know last let me month months much my now of on our over
paid pay payment payments please problem problems say show so tell that the their them there this to total trouble
troubles us vendor vendors was we week weeks were what when which who why with year yet issue issues exception
exceptions block blocks blocked history till until up since you
కి కు ఇప్పటివరకు ఎంత గత నెల ఈ ఏమైనా సమస్యలు సమస్య తో వెండర్ మనం చెల్లించాం చెల్లింపులు గురించి ఉన్నాయా
""".split())
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]


class Period(BaseModel):
    start: date | None = None
    end: date | None = None
    label: str = ""
    """As it was asked ("last month", "November 2026"); empty for all time."""

    def holds(self, day: date | None) -> bool:
        if day is None:
            return False
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


class Ask(BaseModel):
    intent: Intent
    number: str | None = None
    """The invoice number as typed (a full number, or its last digits)."""
    vendor_words: list[str] = []
    """The words left for a vendor's name or code, lower-cased."""
    vendor_text: str = ""
    """Those words as typed, to name back ("no vendor named ...")."""
    period: Period = Period()
    reason: str | None = None


def _month(day: date, back: int) -> tuple[date, date]:
    year, month = day.year, day.month - back
    while month < 1:
        year, month = year - 1, month + 12
    return date(year, month, 1), date(year, month, monthrange(year, month)[1])


def period_of(body: str, today: date) -> tuple[Period, str]:
    """The period a question names ("last month", "this month", "this year", "last 30 days", a month's name),
    and the text without it; all time when none is named."""
    lowered = body.lower()
    found: Period | None = None
    if match := re.search(r"\b(last|previous|this|current)\s+month\b", lowered):
        start, end = _month(today, 1 if match.group(1) in ("last", "previous") else 0)
        found = Period(start=start, end=end, label=match.group(0))
    elif match := re.search(r"\b(?:last|past)\s+(\d{1,3})\s+days\b", lowered):
        found = Period(start=today - timedelta(days=int(match.group(1))), end=today, label=match.group(0))
    elif match := re.search(r"\bthis\s+year\b", lowered):
        found = Period(start=date(today.year, 1, 1), end=today, label=match.group(0))
    elif match := re.search(r"\b(?:in\s+)?(" + "|".join(_MONTHS) + r")(?:\s+(\d{4}))?\b", lowered):
        month = _MONTHS.index(match.group(1)) + 1
        year = int(match.group(2)) if match.group(2) else (today.year if month <= today.month else today.year - 1)
        found = Period(start=date(year, month, 1), end=date(year, month, monthrange(year, month)[1]),
                       label=f"{match.group(1).title()} {year}")
    if found is None:
        return Period(), body
    return found, body[:match.start()] + " " + body[match.end():]


def _vendor_words(text: str) -> tuple[list[str], str]:
    words = [w.strip("?.,!;:'\"()") for w in text.split()]
    kept = [w for w in words if w and w.lower() not in STOPWORDS]
    return [w.lower() for w in kept], " ".join(kept)


def _number(text: str) -> tuple[str | None, str]:
    """The invoice number in a move or a state question (a token with a digit), and the text around it."""
    stripped = _INVOICE_WORD.sub(" ", text)
    for match in _NUMBER.finditer(stripped):
        token = match.group(0).strip(" .-/")
        if any(ch.isdigit() for ch in token):
            return token, stripped[:match.start()] + " " + stripped[match.end():]
    return None, text


def parse(body: str, today: date) -> Ask | None:
    """The clerk's move or question, or None when the text is neither (it is then answered as before)."""
    text = " ".join(body.split())
    if not text or text.startswith(("{", "/")) or len(text) > 300:
        return None
    reason = None
    if match := _REASON.search(text):
        reason, text = match.group(1).strip(), text[:match.start()]
    for pattern, intent in _ACTIONS:
        if match := re.match(rf"(?:please\s+)?(?:{pattern})\b\s*(.*)$", text, re.I):
            rest = match.group(1)
            vendor = ""
            if tail := _VENDOR_TAIL.search(" " + rest):
                vendor, rest = tail.group(1), (" " + rest)[:tail.start()]
            number, _ = _number(rest)
            if number is None:
                return None
            words, typed = _vendor_words(vendor)
            return Ask(intent=intent, number=number, vendor_words=words, vendor_text=typed, reason=reason)
    if _STATE.search(text):
        number, rest = _number(text)
        if number is not None:
            vendor = tail.group(1) if (tail := _VENDOR_TAIL.search(" " + rest)) else ""
            words, typed = _vendor_words(vendor)
            return Ask(intent="state", number=number, vendor_words=words, vendor_text=typed)
    period, rest = period_of(text, today)
    for pattern, intent in ((_PAID, "paid"), (_PROBLEMS, "problems")):
        if pattern.search(rest):
            words, typed = _vendor_words(rest)
            return Ask(intent=intent, vendor_words=words, vendor_text=typed, period=period)  # type: ignore[arg-type]
    return None


_QUESTION = re.compile(r"^\s*(what|how|any|which|where|when|show|list|tell|did|do|have|has|is)\b|\?\s*$", re.I)


def explicit(ask: Ask, body: str) -> bool:
    """A move on a numbered invoice, a state question, or a question in question form: what a clerk asked even
    while a reason is awaited (a reason that mentions a payment or an issue stays the reason)."""
    return ask.intent not in ("paid", "problems") or bool(_QUESTION.search(body))
