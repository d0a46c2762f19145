"""An organisation's registers name things in their own words, and the import takes those words: a catalogue's
Target by the issue register's names, villages by their codes, farmers' crops as the office writes them, names
without honorifics, vendor codes kept as written, header short forms and designations as Indian offices write
them, and `smriti people` in the tenant SMRITI_TENANT names. Every sheet is written here, for this test."""

import asyncio
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.cli.smriti import build_parser
from bot.services.registers.cells import person_name
from bot.services.registers.designations import designation_map, role_of
from bot.services.registers.importer import import_file
from bot.services.registers.table import header_key
from bot.settings import Settings, load_settings
from bot.store import Database, upgrade
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks
from bot.store.registers import RegisterStore
from handlers.ap.registers import TABLES as AP_TABLES
from handlers.ap.registers import Ledgers
from handlers.ap.subjects import find_vendors, vendor_rows

KINDS = all_kinds(INSTALLED.packages())
TENANT = "bhongir-agro"


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'words.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def _sheet(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _apply(database: Database, kind: str, path: Path) -> str:
    report = import_file(database, KINDS, kind, TENANT, path, apply=True)
    assert not report.rejected, report.render()
    return report.render()


def _registers(database: Database, tmp_path: Path) -> None:
    _apply(database, "crops", _sheet(tmp_path, "crops.csv", (
        "Crop ID,Crop,Telugu Name,Also Called\n"
        "chana,Bengal gram,శనగలు,senagalu; senaga\n"
        "tur,Red gram,కంది,kandi; redgram\n")))
    _apply(database, "issues", _sheet(tmp_path, "issues.csv", (
        "Issue ID,Issue,Telugu Name,Crops,Also Called\n"
        "PST-04,Whitefly,తెల్ల దోమ,Red gram,tella doma\n"
        "PST-09,Stem borer,కాండం తొలుచు పురుగు,Bengal gram,kandam toluchu\n")))


def test_a_catalogue_target_names_issues_as_the_issue_register_writes_them(database: Database,
                                                                          tmp_path: Path) -> None:
    _registers(database, tmp_path)
    catalogue = _sheet(tmp_path, "catalogue.csv", (
        "Price list 2026,,,,,,\n"
        "Item Code,Product,Type,MRP (Rs.),Pack,Dose,Target\n"
        "BA-INS-11,Dhoma Stop,insecticide,\"Rs 740.00\",250 ml,Red gram: 200 ml/acre,Whitefly; కాండం తొలుచు పురుగు\n"
        "BA-INS-12,Borer Kill,insecticide,610,100 g,Bengal gram: 80 g/acre,kandam toluchu; pst 04; tella doma\n"
        "BA-INS-13,Leaf Guard,fungicide,300,1 kg,Red gram: 1 kg/acre,Whitefly; pod fly\n"))
    report = import_file(database, KINDS, "catalogue", TENANT, catalogue, apply=True)
    assert report.added == ["BA-INS-11", "BA-INS-12"], report.render()
    assert [(r.row, r.reason) for r in report.rejected] == [(5, "not in the issues register: pod-fly")]
    book = FieldBooks(database).for_tenant(TENANT)
    assert book.products["BA-INS-11"].problems == ["pst-04", "pst-09"]
    assert book.products["BA-INS-12"].problems == ["pst-09", "pst-04"], "an alias and the id, each issue once"


