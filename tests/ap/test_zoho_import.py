"""A Zoho Books export is imported as Zoho writes it: the vendor master ("Vendor Name", "Display Name", "Vendor
Bank Account Number", "Vendor Bank IFSC Code"), its purchase orders ("Purchase Order Number", "Vendor Name",
"QuantityOrdered", "Item Price") and its paid bills ("Bill Number", "Vendor Name", "Bill Status", "Payment Date",
"Vendor Bank Account Number"): every row comes in under the master vendor the name names."""

from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.store import Database
from handlers import INSTALLED
from handlers.ap.registers import Ledgers
from tests.databases import sqlite_database

KINDS = all_kinds(INSTALLED.packages())


@pytest.fixture
def database(tmp_path: Path) -> Database:
    return sqlite_database(tmp_path)


@pytest.mark.parametrize(("vendor", "display", "account", "po"), [
    ("Konark Office Supplies Pvt Ltd", "Konark Office Supplies", "918020044556677", "PO-00012"),
    ("Bhavani Medical Agencies", "Bhavani Medicals", "30112233445", "PO/26-27/0318"),
])
def test_a_zoho_books_export_imports_under_its_own_headers(database: Database, tmp_path: Path, vendor: str,
                                                           display: str, account: str, po: str) -> None:
    sheets = {
        "vendors": "Contact ID,Vendor Name,Display Name,GST Identification Number (GSTIN),Vendor Bank Account Number,"
                   f"Vendor Bank IFSC Code,Vendor Bank Name,First Name,Phone,EmailID\n460000000026049,{vendor},{display},"
                   f"36AAGCK7741E1ZH,{account},HDFC0001234,HDFC Bank,Ramana,9848011111,a@b.in\n",
        "purchase-orders": "Purchase Order Date,Purchase Order Number,Vendor Name,Item Name,SKU,QuantityOrdered,"
                           f"Item Price,Usage unit\n2026-11-02,{po},{display},Ball bearing 6204,BB-6204,100,45,pcs\n"
                           f"2026-11-02,{po},{display},Ball bearing 6205,BB-6205,50,52,pcs\n",
        "payments": "Bill Date,Bill Number,Vendor Name,Bill Status,Total,Payment Date,Vendor Bank Account Number\n"
                    f"2026-09-02,KB/101,{vendor},Paid,4500,2026-09-20,{account}\n"
                    f"2026-10-02,KB/118,{display},Paid,5200,2026-10-21,{account}\n",
    }
    tenant = "zoho1"
    for kind, body in sheets.items():
        path = tmp_path / f"{kind}.csv"
        path.write_text(body, encoding="utf-8")
        dry = import_file(database, KINDS, kind, tenant, path)
        assert not dry.rejected and not dry.applied, (kind, dry.render())
        report = import_file(database, KINDS, kind, tenant, path, apply=True)
        assert report.applied and not report.rejected, (kind, report.render())
        rendered = report.render()
        assert "Vendor Bank Account Number" not in rendered and "QuantityOrdered" not in rendered, rendered
    ledger = Ledgers(database).for_tenant(tenant).ledger
    [master] = ledger.vendors
    assert master.name == display or master.name == vendor
    assert master.bank_account.account_number == account and master.bank_account.ifsc == "HDFC0001234"
    [order] = ledger.data.purchase_orders
    assert order.vendor_id == master.vendor_id and [line.quantity for line in order.lines] == [100, 50]
    assert ledger.history(master.vendor_id).clean_payments_to_current_account == 2
