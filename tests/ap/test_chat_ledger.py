"""The AP chat over an invoice's life, on a tenant built by `smriti import` from sheets written here (a pump
maker, Nandi Pumps; a bearing supplier paid eleven times; an agency never paid):

- an approval over a first change of bank account takes a second named person (maker-checker), with reasons,
  shown so in the ledger and in the invoice's memory; the maker alone can never lift the block;
- holding or sending to review what the agent approved asks why first, in chat as on the CLI;
- a clerk acts on an earlier invoice by its number ("approve LB/26-27/187", "hold invoice 188 of Lakshmi
  Bearings") and asks its state; vendor questions are answered from the ledger exactly, with memory cited for
  the story, and an unknown or never-paid vendor gets a plain answer, never an invented history;
- importing the payment history queues each paid vendor's memory through the outbox (no `memory rebuild`),
  and importing it again queues the same documents.
"""

import json
import uuid
from collections.abc import AsyncIterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.store.people import import_people
from bot.core.messages import Reply
from bot.core.registry import Registry, User
from bot.services.registers.importer import import_file
from bot.settings import Settings
from handlers import INSTALLED
from handlers.ap import facts
from handlers.ap.invoice_memory import document_id
from handlers.ap.lifecycle import RecordedEntry
from handlers.ap.models import BankDetails, Invoice, InvoiceLine
from handlers.ap.money import format_inr
from handlers.ap.pack import APPack
from handlers.ap.questions import parse
from memory import ids
from tests.ap.test_chat import press, said

pytestmark = [pytest.mark.hindsight, pytest.mark.own_registers]

KINDS = all_kinds(INSTALLED.packages())
BUYER = "36AAGCK7741E1ZH"
LB, LB_GSTIN, LB_ACCOUNT = "LB/01", "36AAFCV5521K1Z4", "50100223344556"
LB_DROPPED = "5010023344556"
"""Lakshmi Bearings' account with one digit dropped, as a phone photo of the invoice read it."""
SR = "SRA/02"
RATE = Decimal("2400")


def _month_before(today: date) -> tuple[date, date]:
    first = today.replace(day=1)
    last = first - timedelta(days=1)
    return last.replace(day=1), last


def payments_sheet(today: date) -> tuple[str, Decimal]:
    """Eleven payments to Lakshmi Bearings' account on file: nine long ago, two last month (their sum is the
    answer to "what did we pay them last month?")."""
    start, _ = _month_before(today)
    rows, last_month = [], Decimal(0)
    for i in range(11):
        paid = date(start.year - 1, 1, 10) + timedelta(days=28 * i) if i < 9 else start + timedelta(days=3 + 9 * (i - 9))
        total = Decimal(10000 + 1000 * i)
        if i >= 9:
            last_month += total
        rows.append(f"LB/25-26/{100 + i},{LB},{(paid - timedelta(days=20)).strftime('%d-%m-%Y')},{total},paid,"
                    f"{paid.strftime('%d-%m-%Y')},{LB_ACCOUNT}\n")
    return "Invoice Number,Vendor ID,Invoice Date,Total,Outcome,Paid On,Paid to Account\n" + "".join(rows), last_month


