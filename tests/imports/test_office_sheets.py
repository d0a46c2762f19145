"""Office sheets as they are kept: title rows above the header (merged or not), Indian dates, numbers with units
and currency, designations, mobiles with a leading 0, new villages named in a farmer list, Petitioner and
Respondent columns, unused columns listed. Every sheet is written here, for this test."""

import asyncio
from datetime import date
from pathlib import Path

import pytest
from openpyxl import Workbook

from bot.cli.registers import all_kinds
from bot.cli.smriti import build_parser
from bot.core.app import open_database
from bot.core.registry import Registry
from bot.services.registers.cells import indian_mobile, number_text, parse_date
from bot.services.registers.importer import import_file
from bot.services.registers.table import read_sheet
from bot.settings import Settings
from bot.store import Database, upgrade
from bot.store.people import load_people
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks
from handlers.ap.registers import Ledgers
from handlers.legal.registers import CaseRegisters

KINDS = all_kinds(INSTALLED.packages())


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'sheets.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def test_cells_as_indian_offices_write_them() -> None:
    for written in ("12-04-2023", "12/4/23", "12-Apr-2023", "12 April 2023", "12.04.2023", "2023-04-12", "45028",
                    "12th Apr 2023"):
        assert parse_date(written) == date(2023, 4, 12), written
    for bad, words in (("31-02-2023", "not a date of the calendar"), ("next week", "write it like 12-04-2023")):
        with pytest.raises(ValueError, match=words):
            parse_date(bad)
    assert [number_text(n) for n in ("3 ac", "Rs 1,200.50", "₹ 1,20,000/-", "2.5 acres", "INR 450", " ")] == [
        "3", "1200.50", "120000", "2.5", "450", None]
    with pytest.raises(ValueError, match="is not a number"):
        number_text("three acres")
    assert {indian_mobile(m) for m in ("09100 334455", "91003-34455", "+91 91003 34455", "0091 9100334455",
                                       "919100334455")} == {"+919100334455"}
    with pytest.raises(ValueError, match="10-digit mobile"):
        indian_mobile("12345")


