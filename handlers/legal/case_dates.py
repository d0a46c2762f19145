"""A case's dates from its records: its last hearing, its next date, and whether a day lists it.

Only hearings and listings move dates. A case's next date is the latest next date (a hearing's, or the day a
cause list lists it) that falls after its last hearing, the most recently issued one winning; a later record
without a next date (a step, a document, a hearing written without one) never erases it.

A case register's next date is a listing whose issue day nobody knows (the register was typed some time before
its import). It stands only until the court paper says otherwise: a hearing or cause list dated on or after
the day it was filed, or one that sets a later date than the register's, supersedes it, whatever day the
register was imported.
"""

from datetime import date, datetime, timezone

from pydantic import BaseModel

from handlers.legal.models import HearingRecord
from memory.asof import IST

REGISTER_SOURCE = "register"
"""The date source of a listing a case register filed (handlers/legal/register_dates.py)."""

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class NextDate(BaseModel):
    day: date
    source: HearingRecord
    """The hearing or listing that set it."""


def issued_on(record: HearingRecord) -> date:
    """The day a record was known: a hearing's own day; a cause list's day, or its upload when that was earlier
    (a list for a coming day is printed and sent before it)."""
    if record.kind == "listing" and record.uploaded_at is not None:
        return min(record.hearing_date, record.uploaded_at.astimezone(IST).date())
    return record.hearing_date


def _issued(record: HearingRecord) -> tuple[date, datetime, float]:
    return issued_on(record), record.uploaded_at or _EPOCH, record.confidence


def hearings(records: list[HearingRecord]) -> list[HearingRecord]:
    return [r for r in records if r.kind == "hearing" and r.state == "saved"]


def last_hearing(records: list[HearingRecord], before: date | None = None) -> HearingRecord | None:
    """The latest hearing by hearing date (before `before`, when given); ties go to the surer record."""
    held = [r for r in hearings(records) if before is None or r.hearing_date < before]
    return max(held, key=lambda r: (r.hearing_date, r.next_date is not None, r.confidence, r.document_id),
               default=None)


def next_date(records: list[HearingRecord], before: date | None = None) -> NextDate | None:
    """The case's next date from the records known before `before` (a cause list's day), or from all of them.

    A listing issued on that very day counts (a day's own cause list); a hearing on it does not (it is the
    hearing the list is for)."""
    last = last_hearing(records, before)
    floor = last.hearing_date if last is not None else date.min
    setting = [r for r in records if r.state == "saved" and r.next_date is not None and r.next_date > floor
               and (r.kind == "hearing" and (before is None or r.hearing_date < before)
                    or r.kind == "listing" and (before is None or issued_on(r) <= before))]
    chosen = _latest(setting)
    return NextDate(day=chosen.next_date, source=chosen) if chosen is not None and chosen.next_date else None


def _by_register(record: HearingRecord) -> bool:
    return record.kind == "listing" and record.date_source == REGISTER_SOURCE


def _supersedes(paper: HearingRecord, register: HearingRecord) -> bool:
    """Whether a hearing or cause list outranks a register's next date: it is dated on or after the day the
    register filed it, or it sets a later date than the register's (the register was typed before it)."""
    assert paper.next_date is not None and register.next_date is not None
    return issued_on(paper) >= issued_on(register) or paper.next_date > register.next_date


def _latest(setting: list[HearingRecord]) -> HearingRecord | None:
    """The most recently issued of the records that set a next date; a register's only while no court paper
    supersedes it."""
    def key(r: HearingRecord) -> tuple[date, datetime, float, date, str]:
        assert r.next_date is not None
        return (*_issued(r), r.next_date, r.document_id)

    paper = max((r for r in setting if not _by_register(r)), key=key, default=None)
    register = max((r for r in setting if _by_register(r)), key=key, default=None)
    if register is None or paper is not None and _supersedes(paper, register):
        return paper
    return register


def lists(records: list[HearingRecord], day: date) -> HearingRecord | None:
    """The record that lists the case on `day` (its next date as known before that day), or None."""
    found = next_date(records, before=day)
    return found.source if found is not None and found.day == day else None