def write_sheets(folder: Path, today: date) -> tuple[list[tuple[str, Path]], Decimal]:
    payments, last_month = payments_sheet(today)
    files = {
        "buyer": f"Company Name,GSTIN\nNandi Pumps Pvt Ltd,{BUYER}\n",
        "vendors": "Vendor ID,Vendor Name,GSTIN,Bank Account Number,IFSC Code,Contact Person,Contact Phone\n"
                   f"{LB},Lakshmi Bearings Pvt Ltd,{LB_GSTIN},{LB_ACCOUNT},HDFC0001234,Ramana,9848011111\n"
                   f"{SR},Sri Ram Agencies,36AAKFS3310M1Z1,60200011112222,SBIN0000812,Sita,9848022222\n",
        "purchase-orders": "PO Number,Vendor ID,PO Date,Line,SKU,Item,Quantity,Unit,Rate\n"
                           f"NP/PO/41,{LB},01-10-2026,1,BRG-6205,Ball bearing 6205,10,Nos,{RATE}\n"
                           f"NP/PO/42,{LB},02-10-2026,1,BRG-6206,Ball bearing 6206,10,Nos,{RATE}\n",
        "goods-receipts": "GRN Number,PO Number,Received On,PO Line,Quantity Received\n"
                          "GRN/41,NP/PO/41,20-10-2026,1,10\nGRN/42,NP/PO/42,21-10-2026,1,10\n",
        "payments": payments,
    }
    written = []
    for kind, body in files.items():
        path = folder / f"{kind}.csv"
        path.write_text(body, encoding="utf-8")
        written.append((kind, path))
    return written, last_month


def bill(number: str, po: str, sku: str, account: str) -> str:
    invoice = Invoice(vendor_name="Lakshmi Bearings Pvt Ltd", vendor_gstin=LB_GSTIN, buyer_gstin=BUYER,
                      invoice_number=number, invoice_date=date(2026, 11, 3), po_number=po,
                      lines=[InvoiceLine(description=f"Ball bearing {sku[-4:]}", sku=sku, quantity=Decimal(10),
                                         unit_price=RATE, amount=RATE * 10)],
                      total=RATE * 10, bank=BankDetails(account_number=account))
    return json.dumps(invoice.model_dump(mode="json", exclude_none=True))


class Office:
    def __init__(self, app: App, pack: APPack, tenant: str, last_month: Decimal, sheets: list[tuple[str, Path]]):
        self.app, self.pack, self.tenant, self.last_month, self.sheets = app, pack, tenant, last_month, sheets
        self.bank = app.services.bank_of(tenant, "ap")
        ids_by_name = {v.name: v.vendor_id for v in pack.ledger_for(tenant).vendors}
        self.lb, self.sr = ids_by_name["Lakshmi Bearings Pvt Ltd"], ids_by_name["Sri Ram Agencies"]
        """The vendors' ids as the import keeps the codes the office wrote (LB/01, SRA/02)."""

    async def say(self, body: str, sender: str = "kavya") -> list[Reply]:
        return await self.app.conversation.handle(said(sender, body))

    async def press(self, card: Reply, label: str, sender: str = "kavya") -> list[Reply]:
        return await self.app.conversation.handle(said(sender, callback=press(card, label)))

    def recorded(self, number: str) -> RecordedEntry:
        found = self.pack.book.recorded(self.tenant, self.lb, number)
        assert found is not None, number
        return found

    async def document(self, number: str) -> dict[str, str]:
        wanted = document_id(self.lb, self.recorded(number).entry.number_key)
        [found] = [d for d in await self.app.services.memory.list_documents(self.bank) if d.document_id == wanted]
        return dict(found.metadata)


@pytest.fixture
async def office(settings: Settings, tmp_path: Path) -> AsyncIterator[Office]:
    tenant = f"np{uuid.uuid4().hex[:8]}"
    users = [{"user_id": name, "name": name.title(), "role": "clerk", "pack": "ap", "tenant": tenant, "lang": "en",
              "telegram_ids": [9300 + i], "whatsapp_numbers": [f"+91980001990{i}"]}
             for i, name in enumerate(("kavya", "arjun"))]
    (tmp_path / "users.json").write_text(json.dumps({"users": users}), encoding="utf-8")
    app = await App.start(settings, pack_names=["ap"], registry=Registry.load(tmp_path / "users.json"))
    import_people(app.services.database, [User.model_validate(u) for u in users])  # whom `smriti ap --as` names
    pack = app.packs["ap"]
    assert isinstance(pack, APPack)
    sheets, last_month = write_sheets(tmp_path, app.services.clock().date())
    for kind, path in sheets:
        report = import_file(app.services.database, KINDS, kind, tenant, path, apply=True,
                             bank_prefix=settings.bank_prefix)
        assert report.applied and not report.rejected, (kind, report.render())
    await app.services.memory.ensure_bank(pack.bank_profile(app.services.bank_of(tenant, "ap")))
    await app.services.outbox.flush(app.services.memory)
    yield Office(app, pack, tenant, last_month, sheets)
    await app.services.memory.delete_bank(app.services.bank_of(tenant, "ap"))
    await app.aclose()


