"""An invoice's life as a state machine over the real commands, on a tenant built by `smriti import` (its sheets
written here): decide (recorded), preview, hold / review / approve / reject (with or without a reason), a receipt
arriving, a corrected invoice under the same number, and paying (to the master, or typing an account), against
the real local Hindsight. After every step: no invoice paid twice; nothing paid without its goods received or
an override with a reason; every payment to the master account or to the one two different people approved over
a bank-account block (never the old master's silently, never a reading nobody approved); the memory of each
recorded invoice says its ledger state. A preview changes no row, no log line and no memory. Every move is by a
person of the tenant's people list, named by id or name in any spelling and recorded by their id: a name that is
no one (or no one on the AP team) moves nothing, and one person typed two ways is never maker and checker."""

import asyncio
import tempfile
import uuid
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.core.registry import User
from bot.store.people import add_person
from bot.services.registers.importer import import_file
from handlers import INSTALLED
from handlers.ap import facts
from handlers.ap.invoice_memory import document_id
from handlers.ap.lifecycle import BANK_FLAGS, ClerkAction, overrides
from handlers.ap.models import BankDetails, Invoice, InvoiceLine
from handlers.ap.pack import APPack
from tests.conftest import make_settings

pytestmark = pytest.mark.hindsight

KINDS = all_kinds(INSTALLED.packages())
BUYER_GSTIN = "36AAGCK7741E1ZH"
VENDOR_CODE, VENDOR_GSTIN = "VK/07", "36AAFCV5521K1Z4"
MASTER = "50100223344556"
MISREAD = "5010023344556"
"""The master account as a phone photo read it: one digit dropped."""
INVOICES = 3
PEOPLE = {"kavya": "Kavya Rao", "arjun": "Arjun Reddy"}
"""The AP team (person id: name); a field officer of the same tenant ("ravi") may not move invoices."""
SPELLINGS = {"kavya": "kavya", "KAVYA": "kavya", "Kavya Rao": "kavya", "Ms. kavya rao": "kavya", "arjun": "arjun",
             "Arjun Reddy": "arjun", "Reddy": "arjun", "ghost99": None, "Ravi Kumar": None}
"""How a clerk may type who does it, and the person it is (None: no one who may move an invoice)."""
ORDERED = Decimal("10")
RECEIVED_AT_START = (Decimal("10"), Decimal("6"), Decimal("10"))
"""Invoice 1's goods are part received at the start: the rest arrives as a step."""


def sheets(folder: Path) -> list[tuple[str, Path]]:
    """The office's sheets, as `smriti import` takes them: the company, one vendor (its code as the office
    writes it), three POs, what stores received so far, and two payments made last year."""
    files = {
        "buyer": f"Company Name,GSTIN\nKrishna Pumps Pvt Ltd,{BUYER_GSTIN}\n",
        "vendors": "Vendor ID,Vendor Name,GSTIN,Bank Account Number,IFSC Code,Contact Person,Contact Phone\n"
                   f"{VENDOR_CODE},Vasavi Castings,{VENDOR_GSTIN},{MASTER},HDFC0001234,Ramana,9848011111\n",
        "purchase-orders": "PO Number,Vendor ID,PO Date,Line,SKU,Item,Quantity,Unit,Rate\n" + "".join(
            f"KP/PO/{k + 1},{VENDOR_CODE},01-10-2026,1,CAS-{k},Pump casing size {k},{ORDERED},Nos,{1000 * (k + 1)}\n"
            for k in range(INVOICES)),
        "goods-receipts": "GRN Number,PO Number,Received On,PO Line,Quantity Received\n" + "".join(
            f"GRN/{k + 1}/A,KP/PO/{k + 1},20-10-2026,1,{RECEIVED_AT_START[k]}\n" for k in range(INVOICES)),
        "payments": "Invoice Number,Vendor ID,Invoice Date,Total,Outcome,Paid On,Paid to Account\n"
                    f"VC/101,{VENDOR_CODE},02-02-2025,15000,paid,01-03-2025,{MASTER}\n"
                    f"VC/140,{VENDOR_CODE},04-05-2025,25000,paid,02-06-2025,{MASTER}\n",
    }
    written = []
    for kind, body in files.items():
        path = folder / f"{kind}.csv"
        path.write_text(body, encoding="utf-8")
        written.append((kind, path))
    return written


