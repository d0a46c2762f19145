"""Importing the files offices keep: messy CSV and XLSX made here (not from the seeds), checked row by row."""

from datetime import date
from pathlib import Path

import pytest
from openpyxl import Workbook

from bot.cli.registers import all_kinds
from bot.services.registers.exporter import export_kind
from bot.services.registers.importer import import_file
from bot.services.registers.table import read_table
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks
from handlers.ap.registers import Ledgers
from handlers.legal.registers import CaseRegisters

KINDS = all_kinds(INSTALLED.packages())


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'imports.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def _villages(database: Database, tmp_path: Path, tenant: str = "kisan") -> None:
    path = tmp_path / "villages.csv"
    path.write_text("Village,Mandal,Telugu Name\nKothur,Kothur,కొత్తూరు\nYacharam,Yacharam,యాచారం\n", encoding="utf-8")
    assert not import_file(database, KINDS, "villages", tenant, path, apply=True).rejected


def test_a_messy_farmers_csv_is_reported_row_by_row(database: Database, tmp_path: Path) -> None:
    _villages(database, tmp_path)
    path = tmp_path / "farmers.csv"
    # BOM, aliases people use, Telugu names, a blank row, a duplicate, a number as text, an unknown village,
    # a crop in Telugu, a missing name.
    path.write_bytes("\ufeffFarmer Name,Mobile,Village/Mandal,Crop,Area (Acres),రైతు పేరు\n"
                     "Bhaskar Naik,98480 11111,Kothur,Cotton; పత్తి,\"2.5\",భాస్కర్ నాయక్\n"
                     ",,,,,\n"
                     "Bhaskar Naik,98480 11111,Kothur,Cotton; పత్తి,\"2.5\",భాస్కర్ నాయక్\n"
                     "Saritha,,Yacharam,మిరప,1,సరిత\n"
                     "Gopal,,Nowhere,cotton,3,\n"
                     ",9000000000,Kothur,cotton,2,\n".encode("utf-8"))
    report = import_file(database, KINDS, "farmers", "kisan", path)
    # A village the farmer list names that nobody listed is made with it, and the dry run says so.
    assert not report.applied and sorted(report.added) == ["bhaskar-naik-kothur", "gopal-nowhere", "saritha-yacharam"]
    assert [(r.row, r.reason) for r in report.rejected] == [(4, "duplicate of row 2"), (7, "missing Farmer Name")]
    assert report.created == ["villages Nowhere"] and "villages Nowhere" in report.render()
    assert FieldBooks(database).for_tenant("kisan").farmers == {}, "a dry run writes nothing"
    assert "nowhere" not in FieldBooks(database).for_tenant("kisan").villages, "not even a new village"
    import_file(database, KINDS, "farmers", "kisan", path, apply=True)
    book = FieldBooks(database).for_tenant("kisan")
    assert book.villages["nowhere"].name == "Nowhere" and book.farmers["gopal-nowhere"].village == "nowhere"
    bhaskar = book.farmers["bhaskar-naik-kothur"]
    assert (bhaskar.name_te, bhaskar.crops, bhaskar.acres, bhaskar.phone) == (
        "భాస్కర్ నాయక్", ["cotton"], 2.5, "98480 11111")
    assert book.farmers["saritha-yacharam"].crops == ["chilli"]