async def test_a_first_bank_change_is_approved_only_by_a_second_person(office: Office) -> None:
    [card] = await office.say(bill("LB/26-27/187", "NP/PO/41", "BRG-6205", LB_DROPPED))
    assert card.text.startswith("PAYMENT BLOCKED") and "FIRST_BANK_CHANGE" in card.text
    [asked] = await office.press(card, "Approve")
    assert "reason" in asked.text
    [first] = await office.say("Vendor's letter on letterhead says the account changed")
    assert "second person" in first.text
    record = office.recorded("LB/26-27/187")
    assert record.state == "decided" and record.maker_by == "kavya"
    assert record.maker_reason == "Vendor's letter on letterhead says the account changed"
    paid = await office.pack.pay(office.tenant, "LB/26-27/187", None, date(2026, 12, 5), "kavya", LB_DROPPED)
    assert paid.outcome == "not_approved"  # the maker's ask alone pays nothing
    metadata = await office.document("LB/26-27/187")
    assert metadata[facts.STATE] == "decided" and metadata[facts.MAKER_BY] == "kavya"
    # The same clerk again, by the CLI or typed in chat, cannot be her own checker.
    alone = await office.pack.act(office.tenant, "LB/26-27/187", None, "approve", "Kavya", "I checked it again")
    assert alone.outcome == "same_person"
    [again] = await office.say("approve LB/26-27/187")
    assert "second person, not kavya" in again.text
    # A second named person approves it, typed by its number, and is asked why first.
    [why] = await office.say("approve invoice 187 of Lakshmi Bearings", sender="arjun")
    assert "reason" in why.text
    [done] = await office.say("Called Ramana on the number on file, account confirmed", sender="arjun")
    assert "is now approved (by arjun)" in done.text
    record = office.recorded("LB/26-27/187")
    assert record.state == "approved" and record.state_by == "arjun"
    assert record.maker_by == "kavya" and record.state_reason == "Called Ramana on the number on file, account confirmed"
    assert [a.by_user for a in office.pack.book.actions(office.tenant, office.lb, action="approval_asked")] == ["kavya"]
    metadata = await office.document("LB/26-27/187")
    assert metadata[facts.STATE] == "approved" and metadata[facts.MAKER_BY] == "kavya"
    [state] = await office.say("what is the state of invoice LB/26-27/187?")
    assert "approved, by arjun" in state.text and "kavya asked to approve" in state.text
    assert "second person" in state.text