def test_village_codes_are_the_villages_and_farmers_name_them_by_code_or_name(database: Database,
                                                                             tmp_path: Path) -> None:
    # The farmer list came first: its villages were made from the names it wrote.
    _apply(database, "villages", _sheet(tmp_path, "villages-plain.csv", (
        "Village,Telugu Name\nRayinigudem,రాయినిగూడెం\nGundlapalli,గుండ్లపల్లి\n")))
    coded = _sheet(tmp_path, "villages.csv", (
        "Bhongir Agro - villages,,,\n"
        "Vill. Code,Village,Telugu Name,Mandal\n"
        "RNG-02,Rayinigudem,రాయినిగూడెం,Bhongir\n"
        "GDP-07,గుండ్లపల్లి,గుండ్లపల్లి,Bhongir\n"
        "VLG-11,Vellanki,వెల్లంకి,Ramannapet\n"))
    report = import_file(database, KINDS, "villages", TENANT, coded, apply=True)
    assert (report.added, sorted(report.updated), report.ignored_columns) == (["VLG-11"], ["GDP-07", "RNG-02"], [])
    assert import_file(database, KINDS, "villages", TENANT, coded).updated == [], "the same sheet again: no change"
    farmers = _sheet(tmp_path, "farmers.csv", (
        "Farmer ID,Farmer Name,Village ID,Crops,Acres\n"
        "BA-101,Sri Narsimha garu,rng 02,Senagalu,2 ac\n"
        "BA-102,Smt. Pochamma,Gundlapalli,paddy,1.5\n"
        "BA-103,Mr. Bixam,VLG-11,cotton,4\n"))
    report = import_file(database, KINDS, "farmers", TENANT, farmers, apply=True)
    assert report.added == ["BA-101", "BA-102", "BA-103"] and report.created == [], report.render()
    book = FieldBooks(database).for_tenant(TENANT)
    assert set(book.villages) == {"rayinigudem", "gundlapalli", "vlg-11"}
    assert [book.farmers[f].village for f in ("BA-101", "BA-102", "BA-103")] == ["rayinigudem", "gundlapalli",
                                                                                 "vlg-11"]
    found = book.find_village("gdp07")
    assert found is not None and found.code == "GDP-07" and found.name_te == "గుండ్లపల్లి"
    # The code is kept as written for export; re-importing the export changes nothing.
    out = tmp_path / "villages-out.csv"
    from bot.services.registers.exporter import export_kind

    export_kind(database, KINDS["villages"], TENANT, "csv", out)
    assert "RNG-02,Rayinigudem" in out.read_text(encoding="utf-8")
    again = import_file(database, KINDS, "villages", TENANT, out)
    assert (again.added, again.updated) == ([], []), again.render()


def test_farmer_crops_as_the_office_writes_them_are_the_crop_registers_crops(database: Database,
                                                                          tmp_path: Path) -> None:
    _registers(database, tmp_path)
    farmers = _sheet(tmp_path, "farmers.csv", (
        "Farmer Code,Farmer Name,Village,Crops\n"
        "BA-201,Anjaiah garu,Vellanki,Bengal gram; Senagalu; Kandi; redgram\n"
        "BA-202,శ్రీ రాములు గారు,Vellanki,శనగలు; కంది; Jowar\n"
        "BA-203,Yadamma,Vellanki,senaga | Horse gram\n"))
    _apply(database, "farmers", farmers)
    book = FieldBooks(database).for_tenant(TENANT)
    assert book.farmers["BA-201"].crops == ["chana", "tur"], "each crop once, by the register's id"
    assert book.farmers["BA-202"].crops == ["chana", "tur", "jowar"]
    assert book.farmers["BA-203"].crops == ["chana", "horse-gram"], "a crop nobody listed is kept as written"
    assert (book.farmers["BA-201"].name, book.farmers["BA-202"].name) == ("Anjaiah", "రాములు")
    assert book.crop_name("chana") == "Bengal gram" and book.crop_name("horse-gram") == "Horse gram"
    assert import_file(database, KINDS, "farmers", TENANT, farmers).updated == []


@pytest.mark.parametrize(("written", "name"), [
    ("Anjaiah garu", "Anjaiah"), ("Sri Yadagiri Reddy", "Yadagiri Reddy"), ("Smt. Lakshmamma", "Lakshmamma"),
    ("Shri K. Venkat Rao", "K. Venkat Rao"), ("Mr.Ravi Teja", "Ravi Teja"), ("Adv. B. Sarala", "B. Sarala"),
    ("శ్రీమతి సావిత్రి గారు", "సావిత్రి"), ("Srinivas", "Srinivas"), ("Sri", "Sri")])
