"""The case register exported as the practice keeps it: its Petitioner and Respondent columns come back filled,
and its Next Date is each case's next date now (the latest hearing's or listing's from court paper), never the
date the register was imported with; importing the export again files no second listing (walk5al 90: the
export gave the imported dates, 15 Dec for a case the court had since put to 18 Dec, and empty parties)."""

import csv
from datetime import date, datetime, timezone
from pathlib import Path

from bot.cli.registers import all_kinds
from bot.services.registers.exporter import export_kind
from bot.services.registers.importer import import_file
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.legal.entries import EntryStore
from handlers.legal.models import HearingRecord

KINDS = all_kinds(INSTALLED.packages())
TENANT = "nalgonda-chambers"
REGISTER = """Office of Smt. P. Vijayalakshmi, Advocate,,,,,
Register of matters,,,,,
Our Ref,Case No.,Petitioner,Respondent,Court,N.D.O.H.
NLG/14,O.S. No. 61 of 2023,Guguloth Babu,Guguloth Saroja,Senior Civil Judge Nalgonda,15-12-2026
NLG/19,C.C. 208/2025,Sri Venkata Sai Finance,Ravula Mallesh,II Addl JFCM Nalgonda,16-12-2026
NLG/22,M.C. 31/2026,Eedula Swapna,Eedula Srikanth,Family Court Nalgonda,
"""


def _database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'export.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def _rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["Case Number"]: row for row in csv.DictReader(handle)}


def _hearing(case_id: str, day: date, nxt: date | None) -> HearingRecord:
    return HearingRecord(document_id=f"h-{case_id}-{day.isoformat()}", case_id=case_id, kind="hearing",
                         hearing_date=day, next_date=nxt, source_file="order sheet", author="clerk",
                         summary="heard", uploaded_at=datetime(2026, 12, 6, 5, 0, tzinfo=timezone.utc),
                         date_source="row", confidence=0.95)


def test_the_export_keeps_the_parties_and_gives_each_cases_next_date_now(tmp_path: Path) -> None:
    database = _database(tmp_path)
    source = tmp_path / "register.csv"
    source.write_text(REGISTER, encoding="utf-8")
    assert not import_file(database, KINDS, "cases", TENANT, source, apply=True).rejected
    store = EntryStore(database)
    # After the import the court moved two matters: the O.S. to 8 Jan 2027 (a hearing on 4 Dec), and put the
    # M.C., which the register gave no date, to 21 Dec; the C.C. has no court paper since: its 16 Dec stands.
    store.save(TENANT, _hearing("nlg-14", date(2026, 12, 4), date(2027, 1, 8)), "clerk")
    store.save(TENANT, _hearing("nlg-22", date(2026, 12, 2), date(2026, 12, 21)), "clerk")
    out = tmp_path / "export.csv"
    assert export_kind(database, KINDS["cases"], TENANT, "csv", out) == 3
    rows = _rows(out)
    assert {n: (r["Petitioner"], r["Respondent"]) for n, r in rows.items()} == {
        "O.S. No. 61 of 2023": ("Guguloth Babu", "Guguloth Saroja"),
        "C.C. 208/2025": ("Sri Venkata Sai Finance", "Ravula Mallesh"),
        "M.C. 31/2026": ("Eedula Swapna", "Eedula Srikanth")}
    assert {n: r["Next Date"] for n, r in rows.items()} == {
        "O.S. No. 61 of 2023": "2027-01-08", "C.C. 208/2025": "2026-12-16", "M.C. 31/2026": "2026-12-21"}
    again = import_file(database, KINDS, "cases", TENANT, out, apply=True)
    assert not again.rejected and again.memories_total == 0, "dates the court paper gives are no new listings"