async def test_the_account_two_people_approved_is_the_one_paid_and_both_stay_named(
        office: Office, capsys: pytest.CaptureFixture[str]) -> None:
    """After a maker and a checker approve over a bank-account block, `paid` pays the account they approved
    (never silently the old master one), and the ledger, the chat and memory name both people once paid."""
    number = "LB/26-27/191"
    await office.say(bill(number, "NP/PO/41", "BRG-6205", LB_DROPPED))
    first = await office.pack.act(office.tenant, number, None, "approve", "kavya", "vendor letter on letterhead")
    assert first.outcome == "second_needed"
    second = await office.pack.act(office.tenant, number, None, "approve", "arjun", "called Ramana on file, confirmed")
    assert second.outcome == "moved" and second.record is not None
    assert second.record.two_person_account == LB_DROPPED
    # Another account typed than the two approved (and not the master's) pays nothing.
    wrong = await office.pack.pay(office.tenant, number, None, date(2026, 12, 5), "arjun", "50100223344999")
    assert wrong.outcome == "account_unverified"
    assert await ap_cli_run(office, "ap", "paid", number, "--tenant", office.tenant, "--on", "05-12-2026",
                            "--as", "Kavya") == 0
    said = capsys.readouterr().out
    assert f"to account {LB_DROPPED}, the account kavya and arjun approved" in said, said
    record = office.recorded(number)
    assert record.state == "paid" and record.entry.paid_to_account == LB_DROPPED
    assert (record.maker_by, record.checker_by, record.state_by) == ("kavya", "arjun", "kavya")
    [state] = await office.say(f"what is the state of invoice {number}?")
    assert "kavya asked to approve" in state.text and "arjun approved it as the second person" in state.text
    assert "waits" not in state.text and "Paid on" in state.text and LB_DROPPED in state.text
    assert await ap_cli_run(office, "ap", "ledger", "--tenant", office.tenant) == 0
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if number in ln]
    assert f"PAID to {LB_DROPPED}" in line and "approved by arjun as the second person" in line
    assert f" {LB} {number} " in line  # the vendor's code as the register writes it, not LB-01
    assert "kavya" in line and "waiting" not in line
    metadata = await office.document(number)
    assert metadata[facts.STATE] == "paid" and metadata[facts.MAKER_BY] == "kavya"
    assert metadata[facts.CHECKER_BY] == "arjun"


async def ap_cli_run(office: Office, *argv: str) -> int:
    from tests.ap.test_cli import run

    return await run(office.app.services.settings, *argv)


async def test_hold_and_review_over_the_agent_ask_why_in_chat_and_on_the_cli(office: Office) -> None:
    [card] = await office.say(bill("LB/26-27/188", "NP/PO/42", "BRG-6206", LB_ACCOUNT))
    assert card.text.startswith("APPROVE")
    [asked] = await office.press(card, "Hold")
    assert "reason" in asked.text
    assert office.recorded("LB/26-27/188").state == "decided"
    [held] = await office.say("Stores say two bearings are rusted, vendor to replace")
    assert "is now on hold" in held.text
    record = office.recorded("LB/26-27/188")
    assert record.state_reason == "Stores say two bearings are rusted, vendor to replace"
    assert (await office.pack.act(office.tenant, "LB/26-27/188", None, "review", "arjun")).outcome == "reason_needed"
    [review] = await office.say("send to review 188 because the replacement has to be checked by QA", "arjun")
    assert "is now sent to review" in review.text
    assert office.recorded("LB/26-27/188").state_reason == "the replacement has to be checked by QA"
    assert (await office.document("LB/26-27/188"))["reason"] == "the replacement has to be checked by QA"


async def test_vendor_questions_are_answered_from_the_ledger(office: Office) -> None:
    [paid] = await office.say("what did we pay Lakshmi Bearings last month?")
    assert f"We paid Lakshmi Bearings Pvt Ltd ({LB})" in paid.text and "2 payment(s)" in paid.text, paid.text
    assert f"₹{int(office.last_month):,}" in paid.text, paid.text
    assert "LB/25-26/109" in paid.text and "LB/25-26/110" in paid.text and "LB/25-26/108" not in paid.text
    assert "From vendor memory" in paid.text and "[vendor history" in paid.text
    [unknown] = await office.say("what did we pay Lakshmi Traders last month?")
    assert "No vendor named “Lakshmi Traders”" in unknown.text and f"Lakshmi Bearings Pvt Ltd ({LB})" in unknown.text
    assert "We paid" not in unknown.text and "memory" not in unknown.text
    [never] = await office.say("how much have we paid Sri Ram Agencies so far?")
    assert never.text == f"We have never paid Sri Ram Agencies ({SR}): no payment to them is in the ledger."
    [calm] = await office.say("any problems with vendor Sri Ram?")
    assert f"Sri Ram Agencies ({SR}): never paid. No invoice" in calm.text
    await office.say(bill("LB/26-27/187", "NP/PO/41", "BRG-6205", LB_DROPPED))
    [trouble] = await office.say("any problems with LB/01?")  # the code as the office writes it
    assert "LB/26-27/187" in trouble.text and "FIRST_BANK_CHANGE" in trouble.text and "11 payment(s)" in trouble.text
    [missing] = await office.say("what is the state of invoice 999?")
    assert missing.text.startswith("No invoice 999 is recorded")
    [old] = await office.say("status of LB/25-26/104")
    assert "is in the payment history: paid on" in old.text and "4556" in old.text


