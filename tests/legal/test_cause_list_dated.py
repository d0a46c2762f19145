"""A cause list is dated by the day printed on it, never by the day it was sent: its listings are stored, filed in
memory and shown under the list's own date ("FOR MONDAY, THE 7TH DAY OF DECEMBER 2026", "Cause list dated
07.12.2026", "List of business for 7-12-2026"), and a list for a coming day still gives way to a hearing
recorded after it was sent (walk: a new practice's cause lists were labelled with their upload day)."""

from datetime import date, datetime, timezone

import pytest

from bot.store import Database
from bot.store.tenants import ensure_tenant
from handlers.legal.entries import EntryStore

from handlers.legal.case_dates import lists, next_date
from handlers.legal.cards import edit_field
from handlers.legal.models import HearingRecord
from handlers.legal.records import entry_record, memory_item
from handlers.legal.segment import segment
from tests.legal.kinds_corpus import CASES, REGISTER, upload

HEADINGS = [
    "IN THE COURT OF THE PRINCIPAL SENIOR CIVIL JUDGE, VIKARABAD\nCAUSE LIST\nFOR FRIDAY, THE 11TH DAY OF DECEMBER 2026",
    "Cause list dated 11.12.2026",
    "List of business for 11-12-2026",
    "DAILY BOARD\nFriday the 11th December, 2026",
    "Sitting list for 11.12.2026",
    "Day's list - 11 Dec 2026",
]
ROWS = "\n1. O.S. 231/2024  Pendyala Ramesh v. Kommineni Sarala  for evidence\n2. A.S. 112/2023  Mothe  for arguments"


@pytest.mark.parametrize("heading", HEADINGS)
@pytest.mark.parametrize("sent", ["2026-12-08T19:00", "2026-12-10T20:30", "2026-12-11T09:00"])
def test_a_listing_is_dated_by_the_day_printed_on_the_list(heading: str, sent: str) -> None:
    page = upload(sent, "list.txt")
    entries = segment(heading + ROWS, REGISTER, page)
    assert sorted((e.case_id, e.kind, e.hearing_date, e.next_date) for e in entries) == [
        ("as-112-2023", "listing", date(2026, 12, 11), date(2026, 12, 11)),
        ("os-231-2024", "listing", date(2026, 12, 11), date(2026, 12, 11)),
    ]
    case = next(c for c in CASES if c.case_id == entries[0].case_id)
    memory = memory_item(entry_record(entries[0], case.case_id, page), case)
    assert "cause list dated 11 Dec 2026" in memory.content and memory.metadata["hearing_date"] == "2026-12-11"
    assert memory.event_time.date() == date(2026, 12, 11)


def test_a_person_setting_an_unread_lists_day_dates_the_list_by_it() -> None:
    page = upload("2026-12-10T20:30", "list.txt")
    [entry, *_] = segment("CAUSE LIST\n1. O.S. 231/2024 Pendyala for evidence", REGISTER, page)
    assert entry.next_date is None and entry.hearing_date == date(2026, 12, 10)
    edited = edit_field(entry, "next_date", "14/12", page)
    assert (edited.hearing_date, edited.next_date) == (date(2026, 12, 14), date(2026, 12, 14))
    earlier = edit_field(entry, "next_date", "8/12", page)
    assert earlier.next_date == date(2026, 12, 8), "a list of a day just gone is still that day, not next year's"


def _record(kind: str, day: date, nxt: date, sent: datetime, doc: str) -> HearingRecord:
    return HearingRecord(document_id=doc, case_id="os-231-2024", kind=kind, hearing_date=day,  # type: ignore[arg-type]
                         next_date=nxt, uploaded_at=sent)


def test_a_list_for_a_coming_day_still_yields_to_a_hearing_recorded_after_it_was_sent() -> None:
    sent = datetime(2026, 12, 8, 14, tzinfo=timezone.utc)
    listing = _record("listing", date(2026, 12, 11), date(2026, 12, 11), sent, "l1")
    earlier = _record("hearing", date(2026, 11, 20), date(2026, 12, 10), sent, "h1")
    found = next_date([earlier, listing])
    assert found is not None and found.day == date(2026, 12, 11)
    assert lists([earlier, listing], date(2026, 12, 10)) is None, "the list sent on the 8th moved the 10th"
    assert lists([earlier, listing], date(2026, 12, 11)) is not None
    heard = _record("hearing", date(2026, 12, 9), date(2027, 1, 6), sent, "h2")
    found = next_date([earlier, listing, heard])
    assert found is not None and found.day == date(2027, 1, 6)


def test_asked_as_of_a_day_a_list_sent_by_then_for_a_later_day_is_known(database: Database) -> None:
    ensure_tenant(database, "t")
    store = EntryStore(database)
    sent = datetime(2026, 12, 8, 14, tzinfo=timezone.utc)
    store.save("t", _record("listing", date(2026, 12, 11), date(2026, 12, 11), sent, "l1"), "clerk")
    store.save("t", _record("hearing", date(2026, 11, 20), date(2026, 12, 10), sent, "h1"), "clerk")
    assert [r.document_id for r in store.of_case("t", "os-231-2024", as_of=date(2026, 12, 9))] == ["h1", "l1"]
    assert [r.document_id for r in store.of_case("t", "os-231-2024", as_of=date(2026, 12, 7))] == ["h1"]
