"""Which date of an entry is its hearing and which its next date, by what a hearing date IS.

A hearing recorded in an upload happened on or before the upload ("today" and "yesterday" count from it);
a date after the upload is a next date or a deadline, never the hearing. The next date is after the
hearing: the first date a next-date marker names, else (with a doubt, so a person checks it) the first
later date written with no marker at all.
"""

from datetime import date, timedelta

from pydantic import BaseModel

from handlers.legal.dates import FoundDate, file_name_date, find_dates
from handlers.legal.models import (
    GUESSED_CONFIDENCE_CAP,
    UNSURE_CONFIDENCE_CAP,
    DateSource,
    Doubt,
    Upload,
)
from memory.asof import IST

_CONFIDENCE: dict[DateSource, float] = {
    "row": 0.95, "header": 0.9, "text": 0.85, "document": 0.85, "edited": 1.0,
    "file_name": GUESSED_CONFIDENCE_CAP, "upload_time": 0.3,
}
_FAR = timedelta(days=366)


class DayHint(BaseModel):
    """A day the layout gives an entry: its row's date, the page's printed date, or the page's "today"."""

    day: date
    source: DateSource


class Dated(BaseModel):
    hearing_date: date
    source: DateSource
    next_date: date | None
    doubt: Doubt | None = None


def uploaded_day(upload: Upload) -> date:
    return upload.uploaded_at.astimezone(IST).date()


def guess_date(upload: Upload) -> tuple[date, DateSource]:
    """Return a date for an upload whose page has none: the file name's, else the upload day (a guess)."""
    from_name = file_name_date(upload.source_file)
    if from_name is not None and from_name <= uploaded_day(upload):
        return from_name, "file_name"
    return uploaded_day(upload), "upload_time"


def confidence(source: DateSource, case_by: str | None, doubt: Doubt | None = None) -> float:
    value = _CONFIDENCE[source]
    if case_by is None:
        value = min(value, 0.2)
    elif case_by != "number":
        value = round(value * 0.95, 3)
    if doubt is not None:
        value = min(value, UNSURE_CONFIDENCE_CAP)
    return value


def _hearing(dates: list[FoundDate], upload_day: date, own: DayHint | None,
             page: DayHint | None, upload: Upload) -> tuple[date, DateSource, FoundDate | None]:
    if own is not None and own.day <= upload_day:
        return own.day, own.source, None
    for found in dates:
        value = found.on(upload_day) if found.role == "pronounced" else None
        if value is not None and value <= upload_day:
            return value, "text", found  # an order is dated by its pronouncement, not the day it was heard
    for found in dates:
        value = found.on(upload_day) if found.role == "plain" else None
        if value is not None and value <= upload_day:
            return value, "text", found
    if page is not None and page.day <= upload_day:
        return page.day, page.source, None
    day, source = guess_date(upload)
    return day, source, None


def _later(found: FoundDate, hearing: date, upload_day: date) -> date | None:
    value = found.on(hearing, after=True)
    if value is None or value <= hearing or (found.year is None and value - hearing > _FAR):
        return None
    return value


def date_entry(text: str, spans: list[tuple[int, int]], upload: Upload, own: DayHint | None = None,
               page: DayHint | None = None, next_column: bool = False) -> Dated:
    """Return the hearing date (never after the upload) and the next date (after it) of one entry's text.

    `next_column`: the page is a table with a next-date column, so a later date in a row is its next date.
    """
    upload_day = uploaded_day(upload)
    dates = find_dates(text, spans, today=upload_day)
    hearing, source, used = _hearing(dates, upload_day, own, page, upload)
    guessed = source in ("file_name", "upload_time")
    unknown = False
    for found in dates:
        if found.role == "next":
            if found.shift is not None and found.shift.unknown:
                unknown = True  # "after vacation": a next day nobody knows yet; no other date is taken for it
                continue
            value = found.on(hearing, after=True)
            # A guessed hearing date may be later than the real one: keep the next date for the person to check.
            if value is not None and (value > hearing or guessed) and found is not used:
                rough = found.shift is not None and found.shift.doubtful
                return Dated(hearing_date=hearing, source=source, next_date=value,
                             doubt="next_date" if rough else None)
    if unknown:
        return Dated(hearing_date=hearing, source=source, next_date=None)
    # A page dated after its upload ("Tomorrow's board (5.1.2027)") lists its matters for that day: their next
    # date; no hearing is on it, so the hearing date stays a guess.
    listed = next((hint.day for hint in (own, page) if hint is not None and hint.day > upload_day), None)
    if listed is not None and listed > hearing:
        return Dated(hearing_date=hearing, source=source, next_date=listed)
    for found in dates:
        # "allowed for today only" in an order sent days later: a relative word counted from the upload is
        # never an unmarked next date unless it names a day still to come ("tomorrow").
        if found.role == "plain" and found is not used and not (found.fixed is not None and found.fixed <= upload_day):
            value = _later(found, hearing, upload_day)
            if value is not None:
                return Dated(hearing_date=hearing, source=source, next_date=value,
                             doubt=None if next_column and not guessed else "next_date")
    return Dated(hearing_date=hearing, source=source, next_date=None)