def test_questions_name_the_period_and_leave_the_vendor_words() -> None:
    today = date(2026, 12, 5)
    ask = parse("what did we pay Lakshmi Traders last month?", today)
    assert ask is not None and ask.intent == "paid" and ask.vendor_words == ["lakshmi", "traders"]
    assert (ask.period.start, ask.period.end) == (date(2026, 11, 1), date(2026, 11, 30))
    ask = parse("hold invoice 187 of Sri Ram because goods are short", today)
    assert ask is not None and (ask.intent, ask.number, ask.vendor_words, ask.reason) == (
        "hold", "187", ["sri", "ram"], "goods are short")
    ask = parse("approve SVC / 26-27 / 187", today)
    assert ask is not None and ask.number == "SVC / 26-27 / 187"
    assert parse("Site confirmed the 40 extra bags, credit note promised", today) is None
    assert parse("ok thanks", today) is None


async def test_importing_payments_queues_vendor_memory_once(office: Office) -> None:
    history = ids.seed("ap-vendor-history", office.lb)
    stored = [d for d in await office.app.services.memory.list_documents(office.bank) if d.document_id == history]
    assert len(stored) == 1 and stored[0].metadata[facts.PAYMENT_COUNT] == "11"
    assert not [d for d in await office.app.services.memory.list_documents(office.bank)
                if d.metadata.get(facts.VENDOR_ID) == office.sr]  # never paid: no history invented
    before = sorted(d.document_id for d in await office.app.services.memory.list_documents(office.bank))
    payments = dict(office.sheets)["payments"]
    report = import_file(office.app.services.database, KINDS, "payments", office.tenant, payments, apply=True,
                         bank_prefix=office.app.services.settings.bank_prefix)
    assert report.memories_total == 0  # nothing changed, nothing queued
    body = payments.read_text(encoding="utf-8").replace("LB/25-26/100,", "LB/25-26/100A,")
    payments.write_text(body, encoding="utf-8")
    report = import_file(office.app.services.database, KINDS, "payments", office.tenant, payments, apply=True,
                         bank_prefix=office.app.services.settings.bank_prefix)
    assert report.memories_total == 1, report.memories
    await office.app.services.outbox.flush(office.app.services.memory)
    after = sorted(d.document_id for d in await office.app.services.memory.list_documents(office.bank))
    assert after == before
    [updated] = [d for d in await office.app.services.memory.list_documents(office.bank) if d.document_id == history]
    assert updated.metadata[facts.PAYMENT_COUNT] == "12"


def text_bill(number: str, more: str = "", rate: str = "2,400.00", amount: str = "24,000.00") -> str:
    return "\n".join([
        "TAX INVOICE", "Lakshmi Bearings Pvt Ltd", f"GSTIN: {LB_GSTIN}", f"Invoice No: {number}", "Date: 05/11/2026",
        "Buyer's Order No: NP/PO/41", f"Billed to: Nandi Pumps Pvt Ltd, GSTIN: {BUYER}", *([more] if more else []),
        "Sl  Description          Qty   Rate       Amount", f"1   Ball bearing 6205    10    {rate}   {amount}",
        f"Total {amount}", f"A/c No: {LB_ACCOUNT}  IFSC: HDFC0001234"])


