"""A case register's next dates, filed when the register is imported.

A practice's register keeps each matter's next date ("Next Date", "NDOH", "Next Hearing"). Importing it files
that date as a listing of the case from the case register, with its memory through the outbox, so /today and
"when is the next date" know it from day one. It never outranks court paper: a hearing or cause list dated on
or after its import, or setting a later date, supersedes it (handlers/legal/case_dates.py). Importing the same register twice files nothing
again (one document per case and date); a changed date files a new listing, which then wins as the latest.
"""

from datetime import date, datetime, timezone

from bot.store import Database
from bot.store.tenants import ensure_tenant
from handlers.legal.case_dates import REGISTER_SOURCE, next_date
from handlers.legal.entries import EntryStore
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.records import memory_item
from memory.asof import IST
from memory.banks import bank_id
from memory.outbox import Outbox

PACK = "legal"
REGISTER_KIND = "case_register"
"""The upload kind of a listing the case register filed: answers say where the date came from."""
SOURCE = "case register"


def register_listing(case: CaseRecord, filed_on: date, filed_at: datetime) -> HearingRecord | None:
    """The listing a register row's next date files, or None without one. Dated the day it was filed (the
    register's own date), or the next date itself when that has passed already."""
    if case.next_date is None:
        return None
    day = min(filed_on, case.next_date)
    return HearingRecord(document_id=f"register-{case.case_id}-{case.next_date.isoformat()}", case_id=case.case_id,
                         kind="listing", hearing_date=day, next_date=case.next_date, source_file=SOURCE,
                         author="office", summary=f"Next date {case.next_date.isoformat()} in the case register",
                         upload_kind=REGISTER_KIND, upload_id="case-register", uploaded_at=filed_at,
                         date_source=REGISTER_SOURCE, confidence=1.0)


def file_next_dates(database: Database, tenant: str, cases: list[CaseRecord], apply: bool, bank_prefix: str,
                    now: datetime | None = None) -> list[str]:
    """File the next dates of the cases an import writes; the lines say each (what a dry run would file)."""
    now = now or datetime.now(timezone.utc)
    store = EntryStore(database)
    records = store.all(tenant)
    # A date the court paper already gives the case (a register exported and imported again) is no new listing.
    known = {case.case_id: found.day for case in cases
             if (found := next_date([r for r in records if r.case_id == case.case_id])) is not None}
    listings = [(case, listing) for case in cases
                if (listing := register_listing(case, now.astimezone(IST).date(), now)) is not None
                and store.get(tenant, listing.document_id) is None and known.get(case.case_id) != case.next_date]
    lines = [f"{listing.next_date} next date of {case.code or case.title} (listing from the case register)"
             for case, listing in listings]
    if apply and listings:
        ensure_tenant(database, tenant)
        for _, listing in listings:
            store.save(tenant, listing, "import")
        Outbox(database.engine).put(bank_id(tenant, PACK, prefix=bank_prefix),
                                    [memory_item(listing, case) for case, listing in listings],
                                    error="imported case register")
    return lines