def test_honorifics_are_not_part_of_a_name(written: str, name: str) -> None:
    assert person_name(written) == name


def test_header_short_forms_and_designations_of_indian_offices() -> None:
    for written, column in (("PO Dt.", "po date"), ("Rate (Rs.)", "rate"), ("Bill Amt", "bill amount"),
                            ("Inv Amt", "invoice amount"), ("Pmt Date", "payment date"), ("Qty.", "quantity"),
                            ("GRN Dt.", "grn date"), ("Bank A/c No.", "bank account number"),
                            ("Vill. Code", "village code")):
        assert header_key(written) == header_key(column), written
    roles = designation_map()
    for written, role in (("F.O.", "officer"), ("FO", "officer"), ("Field Officer", "officer"),
                          ("Sr. Advocate", "lawyer"), ("Jr. Adv.", "lawyer"), ("AP Clerk", "clerk"),
                          ("A/c Asst", None), ("Munshi", "clerk"), ("M.D.", "admin")):
        found = role_of(written, roles)
        assert (found.role if found else None) == role, written


def test_ap_sheets_with_office_headers_and_vendor_codes_kept_as_written(database: Database,
                                                                         tmp_path: Path) -> None:
    vendors = _sheet(tmp_path, "creditors.csv", (
        "Creditors master as on 01-11-2026,,,,\n"
        "Creditor Code,Party Name,GST No.,Bank A/c No.,IFSC\n"
        "KPL/007,Krishna Pipes & Fittings,36AAFCK1234M1Z5,50100223344,HDFC0001234\n"))
    _apply(database, "vendors", vendors)
    pos = _sheet(tmp_path, "pos.csv", ("PO No.,Creditor Code,PO Dt.,Item Desc,Qty.,Rate (Rs.)\n"
                                       "BP/26/031,KPL/007,03-11-2026,GI pipe 2in,40 Nos,\"1,150.00\"\n"))
    _apply(database, "purchase-orders", pos)
    grn = _sheet(tmp_path, "grn.csv", "GRN No.,PO No.,GRN Dt.,Qty Recd\nMRN/88,BP/26/031,06/11/26,40\n")
    _apply(database, "goods-receipts", grn)
    paid = _sheet(tmp_path, "bank.csv", ("Bill No,Creditor Code,Bill Dt.,Bill Amt (Rs),Pmt Date,Paid to A/c\n"
                                         "KPF/551,KPL/007,07-11-2026,\"54,280.00\",10-11-2026,50100223344\n"))
    _apply(database, "payments", paid)
    ledger = Ledgers(database).for_tenant(TENANT).ledger
    [vendor] = ledger.vendors
    assert (vendor.vendor_id, vendor.written_id, vendor.payment_count) == ("KPL-007", "KPL/007", 1)
    [po] = ledger.data.purchase_orders
    assert (po.vendor_id, str(po.lines[0].unit_price), str(po.lines[0].quantity)) == ("KPL-007", "1150.00", "40")
    assert ledger.data.goods_receipts[0].received_on.isoformat() == "2026-11-06"
    out = tmp_path / "vendors-out.csv"
    from bot.services.registers.exporter import export_kind

    export_kind(database, KINDS["vendors"], TENANT, "csv", out)
    assert "KPL/007,Krishna Pipes" in out.read_text(encoding="utf-8")
    assert import_file(database, KINDS, "vendors", TENANT, out).updated == [], "the export re-imports unchanged"
    # forget and export-subject find the vendor, and every row about it, by the code as the office writes it.
    store = RegisterStore(database, *AP_TABLES)
    assert find_vendors(store, TENANT, "KPL/007") == [("KPL-007", "Krishna Pipes & Fittings")]
    assert sorted(kind for kind, _ in vendor_rows(store.records(TENANT), "kpl/007")) == [
        "goods-receipts", "payments", "purchase-orders", "vendors"]


