"""The accounts-payable pages: the ledger by state; an invoice held, released to review, approved over the agent
only with a reason, then marked paid, through the pack's act and pay, each move in the ledger's log with who did
it and why; a clerk may use them; another tenant's invoice is not found."""

from datetime import date
from decimal import Decimal

import pytest

from handlers.ap.pack import APPack
from tests.web.conftest import CLERK, Office, post

pytestmark = [pytest.mark.hindsight,
              pytest.mark.skipif(not all(hasattr(APPack, n) for n in ("act", "pay")),
                                 reason="the AP pack's ledger life (act, pay) has not landed")]

NUMBER = "RSC/26-27/0191"


def record_exception(office: Office) -> object:
    from handlers.ap.ledgerview import LedgerEntry
    from handlers.ap.lifecycle import DecisionMemo

    book = office.app.packs["ap"].book  # type: ignore[attr-defined]
    entry = LedgerEntry(vendor_id="V001", invoice_number=NUMBER, invoice_date=date(2026, 11, 28),
                        total=Decimal("84960.00"), po_number="PO-2026-0412", status="decided", decision_id="web-r1")
    memo = DecisionMemo(vendor_name="Ravi Steel & Components", confidence=0.82, flags=["quantity_mismatch"],
                        evidence=["billed 120 units against 100 received"], recommendation="Hold for the receipt.")
    assert book.record_decision("demo", entry, "EXCEPTION", "anita", memo, "web-r1", None).outcome == "new"
    return book


async def test_hold_release_approve_with_a_reason_and_mark_paid(office: Office) -> None:
    book = record_exception(office)
    page = f"/office/ap/invoice/V001/{NUMBER}"
    async with office.signed_in(CLERK) as client:
        ledger = await client.get("/office/ap/?state=decided")
        assert ledger.status_code == 200 and f'data-invoice="{NUMBER}"' in ledger.text
        shown = await client.get(page)
        assert shown.status_code == 200 and "quantity_mismatch" in shown.text and "billed 120 units" in shown.text
        assert (await post(client, page, f"{page}/move", move="hold")).status_code == 303
        assert book.recorded("demo", "V001", NUMBER).state == "held"  # type: ignore[attr-defined]
        unsaid = await post(client, page, f"{page}/move", move="release")  # review over EXCEPTION overrides it
        assert unsaid.status_code == 400 and "Say why" in unsaid.text
        assert (await post(client, page, f"{page}/move", move="release",
                           reason="stores to recount the lot")).status_code == 303
        assert book.recorded("demo", "V001", NUMBER).state == "review"  # type: ignore[attr-defined]
        refused = await post(client, page, f"{page}/move", move="approve")
        assert refused.status_code == 400 and "Say why" in refused.text
        assert book.recorded("demo", "V001", NUMBER).state == "review"  # type: ignore[attr-defined]
        approved = await post(client, page, f"{page}/move", move="approve", reason="short supply agreed by phone")
        assert approved.status_code == 303
        after = await client.get(approved.headers["location"])
        assert "short supply agreed by phone" in after.text and 'id="state"' in after.text
        paid = await post(client, page, f"{page}/paid", paid_on="2026-12-02")
        assert paid.status_code == 303
        again = await post(client, page, f"{page}/paid", paid_on="2026-12-03")
        assert again.status_code == 409 and "already paid" in again.text
    record = book.recorded("demo", "V001", NUMBER)  # type: ignore[attr-defined]
    assert record.state == "paid" and record.entry.paid_on == date(2026, 12, 2)
    moves = [(a.action, a.by_user, a.reason) for a in book.actions("demo", "V001")  # type: ignore[attr-defined]
             if a.invoice_number == NUMBER]
    assert ("hold", CLERK, None) in moves and ("review", CLERK, "stores to recount the lot") in moves
    assert any(a == "approve" and by == CLERK and why == "short supply agreed by phone" for a, by, why in moves)
    assert any(a == "paid" and by == CLERK for a, by, _ in moves)
    async with office.signed_in("asha") as admin:
        audit = (await admin.get("/office/privacy/")).text.split('id="overrides"', 1)[1].split("</table>", 1)[0]
        assert "override" in audit and f"V001 {NUMBER}" in audit and "short supply agreed by phone" in audit
    async with office.signed_in("omar") as other:
        assert (await other.get(page)).status_code == 404
        assert f'data-invoice="{NUMBER}"' not in (await other.get("/office/ap/")).text
