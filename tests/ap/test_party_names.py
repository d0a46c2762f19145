"""Tally and Zoho sheets name a PO's or a payment's vendor as the office does: Tally's "Party Name", the
vendor's ledger name, another name, or its code. Each is the vendor of the master when exactly one vendor has
that name; a name no vendor has is refused in words a clerk reads, with the nearest names. Sheets are written
here, for this test."""

from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.ap.registers import Ledgers

KINDS = all_kinds(INSTALLED.packages())
TENANT = "kaveri-pumps"


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'party.db'}")
    upgrade(db, INSTALLED.migrations())
    return db


def _import(database: Database, tmp_path: Path, kind: str, body: str):  # type: ignore[no-untyped-def]
    path = tmp_path / f"{kind}.csv"
    path.write_text(body, encoding="utf-8")
    return import_file(database, KINDS, kind, TENANT, path, apply=True)


VENDORS = ("Vendor Code,Name,Ledger Name,GSTIN,Bank A/c No,IFSC\n"
           "SUP/0012,Kaveri Electricals Pvt. Ltd.,Kaveri Elec (Creditors),36AAFCV5521K1Z4,50100223344556,HDFC0001234\n"
           "SUP/0013,Godavari Castings,Godavari Castings,36AAKFS3310M1Z1,60200011112222,SBIN0000812\n")


def test_a_po_sheet_names_its_vendor_by_party_name_ledger_name_or_code(database: Database, tmp_path: Path) -> None:
    assert not _import(database, tmp_path, "vendors", VENDORS).rejected
    report = _import(database, tmp_path, "purchase-orders", (
        "Voucher No,Date,Party Name,Stock Item,Qty,Rate\n"
        "KP/PO/41,01-10-2026,Kaveri Electricals Pvt Ltd,Motor 5HP,2,18000\n"
        "KP/PO/42,02-10-2026,Kaveri Elec (Creditors),Starter panel,1,9500\n"
        "KP/PO/43,03-10-2026,godavari castings,Pump casing,10,1200\n"
        "KP/PO/44,03-10-2026,SUP/0013,Impeller,10,800\n"
        "KP/PO/45,04-10-2026,Kaveri Electricals,Cable 4 sq mm,100,85\n"))
    assert not report.rejected, report.render()
    ledger = Ledgers(database).for_tenant(TENANT).ledger
    vendor_of = {p.po_number: ledger.vendor(p.vendor_id).name for p in ledger.data.purchase_orders}  # type: ignore[union-attr]
    assert vendor_of == {"KP/PO/41": "Kaveri Electricals Pvt. Ltd.", "KP/PO/42": "Kaveri Electricals Pvt. Ltd.",
                         "KP/PO/43": "Godavari Castings", "KP/PO/44": "Godavari Castings",
                         "KP/PO/45": "Kaveri Electricals Pvt. Ltd."}
    # The ledger name is another name of the vendor: an invoice under it is the same vendor.
    [kaveri] = [v for v in ledger.vendors if v.code == "SUP/0012"]
    assert "Kaveri Elec (Creditors)" in kaveri.names()


def test_a_party_no_vendor_has_is_refused_in_words(database: Database, tmp_path: Path) -> None:
    assert not _import(database, tmp_path, "vendors", VENDORS).rejected
    report = _import(database, tmp_path, "purchase-orders", (
        "Voucher No,Date,Party Name,Stock Item,Qty,Rate\n"
        "KP/PO/51,01-10-2026,Kaveri Electrics,Motor 5HP,2,18000\n"
        "KP/PO/52,01-10-2026,Sri Sai Traders,Motor 5HP,2,18000\n"))
    reasons = {r.row: r.reason for r in report.rejected}
    assert len(reasons) == 2, report.render()
    first, second = sorted(reasons.values(), key=lambda r: "Sai" in r)
    assert "no vendor “Kaveri Electrics” in the vendor register" in first and "Kaveri Electricals Pvt. Ltd." in first
    assert "no vendor “Sri Sai Traders”" in second and "KAVERI" not in first + second
    # A payment history names the vendor the same ways.
    paid = _import(database, tmp_path, "payments", (
        "Bill No,Party Name,Bill Date,Amount,Payment Date,Paid to Account\n"
        "KE/998/25-26,Kaveri Elec (Creditors),02-02-2026,15000,01-03-2026,50100223344556\n"))
    assert not paid.rejected, paid.render()