def _vendors_xlsx(path: Path) -> None:
    """A Tally-like vendor export: a header merged over two columns, account numbers as numbers and as text."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Ledger Name", "GSTIN/UIN", None, "Bank Account Number", "IFSC Code", "Contact Person",
                  "Created On"])
    sheet.merge_cells("B1:C1")
    sheet.append(["Deccan Pipes & Fittings", "36AAFCD4321K1Z2", None, 60012345678, "SBIN0004455", "Ramana", 45383])
    sheet.append([None, None, None, None, None, None, None])
    sheet.append(["Kaveri Paper Mills", "36aagck9876p1zq", None, "0099 8877 6655", "UTIB0000123", "Latha", 45400])
    sheet.append(["No Gst Traders", None, None, 1234567, None, None, None])
    book.save(path)


def test_a_tally_vendor_sheet_with_merged_headers_and_excel_dates(database: Database, tmp_path: Path) -> None:
    path = tmp_path / "vendors.xlsx"
    _vendors_xlsx(path)
    kinds = dict(KINDS)
    report = import_file(database, kinds, "vendors", "traders", path, apply=True)
    assert sorted(report.added) == ["DECCAN-PIPES-FITTINGS", "KAVERI-PAPER-MILLS"]
    assert [(r.row, r.reason) for r in report.rejected] == [(5, "missing GSTIN")]
    ledger = Ledgers(database).for_tenant("traders").ledger
    deccan = ledger.vendor("DECCAN-PIPES-FITTINGS")
    assert deccan is not None and deccan.bank_account.account_number == "60012345678"
    assert deccan.bank_account.ifsc == "SBIN0004455" and deccan.onboarded_on == date(2024, 4, 1)
    kaveri = ledger.vendor("KAVERI-PAPER-MILLS")
    assert kaveri is not None and kaveri.bank_account.account_number == "009988776655" and kaveri.never_paid


def test_export_then_import_changes_nothing_and_a_second_file_adds_without_wiping(
        database: Database, tmp_path: Path) -> None:
    _villages(database, tmp_path)
    first = tmp_path / "first.csv"
    first.write_text("Farmer Name,Village,Crops,Acres\nAnjaiah,Kothur,paddy,4\nMallesh,Kothur,maize,2\n",
                     encoding="utf-8")
    assert len(import_file(database, KINDS, "farmers", "kisan", first, apply=True).added) == 2
    for fmt in ("csv", "xlsx", "json"):
        out = tmp_path / f"export.{fmt}"
        export_kind(database, KINDS["farmers"], "kisan", fmt, out)
        again = import_file(database, KINDS, "farmers", "kisan", out, apply=True)
        assert (again.added, again.updated, again.rejected, len(again.unchanged)) == ([], [], [], 2), fmt
    second = tmp_path / "second.csv"
    second.write_text("Farmer Name,Village,Crops,Acres\nAnjaiah,Kothur,paddy; cotton,5\nYadamma,Yacharam,cotton,1\n",
                      encoding="utf-8")
    report = import_file(database, KINDS, "farmers", "kisan", second, apply=True)
    assert (report.added, report.updated) == (["yadamma-yacharam"], ["anjaiah-kothur"])
    farmers = FieldBooks(database).for_tenant("kisan").farmers
    assert set(farmers) == {"anjaiah-kothur", "mallesh-kothur", "yadamma-yacharam"}, "Mallesh is kept"
    replaced = import_file(database, KINDS, "farmers", "kisan", second, apply=True, replace=True)
    assert replaced.removed == ["mallesh-kothur"]
    assert set(FieldBooks(database).for_tenant("kisan").farmers) == {"anjaiah-kothur", "yadamma-yacharam"}


def test_case_numbers_as_written_and_upper_case_ids_get_a_derived_slug(database: Database, tmp_path: Path) -> None:
    path = tmp_path / "cases.csv"
    path.write_text("Case ID,Case No,CNR,Cause Title,Court\n"
                    "PENDYALA,O.S. 311/2024,tsvk01-002345-2024,Pendyala v Kommineni,Vikarabad\n"
                    ",C.C. 77/2025,,State v Boya Ramulu,JFCM Tandur\n"
                    ",,,x,\n", encoding="utf-8")
    report = import_file(database, KINDS, "cases", "chambers", path, apply=True)
    # The report names a case by its id as the practice wrote it; the slug stays the pack's internal key.
    assert sorted(report.added) == ["PENDYALA", "c-c-77-2025"] and [r.row for r in report.rejected] == [4]
    register = CaseRegisters(database).for_tenant("chambers")
    case = register.get("pendyala")
    assert case is not None and case.numbers == ["O.S. 311/2024"] and case.cnr == "TSVK01-002345-2024"
    assert case.code == "PENDYALA"
    mention = register.only("hearing in OS 311/24 adjourned")
    assert mention is not None and mention.case_id == "pendyala"


def test_purchase_orders_with_one_row_per_line_become_one_order(database: Database, tmp_path: Path) -> None:
    vendors = tmp_path / "vendors.csv"
    vendors.write_text("Vendor Name,GSTIN,Bank Account Number,IFSC Code\n"
                       "Sri Sai Agencies,36ABCPS1234K1Z9,123456789012,HDFC0000001\n", encoding="utf-8")
    assert not import_file(database, KINDS, "vendors", "mill", vendors, apply=True).rejected
    pos = tmp_path / "po.csv"
    pos.write_text("Purchase Order Number,Vendor Name,Purchase Order Date,Item Name,Quantity,Rate\n"
                   "PO/77,Sri Sai Agencies,45500,Bearings,10,\"1,250.00\"\n"
                   "PO/77,Sri Sai Agencies,45500,Belts,4,300\n"
                   "PO/78,Unknown Co,45501,Oil,1,90\n", encoding="utf-8")
    report = import_file(database, KINDS, "purchase-orders", "mill", pos, apply=True)
    assert report.added == ["PO/77"] and [r.row for r in report.rejected] == [4]
    assert report.rejected[0].reason.startswith("no vendor “Unknown Co” in the vendor register")
    order = Ledgers(database).for_tenant("mill").ledger.purchase_order("po/77")
    assert order is not None and len(order.lines) == 2 and str(order.lines[0].unit_price) == "1250.00"


def test_an_export_gives_the_register_as_it_was_written(database: Database, tmp_path: Path) -> None:
    """Walk step (issue 25): an export filled an empty Telugu name with the English one and wrote villages (and
    territories) lower-cased, as the pack's internal keys; empty stays empty, case is kept."""
    villages = tmp_path / "villages.csv"
    villages.write_text("Village,Vill. Code,Telugu Name,Mandal\nNew Kothapet,,,\nRajupet,RJP-2,రాజుపేట,Kodad\n",
                        encoding="utf-8")
    farmers = tmp_path / "farmers.csv"
    farmers.write_text("Farmer Code,Farmer Name,Telugu Name,Village,Crops\n"
                       "KD-7,Gopi Naik,,New Kothapet,Cotton; Red Gram\nKD-8,Sali,సాలి,RJP-2,Paddy\n", encoding="utf-8")
    officers = tmp_path / "officers.csv"
    officers.write_text("Officer ID,Officer Name,Territories\nE-1,Vasu,New Kothapet; RJP-2\n", encoding="utf-8")
    for kind, path in (("villages", villages), ("farmers", farmers), ("officers", officers)):
        assert not import_file(database, KINDS, kind, "kisan", path, apply=True).rejected
    book = FieldBooks(database).for_tenant("kisan")
    assert book.farmer_name("KD-7", "te") == "Gopi Naik", "a Telugu screen still shows the name"

    rows: dict[str, list[dict[str, str]]] = {}
    for kind in ("villages", "farmers", "officers"):
        out = tmp_path / f"{kind}-out.csv"
        export_kind(database, KINDS[kind], "kisan", "csv", out)
        rows[kind] = [row.cells for row in read_table(out)]
    assert rows["villages"] == [{"Village": "New Kothapet"},
                                {"Village ID": "RJP-2", "Village": "Rajupet", "Village (Telugu)": "రాజుపేట",
                                 "Mandal": "Kodad"}]
    gopi, sali = rows["farmers"]
    assert (gopi["Village"], "Farmer Name (Telugu)" in gopi) == ("New Kothapet", False), gopi
    assert (sali["Village"], sali["Farmer Name (Telugu)"]) == ("RJP-2", "సాలి")
    assert rows["officers"][0]["Territories"] == "New Kothapet; RJP-2"
    for kind in ("villages", "farmers", "officers"):
        again = import_file(database, KINDS, kind, "kisan", tmp_path / f"{kind}-out.csv")
        assert (again.added, again.updated, again.rejected) == ([], [], []), again.render()


