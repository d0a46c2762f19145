"""A tenant built only by import (its creditors master, PO register, goods-receipt register and a bank book of
12 payments to one account, every sheet with the headers an Indian office writes): an invoice asking to be paid
to a new account is PAYMENT_BLOCKED with FIRST_BANK_CHANGE, on the imported history alone. Sheets written here."""

import json
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.settings import Settings
from handlers import INSTALLED
from tests.ap.test_cli import run

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
KINDS = all_kinds(INSTALLED.packages())
TENANT = "nalgonda-motors"
ACCOUNT = "50100223344"
SHEETS = {
    "vendors": ("Creditors master as on 01-04-2026,,,,,,\n"
                "Creditor Code,Party Name,GST No.,Bank A/c No.,IFSC,Contact Person,Contact Phone\n"
                f"KPL/007,Krishna Pipes & Fittings,36AAFCK1234M1ZH,{ACCOUNT},HDFC0001234,B. Suresh,040 2765 1100\n"),
    "purchase-orders": ("PO No.,Creditor Code,PO Dt.,Sl,Item Desc,Qty.,Unit,Rate (Rs.)\n"
                        "NM/PUR/26-27/0412,KPL/007,03-11-2026,1,GI pipe 2 inch,40 Nos,Nos,\"1,150.00\"\n"),
    "goods-receipts": "GRN No.,PO No.,GRN Dt.,PO Sl,Qty Recd\nMRN/26-27/0981,NM/PUR/26-27/0412,06/11/26,1,40 Nos\n",
    "payments": "Bill No,Creditor Code,Bill Dt.,Bill Amt (Rs),Pmt Date,Paid to A/c\n" + "".join(
        f"KPF/{500 + n},KPL/007,{n + 1:02d}-0{n % 9 + 1}-2025,\"{40_000 + 1_000 * n:,}.00\",{n + 2:02d}-0{n % 9 + 1}"
        f"-2025,{ACCOUNT}\n" for n in range(12)),
}
INVOICE = {
    "vendor_name": "Krishna Pipes & Fittings", "vendor_gstin": "36AAFCK1234M1ZH",
    "invoice_number": "KPF/26-27/0631", "invoice_date": "2026-11-08", "po_number": "NM/PUR/26-27/0412",
    "lines": [{"description": "GI pipe 2 inch", "sku": "", "quantity": "40", "unit_price": "1150.00",
               "amount": "46000.00"}],
    "subtotal": "46000.00", "tax": "8280.00", "total": "54280.00",
    "bank": {"account_number": "77120100098765", "ifsc": "BARB0NALGON", "bank_name": "Bank of Baroda",
             "account_name": "Krishna Pipes & Fittings"},
    "notes": "Our bank has changed; kindly remit to the account below from this bill.",
}


async def test_an_imported_history_blocks_a_first_bank_change(settings: Settings, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from bot.core.app import open_database

    database = open_database(settings)
    try:
        for kind, text in SHEETS.items():
            path = tmp_path / f"{kind}.csv"
            path.write_text(text, encoding="utf-8")
            report = import_file(database, KINDS, kind, TENANT, path, apply=True)
            assert not report.rejected and not report.ignored_columns, report.render()
            assert len(report.added) == (12 if kind == "payments" else 1), report.render()
    finally:
        database.dispose()
    invoice = tmp_path / "kpf-0631.json"
    invoice.write_text(json.dumps(INVOICE), encoding="utf-8")
    assert await run(settings, "ap", "decide", str(invoice), "--json", "--no-memory", "--tenant", TENANT) == 0
    decided = json.loads(capsys.readouterr().out)
    assert decided["status"] == "PAYMENT_BLOCKED", decided
    assert [f["code"] for f in decided["flags"]][0] == "FIRST_BANK_CHANGE", decided["flags"]
    assert "12" in decided["flags"][0]["evidence"], decided["flags"][0]
