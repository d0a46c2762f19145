"""A credit or debit note is recorded against the invoice it adjusts (never "send the tax invoice"), and a note
against an invoice the ledger does not know is "not found" with the vendor's nearest invoice numbers."""

from bot.core.app import App
from handlers.ap.pack import APPack
from tests.ap.test_chat import said


def note(against: str, title: str = "CREDIT NOTE") -> str:
    """Ravi Steel's note for two channels returned, against one of its paid invoices."""
    return "\n".join([
        title, "Ravi Steel & Components", "GSTIN: 36AABCR1234F1ZT", "Credit Note No: RSC/CN/26-27/004",
        "Date: 03/05/2026", f"Against Invoice No: {against}",
        "Billed to: Smriti Demo Industries Pvt Ltd  GSTIN: 36AAECS9876M1ZE",
        "Sl  Description                Qty   Rate        Amount",
        "1   MS Angle 50x50x6 returned   1    2,880.00    2,880.00",
        "CGST @ 9% 259.20", "SGST @ 9% 259.20", "Total 3,398.40"])


async def test_a_credit_note_is_recorded_against_its_invoice(ap_app: App, pack: APPack, demo: str) -> None:
    [reply] = await ap_app.conversation.handle(said("anita", note("RSC/24-25/0236")))
    assert reply.text.startswith("Recorded a credit note RSC/CN/26-27/004 for ₹3,398.40 against invoice "
                                 "RSC/24-25/0236"), reply.text
    assert "tax invoice" not in reply.text
    logged = [a for a in pack.book.actions(demo, "V001", action="credit_note") if a.invoice_number == "RSC/24-25/0236"]
    assert logged and logged[-1].by_user == "anita" and "RSC/CN/26-27/004" in (logged[-1].reason or "")


async def test_a_note_against_an_unknown_invoice_names_the_nearest(ap_app: App, pack: APPack, demo: str) -> None:
    [reply] = await ap_app.conversation.handle(said("anita", note("RSC/24-25/0263", title="DEBIT NOTE")))
    assert "RSC/24-25/0263, which is not in the ledger" in reply.text and "RSC/24-25/0236" in reply.text
    assert "Nothing was recorded" in reply.text
    assert not [a for a in pack.book.actions(demo, "V001", action="debit_note")
                if a.invoice_number == "RSC/24-25/0263"]