@pytest.mark.parametrize("says", ["This invoice replaces Invoice No {n} (rate corrected).",
                                  "Revised invoice issued in place of our invoice no. {n}"])
async def test_a_replacement_invoice_supersedes_the_one_it_names(office: Office, says: str) -> None:
    [first] = await office.say(text_bill("LB/26-27/201"))
    assert first.text.startswith("APPROVE"), first.text
    # The vendor's replacement for the same goods names the first (its number printed another way).
    replacement = text_bill("LB/26-27/205", says.format(n="LB-26-27-201"))
    preview = await office.pack.decide((await _read(office, replacement)), office.tenant)
    assert preview.status == "APPROVE" and preview.replaces == "LB/26-27/201" and preview.preview
    assert office.recorded("LB/26-27/201").state == "decided"  # a preview supersedes nothing
    [card] = await office.say(replacement)
    assert card.text.startswith("APPROVE") and "RECEIPT_ALREADY_BILLED" not in card.text, card.text
    assert "Replaces invoice LB/26-27/201" in card.text
    earlier = office.recorded("LB/26-27/201")
    assert earlier.state == "superseded" and "LB/26-27/205" in (earlier.state_reason or "")
    assert [a.invoice_number for a in office.pack.book.actions(office.tenant, office.lb, action="superseded")] == [
        "LB/26-27/201"]
    assert (await office.document("LB/26-27/201"))[facts.STATE] == "superseded"
    paid = await office.pack.pay(office.tenant, "LB/26-27/201", None, date(2026, 12, 5), "kavya")
    assert paid.outcome == "not_approved"  # the superseded one is never paid
    assert (await office.pack.pay(office.tenant, "LB/26-27/205", None, date(2026, 12, 5), "kavya")).outcome == "paid"


async def test_a_second_bill_of_the_same_goods_naming_no_invoice_is_still_flagged(office: Office) -> None:
    await office.say(text_bill("LB/26-27/211"))
    [card] = await office.say(text_bill("LB/26-27/212", "Replaces invoice no LB/26-27/299"))
    assert "RECEIPT_ALREADY_BILLED" in card.text and "LB/26-27/211" in card.text
    assert "replaces invoice LB/26-27/299, which is not an open invoice" in card.text
    assert office.recorded("LB/26-27/211").state == "decided"


async def _read(office: Office, body: str) -> Invoice:
    from handlers.ap.intake import from_text

    read = await from_text(body, "text", office.pack.ledger_for(office.tenant).data.buyer, None)
    assert read.invoice is not None, read.refusal
    return read.invoice


def test_the_invoice_a_replacement_names_is_read_however_it_is_said() -> None:
    from handlers.ap.textparse import replaced_invoice

    own = "KE/1050/26-27"
    for says in ("This invoice replaces Invoice No KE/1042/26-27 dated 02-11-2026",
                 "REVISED INVOICE\nOriginal Invoice No: KE/1042/26-27", "Issued in place of our invoice no. KE/1042/26-27",
                 "Supersedes Inv No: KE/1042/26-27", "This cancels and replaces bill no KE/1042/26-27"):
        assert replaced_invoice(says, own) == "KE/1042/26-27", says
    assert replaced_invoice("TAX INVOICE\nInvoice No: KE/1050/26-27\nRef Invoice No KE/1042/26-27", own) is None
    assert replaced_invoice("This invoice replaces Invoice No KE/1050/26-27", own) is None


@pytest.mark.parametrize(("number", "tail"), [("LB-INV-2642", "2642"), ("LB/BILL/26-27/0042", "26-27/0042"),
                                              ("NO/26/118-R", "118-R")])