class InvoiceLife(RuleBasedStateMachine):
    def __init__(self, hindsight_url: str, bank_prefix: str) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = Path(tempfile.mkdtemp(prefix="ap-life-"))
        options = make_settings(self.folder, hindsight_url, f"{bank_prefix}-il{uuid.uuid4().hex[:6]}")
        self.app: App = self.run(App.start(options, pack_names=["ap"]))
        pack = self.app.packs["ap"]
        assert isinstance(pack, APPack)
        self.pack = pack
        self.tenant = f"kp{uuid.uuid4().hex[:6]}"
        for kind, path in sheets(self.folder):
            report = import_file(self.app.services.database, KINDS, kind, self.tenant, path, apply=True,
                                 bank_prefix=options.bank_prefix)
            assert report.applied and not report.rejected, (kind, report)
        for person_id, name in PEOPLE.items():
            add_person(self.app.services.database, User(user_id=person_id, name=name, role="clerk",
                                                        pack="ap", tenant=self.tenant))
        add_person(self.app.services.database, User(user_id="ravi", name="Ravi Kumar", role="officer",
                                                    pack="agri", tenant=self.tenant))
        vendor = pack.ledger_for(self.tenant).vendors[0]
        self.vendor_id = vendor.vendor_id
        self.bank = self.app.services.bank_of(self.tenant, "ap")
        self.version = [0] * INVOICES
        self.recorded_version = [0] * INVOICES
        """The version of each invoice last recorded: another one is a corrected invoice."""
        self.received = list(RECEIVED_AT_START)
        self.receipts = 0
        self.decided: list[int] = []
        """Invoices recorded at least once: the clerk's moves and payments mostly act on these."""

    def person(self, written: str) -> str | None:
        """The person id a spelling names in this tenant (None: no one who may move invoices)."""
        return SPELLINGS[written]

    def run(self, work):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(work)

    def teardown(self) -> None:
        try:
            self.run(self.app.services.memory.delete_bank(self.bank))
        except Exception:  # noqa: BLE001 - a bank never made is nothing to delete
            pass
        self.run(self.app.aclose())
        self.loop.close()

    def invoice(self, k: int) -> Invoice:
        """Invoice k as the vendor sends it now: the first of invoice 2 asks, on a photo, for the master
        account with a digit dropped; a corrected version (later date, a rate a rupee lower, within tolerance)
        asks for the master's."""
        version = self.version[k]
        rate = Decimal(1000 * (k + 1) - version)
        account = MISREAD if k == 2 and version == 0 else MASTER
        return Invoice(vendor_name="Vasavi Castings", vendor_gstin=VENDOR_GSTIN, buyer_gstin=BUYER_GSTIN,
                       invoice_number=f"VC/26-27/{300 + k}", invoice_date=date(2026, 11, 2) + timedelta(days=version),
                       po_number=f"KP/PO/{k + 1}", lines=[InvoiceLine(
                           description=f"Pump casing size {k}", sku=f"CAS-{k}", quantity=ORDERED, unit_price=rate,
                           amount=ORDERED * rate)], total=ORDERED * rate, bank=BankDetails(account_number=account),
                       source="photo" if k == 2 else "pdf")

    def number(self, k: int) -> str:
        """Invoice k's number; k == INVOICES is a number never sent."""
        return f"VC/26-27/{300 + k}"

    def snapshot(self) -> tuple[object, ...]:
        book = self.pack.book
        rows = [r.model_dump(mode="json") for r in book.recorded_entries(self.tenant)]
        log = [a.model_dump(mode="json") for a in book.actions(self.tenant)]
        memory = sorted((d.document_id, sorted(d.metadata.items()))
                        for d in self.run(self.app.services.memory.list_documents(self.bank)))
        return rows, log, memory

    def recorded(self, k: int):  # type: ignore[no-untyped-def]
        return self.pack.book.recorded(self.tenant, self.vendor_id, self.number(k))

    @rule(k=st.integers(0, INVOICES - 1))
    def decide(self, k: int) -> None:
        """Deciding again is a move of the one entry: a paid or rejected invoice stays closed; a corrected
        version supersedes the earlier one; new facts (the rest of a receipt) release a clerk's hold or review
        back to `decided` under the new status; the same facts leave the clerk's move standing."""
        before = self.recorded(k)
        report = self.run(self.pack.decide(self.invoice(k), self.tenant, user_id="kavya", record=True))
        after = self.recorded(k)
        if k not in self.decided:
            self.decided.append(k)
        assert not report.preview and report.ledger_state is not None and after is not None
        if before is None:
            assert report.ledger_outcome == "new" and after.state == "decided"
        elif before.state in ("paid", "rejected"):
            assert report.ledger_outcome == "closed" and after.state == before.state
        elif self.recorded_version[k] != self.version[k]:
            assert report.ledger_outcome == "corrected" and after.state == "decided"
            assert any(a.action == "superseded" and a.invoice_number == self.number(k)
                       for a in self.pack.book.actions(self.tenant))
        elif before.state == "approved":
            # A clerk's approval stands on the same invoice sent again, whatever its reading now says.
            assert report.ledger_outcome == "copy" and after.state == "approved", (before, after)
            assert after.entry.decision_id == before.entry.decision_id
        elif after.agent_status != before.agent_status:
            assert report.ledger_outcome == "redecided" and after.state == "decided", (before, after)
        else:
            # The same bill again with nothing new is a copy: blocked as its duplicate, the entry left as it was.
            assert report.ledger_outcome == "copy" and after.state == before.state
            assert report.status == "PAYMENT_BLOCKED" and after.entry.decision_id == before.entry.decision_id
        self.recorded_version[k] = self.version[k]
        if k == 2 and self.version[k] == 0:
            assert report.status != "APPROVE", "an account with a digit dropped is never approved by the agent"

    @precondition(lambda self: self.decided)
    @rule(k=st.integers(0, INVOICES - 1), misread=st.booleans())
    def copy_sent_again(self, k: int, misread: bool) -> None:
        """The vendor sends the invoice again as it stands (a reminder copy): its number printed another way, the
        amount in words read this time, and now and then its tax misread (a tax the total does not have). It is
        the same invoice: never a changed one, never a second entry, and an approved one stays approved."""
        k = self.pick(k)
        before = self.recorded(k)
        sent = self.invoice(k)
        copy = sent.model_copy(update={"invoice_number": f" vc 26 27 {300 + k} ", "total_in_words": sent.total,
                                       "notes": "COPY - REMINDER", "tax": sent.total * Decimal("0.06") if misread
                                       else sent.tax})
        entries = len(self.pack.book.recorded_entries(self.tenant))
        report = self.run(self.pack.decide(copy, self.tenant, user_id="arjun", record=True))
        after = self.recorded(k)
        assert before is not None and after is not None
        assert len(self.pack.book.recorded_entries(self.tenant)) == entries, "a copy became a second entry"
        if self.recorded_version[k] != self.version[k]:
            return  # the vendor's latest version differs from the one recorded: that is a changed invoice
        assert report.ledger_outcome != "corrected", f"a copy was taken for a changed invoice: {report.ledger_outcome}"
        assert after.entry.invoice_number == before.entry.invoice_number
        if before.state in ("paid", "rejected"):
            assert report.ledger_outcome == "closed" and after.state == before.state
        elif before.state == "approved" or report.ledger_outcome == "copy":
            assert report.ledger_outcome == "copy" and after.state == before.state, (before.state, report.ledger_outcome)
            assert report.status == "PAYMENT_BLOCKED" and after.entry.decision_id == before.entry.decision_id
            assert after.state_by == before.state_by and after.maker_by == before.maker_by
        else:  # new facts (a receipt arrived) or a reading with a new flag: decided again, the same entry
            assert report.ledger_outcome == "redecided" and after.state == "decided"

    @rule(k=st.integers(0, INVOICES - 1))
    def preview(self, k: int) -> None:
        before = self.snapshot()
        report = self.run(self.pack.decide(self.invoice(k), self.tenant, user_id="kavya", record=False))
        assert report.preview and report.ledger_state is None
        assert self.snapshot() == before, "a preview wrote something"

    def pick(self, k: int) -> int:
        """Mostly an invoice already recorded; now and then one that is not (it must be "not found")."""
        return k if k >= INVOICES else self.decided[k % len(self.decided)]

    @precondition(lambda self: self.decided)
    @rule(k=st.integers(0, INVOICES), action=st.sampled_from(["approve", "hold", "review", "reject"]),
          reason=st.sampled_from([None, "checked with stores and the vendor on the phone"]),
          by=st.sampled_from(sorted(SPELLINGS)))
    def act(self, k: int, action: ClerkAction, reason: str | None, by: str) -> None:
        k = self.pick(k)
        before = self.recorded(k)
        snapshot = self.snapshot()
        moved = self.run(self.pack.act(self.tenant, self.number(k), None, action, by, reason))
        person = self.person(by)
        if person is None:
            assert moved.outcome in ("who_unknown", "who_not_allowed"), (by, moved.outcome)
            assert self.snapshot() == snapshot, f"{by!r}, no one of the AP team, moved something"
            return
        by = person
        if before is None:
            assert moved.outcome == "not_found"
            return
        over = overrides(before.agent_status, action)
        if over and not reason:
            assert moved.outcome not in ("moved", "second_needed"), "an override was recorded without a reason"
        bank_flagged = bool(set(before.memo.flags if before.memo else []) & set(BANK_FLAGS))
        if moved.outcome == "second_needed":
            assert bank_flagged and action == "approve" and before.maker_by is None
            assert moved.record is not None and moved.record.state == before.state and moved.record.maker_by == by
        if moved.outcome == "moved":
            assert moved.record is not None and moved.record.state_by == by
            if over and action == "approve" and bank_flagged:
                assert before.maker_by not in (None, by), "a bank block was lifted by one person alone"

    @precondition(lambda self: 2 in self.decided)
    @rule(maker=st.sampled_from([s for s, p in SPELLINGS.items() if p]),
          checker=st.sampled_from([s for s, p in SPELLINGS.items() if p]))
    def two_people_approve_the_bank_change(self, maker: str, checker: str) -> None:
        """Invoice 2 asks (on its first version) for an account not on file: one person asks to approve it with a
        reason, a second approves; the account they approved is then the one a payment goes to. The same person
        typed another way ("kavya", "Kavya Rao") is no second person."""
        same = self.person(maker) == self.person(checker)
        before = self.recorded(2)
        first = self.run(self.pack.act(self.tenant, self.number(2), None, "approve", maker, "vendor letter came"))
        second = self.run(self.pack.act(self.tenant, self.number(2), None, "approve", checker, "called the contact"))
        assert before is not None
        flagged = bool(set(before.memo.flags if before.memo else []) & set(BANK_FLAGS))
        if not flagged or before.state not in ("decided", "held", "review"):
            return
        if before.maker_by is None:
            assert first.outcome == "second_needed"
            assert first.record is not None and first.record.maker_by == self.person(maker)
            if same:
                assert second.outcome == "same_person", f"{maker!r} and {checker!r} approved as two people"
        if second.outcome == "moved":
            assert second.record is not None and second.record.state == "approved"
            asker = before.maker_by or self.person(maker)
            assert second.record.maker_by == asker and second.record.checker_by not in (None, asker)
            assert second.record.checker_by == self.person(checker)
            assert second.record.two_person_account == second.record.confirmed_account == MISREAD

    @precondition(lambda self: any(r < ORDERED for r in self.received))
    @rule(k=st.integers(0, INVOICES - 1))
    def receipt_arrives(self, k: int) -> None:
        if self.received[k] >= ORDERED:
            return
        self.receipts += 1
        path = self.folder / f"grn-{self.receipts}.csv"
        path.write_text("GRN Number,PO Number,Received On,PO Line,Quantity Received\n"
                        f"GRN/{k + 1}/B{self.receipts},KP/PO/{k + 1},25-11-2026,1,{ORDERED - self.received[k]}\n",
                        encoding="utf-8")
        report = import_file(self.app.services.database, KINDS, "goods-receipts", self.tenant, path, apply=True)
        assert report.applied and not report.rejected
        self.received[k] = ORDERED

    @rule(k=st.integers(0, INVOICES - 1))
    def corrected_invoice(self, k: int) -> None:
        self.version[k] += 1

    @precondition(lambda self: self.decided)
    @rule(k=st.integers(0, INVOICES), typed=st.sampled_from([None, MASTER, MISREAD]),
          by=st.sampled_from(["Arjun Reddy", "kavya", "ghost99", "Ravi Kumar"]))
    def pay(self, k: int, typed: str | None, by: str) -> None:
        k = self.pick(k)
        before = self.recorded(k)
        snapshot = self.snapshot()
        paid = self.run(self.pack.pay(self.tenant, self.number(k), None, date(2026, 12, 5), by, typed))
        if self.person(by) is None:
            assert paid.outcome in ("who_unknown", "who_not_allowed") and self.snapshot() == snapshot, paid.outcome
            return
        if before is not None and before.state == "paid":
            assert paid.outcome == "already_paid"
        if paid.outcome != "paid":
            return
        assert before is not None and paid.record is not None
        assert before.state == "approved" or (before.state == "decided" and before.agent_status == "APPROVE"), \
            f"paid from {before.state} ({before.agent_status}): only an approved invoice is paid"
        received = self.received[k] >= ORDERED and before.agent_status == "APPROVE"
        reasoned = before.state == "approved" and (before.agent_status == "APPROVE" or bool(before.state_reason))
        assert received or reasoned, f"paid without goods received or a reasoned override: {before}"
        approved = before.two_person_account
        assert paid.record.entry.paid_to_account == (typed or approved or MASTER), (typed, approved, paid.record)
        if typed == MISREAD:
            assert approved == MISREAD, "a typed account nobody approved was paid"

    @invariant()
    def paid_once_to_a_known_account(self) -> None:
        paid = [a for a in self.pack.book.actions(self.tenant) if a.action == "paid"]
        numbers = [a.invoice_number for a in paid]
        assert len(numbers) == len(set(numbers)), f"paid twice: {numbers}"
        for record in self.pack.book.recorded_entries(self.tenant):
            if record.state != "paid":
                assert record.entry.paid_to_account is None
                continue
            to = record.entry.paid_to_account
            two = record.maker_by is not None and record.checker_by is not None and record.maker_by != record.checker_by
            assert to == MASTER or (two and to == record.confirmed_account), record

    @invariant()
    def every_move_is_by_a_person_of_the_ap_team(self) -> None:
        """Who decided, moved, asked, checked and paid is recorded by person id, never a spelling or a stranger."""
        team = set(PEOPLE)
        for record in self.pack.book.recorded_entries(self.tenant):
            assert {record.decided_by, record.state_by} <= team, record
            assert {record.maker_by, record.checker_by} - {None} <= team, record
        assert {a.by_user for a in self.pack.book.actions(self.tenant)} <= team

    @invariant()
    def paid_only_with_goods_or_a_reasoned_override(self) -> None:
        """Every paid invoice was approved by the agent (goods received, nothing flagged), or a clerk overrode it
        with a reason; over a bank block, by two different people."""
        log = self.pack.book.actions(self.tenant)
        for record in self.pack.book.recorded_entries(self.tenant):
            if record.state not in ("paid", "approved"):
                continue
            if record.agent_status != "APPROVE":
                approvals = [a for a in log if a.invoice_number == record.entry.invoice_number
                             and a.action == "override" and a.reason and a.agent_status == record.agent_status]
                assert approvals, f"{record.state} over {record.agent_status} without a reasoned override"
                if set(record.memo.flags if record.memo else []) & set(BANK_FLAGS):
                    assert record.maker_by and record.maker_by != approvals[-1].by_user, record

    @invariant()
    def memory_says_the_ledger_state(self) -> None:
        documents = {d.document_id: d for d in self.run(self.app.services.memory.list_documents(self.bank))}
        for record in self.pack.book.recorded_entries(self.tenant):
            stored = documents.get(document_id(record.entry.vendor_id, record.entry.number_key))
            assert stored is not None, f"no memory for {record.entry.invoice_number}"
            assert stored.metadata.get(facts.STATE) == record.state, (record.state, stored.metadata)
            assert stored.metadata.get(facts.AGENT_STATUS) == record.agent_status
            assert stored.metadata.get(facts.MAKER_BY) == record.maker_by, (record.maker_by, stored.metadata)
            assert stored.metadata.get(facts.CHECKER_BY) == record.checker_by, (record.checker_by, stored.metadata)


def test_an_invoices_life_keeps_money_and_memory_straight(hindsight_url: str, bank_prefix: str) -> None:
    run_state_machine_as_test(
        lambda: InvoiceLife(hindsight_url, bank_prefix),
        settings=settings(max_examples=16, stateful_step_count=10, deadline=None,
                          suppress_health_check=list(HealthCheck)),
    )
