"""A case register's next date is a listing filed on its import day, but it never outranks court paper: a
hearing (or a cause list) dated on or after the import, or one setting a later date than the register's, is the
case's next date, for "when is the next date", "what happened last time" and /today alike (walk: a new practice
imported its register, then typed the hearings of the days before)."""

from datetime import date, datetime, timezone

import pytest

from handlers.legal.case_dates import lists, next_date
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.register_dates import register_listing

IMPORTED = date(2026, 12, 5)
CASE = CaseRecord(case_id="kr-9", code="KR-9", title="Mekala Anasuya v. Mekala Ramaiah", next_date=date(2026, 12, 14))


def _register(next_day: date = date(2026, 12, 14)) -> HearingRecord:
    listing = register_listing(CASE.model_copy(update={"next_date": next_day}), IMPORTED,
                               datetime(2026, 12, 5, 9, tzinfo=timezone.utc))
    assert listing is not None
    return listing


def _heard(day: date, nxt: date | None, doc: str = "h-1", kind: str = "hearing") -> HearingRecord:
    return HearingRecord(document_id=doc, case_id="kr-9", kind=kind, hearing_date=day, next_date=nxt,  # type: ignore[arg-type]
                         source_file="note", author="clerk", uploaded_at=datetime(2026, 12, 5, 11, tzinfo=timezone.utc))


@pytest.mark.parametrize("heard_on, set_to", [
    (date(2026, 12, 2), date(2027, 1, 11)),   # typed after the import, a hearing of a few days before
    (date(2026, 11, 30), date(2026, 12, 21)),
    (date(2026, 12, 5), date(2026, 12, 9)),    # heard on the import day itself, an earlier date
    (date(2026, 12, 8), date(2026, 12, 10)),   # heard after the import, before the register's date
    (date(2026, 12, 14), date(2027, 2, 1)),    # heard on the register's date
])
def test_a_hearing_the_register_did_not_know_sets_the_next_date(heard_on: date, set_to: date) -> None:
    records = [_register(), _heard(heard_on, set_to)]
    found = next_date(records)
    assert found is not None and found.day == set_to and found.source.kind == "hearing"
    assert lists(records, date(2026, 12, 14)) is None or heard_on == date(2026, 12, 14), \
        "the register's stale date no longer lists the case"
    assert lists(records, set_to) is not None


def test_a_cause_list_outranks_the_register_as_a_hearing_does() -> None:
    records = [_register(), _heard(date(2026, 12, 3), date(2026, 12, 16), kind="listing")]
    found = next_date(records)
    assert found is not None and found.day == date(2026, 12, 16)


def test_the_register_still_outranks_older_paper_it_follows() -> None:
    """A hearing long before the import whose next date is earlier than the register's: the register is the
    newer word (the hearing on that date, not recorded, gave the register's date)."""
    records = [_register(), _heard(date(2026, 11, 3), date(2026, 11, 20))]
    found = next_date(records)
    assert found is not None and found.day == date(2026, 12, 14) and found.source.kind == "listing"
    assert lists(records, date(2026, 12, 14)) is not None


def test_a_later_note_without_a_next_date_never_erases_either() -> None:
    records = [_register(), _heard(date(2026, 12, 2), date(2027, 1, 11)),
               _heard(date(2026, 12, 4), None, doc="s-1", kind="step")]
    found = next_date(records)
    assert found is not None and found.day == date(2027, 1, 11)