def _farmer_sheet(path: Path) -> None:
    """A distributor's farmer list: a merged title, a blank row, a subtitle, then the header on row 4."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Sri Venkateswara Agro Agencies, Kodad - Farmer List 2025"])
    sheet.merge_cells("A1:G1")
    sheet.append([])
    sheet.append(["Kharif season", None, None, None, None, "printed 12-06-2025"])
    sheet.append(["S.No", "Farmer Code", "Farmer Name", "Village", "Crops", "Area", "Mobile", "Remarks"])
    sheet.append([1, "GF/0012", "Ramulu", "Kodad", "Cotton", "3 ac", "09100 334455", "good payer"])
    sheet.append([2, "GF/0013", "Lakshmamma", "Anantagiri", "Redgram; Bengal gram", "2.5 acres", "+91 94401 22334"])
    sheet.append([3, "GF/0014", "Yellaiah", "Kodad", "paddy", "five", None])
    book.save(path)


def test_a_farmer_list_with_title_rows_units_mobiles_and_new_villages(database: Database, tmp_path: Path) -> None:
    villages = tmp_path / "villages.csv"
    villages.write_text("Village ID,Village,Telugu Name\nKDD,Kodad,కోదాడ\n", encoding="utf-8")
    assert not import_file(database, KINDS, "villages", "kodad-agro", villages, apply=True).rejected
    path = tmp_path / "farmers.xlsx"
    _farmer_sheet(path)
    assert read_sheet(path, KINDS["farmers"].aliases()).header_row == 4
    report = import_file(database, KINDS, "farmers", "kodad-agro", path)
    assert sorted(report.added) == ["GF/0012", "GF/0013"]
    assert [(r.row, r.reason) for r in report.rejected] == [(7, "'five' is not a number")]
    assert report.created == ["villages Anantagiri"] and set(report.ignored_columns) == {"S.No", "Remarks"}
    assert "columns not used: Remarks, S.No" in report.render()
    import_file(database, KINDS, "farmers", "kodad-agro", path, apply=True)
    book = FieldBooks(database).for_tenant("kodad-agro")
    ramulu, lakshmamma = book.farmers["GF/0012"], book.farmers["GF/0013"]
    assert (ramulu.village, ramulu.acres, ramulu.phone) == ("kdd", 3.0, "09100 334455")
    assert (lakshmamma.village, lakshmamma.crops, lakshmamma.acres) == ("anantagiri", ["redgram", "bengal-gram"], 2.5)
    assert book.villages["anantagiri"].name == "Anantagiri"


def test_ap_sheets_with_indian_dates_and_rupees(database: Database, tmp_path: Path) -> None:
    vendors = tmp_path / "vendors.csv"
    vendors.write_text("Vendor Master as on 31-03-2025,,,\n,,,\nVendor Code,Vendor Name,GSTIN,Bank A/c No,IFSC\n"
                       "VND/017,Kaveri Castings,36AAFCK1234M1Z5,50100223344,HDFC0001234\n", encoding="utf-8")
    report = import_file(database, KINDS, "vendors", "pumps", vendors, apply=True)
    assert not report.rejected, report.render()
    pos = tmp_path / "po.csv"
    pos.write_text("Purchase Orders,,,,,\nPO No,Vendor Code,PO Date,Item,Qty,Rate\n"
                   "PO-1,VND/017,12-04-2023,Impeller,10 nos,\"Rs 1,200.50\"\n"
                   "PO-2,VND/017,12/4/23,Casing,4,300\n"
                   "PO-3,VND/017,12-Apr-2023,Shaft,2,Rs 99\n"
                   "PO-4,VND/017,31-02-2023,Shaft,2,Rs 99\n", encoding="utf-8")
    report = import_file(database, KINDS, "purchase-orders", "pumps", pos, apply=True)
    assert [(r.row, r.reason) for r in report.rejected] == [(6, "'31-02-2023' is not a date of the calendar")]
    ledger = Ledgers(database).for_tenant("pumps").ledger
    orders = {n: ledger.purchase_order(n) for n in ("PO-1", "PO-2", "PO-3")}
    assert {p.po_date for p in orders.values() if p} == {date(2023, 4, 12)} and ledger.purchase_order("PO-4") is None
    first = orders["PO-1"]
    assert first is not None and first.lines[0].unit_price == 1200.5 and first.lines[0].quantity == 10


def test_a_case_register_with_petitioner_and_respondent(database: Database, tmp_path: Path) -> None:
    path = tmp_path / "cases.csv"
    path.write_text("CASE REGISTER - ADV. K. SRINIVAS,,,,\n"
                    "Case No,Petitioner,Respondent,Court,Next Date\n"
                    "OS-45-2025,Venkanna,Mallaiah,Junior Civil Judge Kodad,12-04-2026\n"
                    "C.C. 12/2024,State,Boya Ramulu,JFCM Huzurnagar,\n"
                    "O.S. 9/2023,Narsimha,,Kodad,\n", encoding="utf-8")
    report = import_file(database, KINDS, "cases", "kodad-law", path, apply=True)
    assert [(r.row, r.reason) for r in report.rejected] == [
        (5, "missing Title (or both Petitioner and Respondent)")]
    assert report.ignored_columns == [] and report.memories_total == 1, "the Next Date is filed as a listing"
    cases = CaseRegisters(database).for_tenant("kodad-law").cases
    assert sorted(c.title for c in cases) == ["State v. Boya Ramulu", "Venkanna v. Mallaiah"]
    assert sorted(str(c.next_date) for c in cases) == ["2026-04-12", "None"]


def smriti(settings: Settings, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    args = build_parser().parse_args(list(argv))
    code = asyncio.run(args.handler(args, settings))
    out, err = capsys.readouterr()
    return code, out, err


def test_people_sheet_designations_and_mobiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = Settings(data_dir=tmp_path)
    code, _, err = smriti(home, capsys, "people", "add", "sailu", "--tenant", "kodad-agro", "--name", "Sailu",
                          "--role", "officer", "--whatsapp", "9700022222")
    assert code == 0, err
    path = tmp_path / "staff.csv"
    path.write_text("Sri Venkateswara Agro - Staff,,,,\n"
                    "Emp Name,Designation,Mobile No,Beat,Blood Group\n"
                    "Raju,Field Officer,09100 334455,Kodad,B+\n"
                    "Swathi,FO,91003 34456,Anantagiri,O+\n"
                    "Mohan Rao,Zonal Manager,+91 98480 11111,,A+\n"
                    "Ravi,Area Sales Manager,9848022222,,\n"
                    "Kiran,Driver,9848033333,,\n", encoding="utf-8")
    code, out, _ = smriti(home, capsys, "people", "import", "--tenant", "kodad-agro", str(path),
                          "--designation", "Area Sales Manager=admin")
    assert code == 0 and "4 people added or updated" in out
    assert "row 7: designation Driver is not one I know" in out and "columns not used: Blood Group" in out
    database = open_database(home)
    try:
        people = {u.user_id: u for u in load_people(database)}
    finally:
        database.dispose()
    assert people["sailu"].whatsapp_numbers == ["+919700022222"]
    assert Registry(list(people.values())).lookup("whatsapp", "+919700022222") is people["sailu"], "not a stranger"
    assert (people["raju"].role, people["raju"].pack, people["raju"].whatsapp_numbers) == (
        "officer", "agri", ["+919100334455"])
    assert (people["mohan-rao"].role, people["mohan-rao"].pack) == ("admin", "agri")
    assert people["ravi"].role == "admin" and people["swathi"].territories == ["anantagiri"]