async def test_an_invoice_number_typed_as_printed_is_that_invoice_in_chat(office: Office, number: str,
                                                                          tail: str) -> None:
    """A number with letters, slashes or the word INV/BILL/NO inside it, typed in a move or a question as
    printed (or spaced, or by its last parts), names that invoice; the answer writes it as printed."""
    await office.say(bill(number, "NP/PO/42", "BRG-6206", LB_ACCOUNT))
    [state] = await office.say(f"what is the state of invoice {number}?")
    assert state.text.startswith(f"{number} from Lakshmi Bearings"), state.text
    spaced = " / ".join(number.split("/"))
    [held] = await office.say(f"hold {spaced} because stores are counting the bearings again")
    assert f"{number} is now on hold" in held.text, held.text
    [again] = await office.say(f"what is the state of invoice {tail} of Lakshmi Bearings?")
    assert again.text.startswith(f"{number} from Lakshmi Bearings") and "on hold" in again.text, (tail, again.text)
    assert office.recorded(number).state == "held"


@pytest.mark.parametrize(("number", "note_no", "returned", "label"), [
    ("LB/26-27/301", "LB/CN/26-27/009", 2, "Credit Note Total: Rs."), ("LB-26-302", "CN-0044", 5, "Total"),
    ("LB/26-27/303", "LB/CN/303A", 1, "Credit Note Amount ₹")])
async def test_a_credit_note_reduces_what_is_owed_in_the_ledger_the_audit_and_the_answers(
        office: Office, capsys: pytest.CaptureFixture[str], number: str, note_no: str, returned: int,
        label: str) -> None:
    """A recorded credit note is carried against the invoice it names: its amount is read (whatever the total's
    label), `ap ledger` and its JSON say what is owed after it, `ap audit --invoice` lists it, the state and the
    vendor's problems answers name it, and `ap paid` says the amount owed beside the invoice total."""
    await office.say(bill(number, "NP/PO/42", "BRG-6206", LB_ACCOUNT))
    credit = RATE * returned * Decimal("1.18")
    text = "\n".join(["Lakshmi Bearings Pvt Ltd", f"GSTIN: {LB_GSTIN}", "CREDIT NOTE",
                      f"Credit Note No: {note_no}      Date: 02-12-2026", f"Against Invoice No: {number} dated 03/11/2026",
                      f"Details of Receiver: Nandi Pumps  Party GSTIN: {BUYER}",
                      f"BRG-6206  Ball bearing 6206 returned  {returned} Nos @ {RATE:.2f}  {RATE * returned:.2f}",
                      f"CGST 9% {RATE * returned * Decimal('0.09'):.2f}   SGST 9% {RATE * returned * Decimal('0.09'):.2f}",
                      f"{label} {credit:,.2f}"])
    [recorded] = await office.say(text)
    assert f"Recorded a credit note {note_no} for {format_inr(credit)} against invoice {number}" in recorded.text, \
        recorded.text
    owed = RATE * 10 - credit
    [state] = await office.say(f"what is the state of invoice {number}?")
    assert note_no in state.text and f"owed on it now {format_inr(owed)}" in state.text, state.text
    [problems] = await office.say("any problems with Lakshmi Bearings?")
    assert note_no in problems.text and number in problems.text, problems.text
    assert await ap_cli_run(office, "ap", "ledger", "--tenant", office.tenant) == 0
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if f" {number} " in ln]
    assert note_no in line and f"owed {owed:f}" in line, line
    assert await ap_cli_run(office, "ap", "ledger", "--tenant", office.tenant, "--json") == 0
    [entry] = [e for e in json.loads(capsys.readouterr().out) if e["invoice_number"] == number]
    assert Decimal(entry["owed"]) == owed and [Decimal(n["amount"]) for n in entry["notes"]] == [credit]
    assert await ap_cli_run(office, "ap", "audit", "--tenant", office.tenant, "--invoice", number) == 0
    assert "NOTE_RECORDED" in (trail := capsys.readouterr().out) and note_no in trail
    assert await ap_cli_run(office, "ap", "paid", number, "--tenant", office.tenant, "--as", "arjun") == 0
    paid = capsys.readouterr().out
    assert f"owed on it {format_inr(owed)}, not the invoice total {format_inr(RATE * 10)}" in paid, paid
