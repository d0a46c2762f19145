"""What a question asks for: the last hearing, a month, the next date, the history, or anything else."""

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel

from handlers.legal.dates import MONTHS, find_dates
from handlers.legal.register import number_spans

Intent = Literal["last", "month", "day", "next", "history", "general"]

_HISTORY = re.compile(r"\b(history|timeline|chronology|all\s+(the\s+)?hearings|every\s+hearing)\b", re.I)
_NEXT = re.compile(r"\bnext\s+(date|hearing|posting)\b|\bwhen\s+is\s+(it|the\s+case|the\s+matter)\s+(listed|posted)\b"
                   r"|\bwhen\s+is\b.*\b(listed|posted|next)\b", re.I)
_LAST = re.compile(r"\b(last\s+(time|hearing|date|posting)|previous\s+hearing|latest|most\s+recent)\b", re.I)
_HAPPENED = re.compile(r"\bwhat\s+happened\b|\bstatus\b|\bwhere\s+(are|do)\s+we\s+stand\b", re.I)
_MONTH = re.compile(r"\bin\s+(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
                    r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b(?:\s*,?\s*(\d{4}))?", re.I)


class Question(BaseModel):
    text: str
    intent: Intent
    month: int | None = None
    year: int | None = None
    day: date | None = None
    """The day asked about ("what happened on 24.08.2026 in ..."): that day's record answers."""


def parse_question(text: str, today: date | None = None) -> Question:
    """Return the intent of a question, with the day or the month (and year) it names, if any."""
    month = _MONTH.search(text)
    if _HISTORY.search(text):
        return Question(text=text, intent="history")
    if _NEXT.search(text):
        return Question(text=text, intent="next")
    reference = today or date.today()
    named = next((d.on(reference) for d in find_dates(text, number_spans(text), today=reference)
                  if d.month is not None), None)
    if named is not None:
        return Question(text=text, intent="day", day=named)
    if month and not _LAST.search(text):
        return Question(text=text, intent="month", month=MONTHS[month.group(1)[:3].lower()],
                        year=int(month.group(2)) if month.group(2) else None)
    if _LAST.search(text) or _HAPPENED.search(text):
        return Question(text=text, intent="last")
    return Question(text=text, intent="general")


def month_year(month: int, dates: list[date], today: date) -> int:
    """Return the year meant by a bare month: the latest one with a hearing in it, on or before today."""
    years = sorted({d.year for d in dates if d.month == month and d <= today}, reverse=True)
    if years:
        return years[0]
    return today.year if month <= today.month else today.year - 1


def looks_like_question(text: str) -> bool:
    stripped = text.strip()
    return stripped.endswith("?") or bool(re.match(
        r"(what|when|who|how|why|where|which|history|timeline|show|list|tell|is|did|has)\b", stripped, re.I))