def test_people_import_reads_designations_and_names_and_honours_smriti_tenant(
        database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    staff = _sheet(tmp_path, "staff.csv", ("Staff list,,\nName,Designation,Mobile No.\n"
                                           "Sri P. Mallesh garu,F.O.,09849 001122\n"
                                           "Smt. K. Sarala,Sr. Advocate,98490 01133\n"))
    report = import_people_table(database, staff, TENANT, load_people(database))
    assert not report.rejected, report
    people = {u.name: u for u in load_people(database) if u.tenant == TENANT}
    assert (people["P. Mallesh"].role, people["K. Sarala"].role) == ("officer", "lawyer")
    settings: Settings = load_settings({"SMRITI_HOME": str(tmp_path / "home"), "SMRITI_TENANT": TENANT})
    for argv in (["people", "add", "gowri", "--name", "Gowri", "--role", "clerk", "--pack", "ap"],
                 ["people", "list"]):
        args = build_parser().parse_args(argv)
        assert asyncio.run(args.handler(args, settings)) == 0
    out = capsys.readouterr().out
    assert "Gowri" in out and TENANT in out, out


def test_visit_export_gives_every_visit_held_in_the_registers_words(database: Database, tmp_path: Path) -> None:
    """Walk 5al step 89 (issue 25): `smriti export visits` wrote 0 rows while imported and saved visits were
    held. Every visit comes back, oldest first, its crop, problem and product as the registers write them."""
    from bot.services.registers.exporter import export_kind
    from bot.services.registers.table import read_table
    from handlers.agri.models import Advice, Visit
    from handlers.agri.visit_records import SavedVisit, VisitRecords

    _registers(database, tmp_path)
    _apply(database, "villages", _sheet(tmp_path, "villages.csv", "Village ID,Village\nVLG-11,Vellanki\n"))
    _apply(database, "farmers", _sheet(tmp_path, "farmers.csv", (
        "Farmer Code,Farmer Name,Village,Crops\nBA-201,Anjaiah garu,Vellanki,Kandi\n"
        "BA-202,Yadamma,Vellanki,senagalu\n")))
    _apply(database, "officers", _sheet(tmp_path, "officers.csv", (
        "Officer ID,Officer Name,Territories\nFO-7,Kavitha Rani,Vellanki\n")))
    _apply(database, "catalogue", _sheet(tmp_path, "catalogue.csv", (
        "Item Code,Product,Type,MRP (Rs.),Pack,Dose,Target\n"
        "BA-INS-11,Dhoma Stop,insecticide,740,250 ml,Red gram: 200 ml/acre,Whitefly\n")))
    _apply(database, "visits", _sheet(tmp_path, "log.csv", (
        "Date,Officer,Farmer,Crop,Problem,Products,Reaction,Outcome\n"
        "12-08-2026,Kavitha Rani,Anjaiah,kandi,tella doma,Dhoma Stop,will think - costly,partial control\n")))
    records = VisitRecords(database)
    records.save_visit(TENANT, SavedVisit(visit=Visit(
        id="BA-202-20260901-card", date=__import__("datetime").date(2026, 9, 1), officer_id="FO-7",
        farmer_id="BA-202", village="vlg-11", crop="chana", products=[Advice(product_id="BA-INS-11",
                                                                              reaction="accepted")]),
        key="BA-202-20260901-card"))
    out = tmp_path / "visits-out.csv"
    assert export_kind(database, KINDS["visits"], TENANT, "csv", out) == 2
    rows = [r.cells for r in read_table(out)]
    assert [(r["Farmer"], r["Crop"], r["Products"], r["Reaction"]) for r in rows] == [
        ("Anjaiah", "Red gram", "Dhoma Stop", "undecided"), ("Yadamma", "Bengal gram", "Dhoma Stop", "accepted")]
    assert (rows[0]["Problem"], rows[0]["Objection"], rows[0]["Outcome"]) == ("Whitefly", "price", "partial control")