async def test_a_farmers_own_export_gives_his_register_row_as_written(database: Database, tmp_path: Path) -> None:
    """Chat /export farmer: the register row comes with the row as the office wrote it (village by its name,
    an empty Telugu name left out), beside the stored data."""
    from handlers.agri.registers import FieldBooks
    from handlers.agri.subjects import farmer_store
    from memory.subjects import Subject

    villages = tmp_path / "villages.csv"
    villages.write_text("Village\nNew Kothapet\n", encoding="utf-8")
    farmers = tmp_path / "farmers.csv"
    farmers.write_text("Farmer Code,Farmer Name,Village,Crops\nKD-7,Gopi Naik,New Kothapet,Cotton\n", encoding="utf-8")
    for kind, path in (("villages", villages), ("farmers", farmers)):
        assert not import_file(database, KINDS, kind, "kisan", path, apply=True).rejected
    store = farmer_store(FieldBooks(database).store)
    exported = await store.export(Subject(tenant="kisan", kind="farmer", subject_id="KD-7"))
    [row] = exported["farmers"]
    assert row["data"]["name_te"] == ""
    assert row["as_written"] == {"Farmer ID": "KD-7", "Farmer Name": "Gopi Naik", "Village": "New Kothapet",
                                 "Crops": "cotton"}
