"""An AP team at scale: 2,000 invoices in the ledger, answered side by side at small and large size.

    .venv/bin/python -m bench.scale_ap [--sizes 100,1000,2000] [--questions 12] [--smoke] [--url URL]

One tenant gets the AP seed registers (the import path: vendors, POs, receipts, paid history). Invoices are
generated as the pack's ledger records (DecisionBook.record_decision, as a recorded decision files them), two
in three then marked paid to the vendor's master account (`mark_paid`, as `smriti ap paid` does), and their
memories retained in batches (the pack's one memory builder, `invoice_memory`, through `memory/`), growing to
each size in turn. At each size the running bot (App.conversation, console transport) is asked, as a clerk:
- **invoice state**: a paid invoice sent again. The decision recalls the vendor's memory (the pack's main
  question) and must name the invoice as already paid on its paid date (from the generated truth);
- **vendor history**: `/vendors`, each vendor's count of payments exactly as the generated truth has it
  (the seeded history plus the invoices marked paid).
After the largest size the bank is deleted and rebuilt from the records (`rebuild_pack`, what `smriti memory
rebuild` runs) and the same questions asked again: their exact answers must be identical.
"""

import argparse
import asyncio
import json
import re
import sys
from datetime import date, timedelta
from decimal import Decimal
from functools import partial

from bench.harness import bench_app
from bench.scale import Asked, ScaleRow, ask_timed, render_rows
from bot.core.app import App
from bot.core.memory_records import rebuild_pack
from bot.core.registry import Registry, User
from bot.services.i18n import show_date
from handlers.ap.invoice_memory import invoice_memory
from handlers.ap.ledgerview import LedgerEntry
from handlers.ap.lifecycle import DecisionMemo, RecordedEntry
from handlers.ap.models import Vendor
from handlers.ap.pack import APPack
from memory import MemoryClient

TENANT = "benchscaleap"
CLERK = "scaleclerk"
START = date(2025, 4, 1)
BATCH = 100
FILL_TIMEOUT_S = 1800.0
"""A batch of retains on a loaded box can take minutes; the bot's own client gives a write 3 minutes."""
PAID_EVERY = 3
"""Invoices i with i % PAID_EVERY != 0 are paid; the rest stay decided (approved by the agent, not yet paid)."""
VENDOR_LINE = re.compile(r"^(V\d+) .*?: (\d+) payments", re.MULTILINE)


def clerk() -> User:
    return User(user_id=CLERK, name="Scale Clerk", role="clerk", pack="ap", tenant=TENANT, lang="en")


def invoice_number(vendor: Vendor, i: int) -> str:
    return f"{vendor.vendor_id}-GEN/{i:05d}"


def amounts(i: int) -> tuple[Decimal, Decimal, Decimal]:
    """Subtotal, 18% GST and total of the i-th invoice."""
    subtotal = Decimal(20_000 + (i * 7919) % 480_000)
    tax = (subtotal * Decimal("0.18")).quantize(Decimal("0.01"))
    return subtotal, tax, subtotal + tax


def invoice_day(i: int) -> date:
    return START + timedelta(days=i % 540)


def paid_day(i: int) -> date:
    return invoice_day(i) + timedelta(days=7 + i % 20)


class Team:
    """The generated AP team: its vendors, and the invoices recorded so far with the truth they make."""

    def __init__(self, app: App, filler: MemoryClient) -> None:
        pack = app.packs["ap"]
        assert isinstance(pack, APPack)
        self.app, self.pack, self.filler = app, pack, filler
        ledger = pack.ledger_for(TENANT)
        self.vendors = ledger.vendors
        self.seeded_paid = {v.vendor_id: sum(p.outcome == "paid" for p in ledger.past_invoices(v.vendor_id))
                            for v in ledger.vendors}
        self.written = 0
        self.paid_on: dict[tuple[str, str], date] = {}
        """(vendor id, invoice number) -> the day it was paid."""

    def vendor_of(self, i: int) -> Vendor:
        return self.vendors[i % len(self.vendors)]

    def record(self, i: int) -> RecordedEntry:
        """Record the i-th invoice as a decision (and pay it, two in three): the ledger's own write paths."""
        vendor, book = self.vendor_of(i), self.pack.book
        number = invoice_number(vendor, i)
        _, _, total = amounts(i)
        entry = LedgerEntry(vendor_id=vendor.vendor_id, invoice_number=number, invoice_date=invoice_day(i),
                            total=total, status="decided", decision_id=f"scale{i:05d}")
        memo = DecisionMemo(vendor_name=vendor.name, confidence=0.97,
                            recommendation="Approve for payment: matched and received.")
        done = book.record_decision(TENANT, entry, "APPROVE", CLERK, memo, f"scale-{i}", None)
        if i % PAID_EVERY == 0:
            return done.record
        account = vendor.bank_account.account_number
        paid = book.mark_paid(TENANT, number, vendor.vendor_id, paid_day(i), CLERK, account)
        assert paid.outcome == "paid" and paid.record is not None, paid.outcome
        self.paid_on[(vendor.vendor_id, number)] = paid_day(i)
        return paid.record

    async def grow_to(self, size: int) -> None:
        bank = self.app.services.bank_of(TENANT, "ap")
        await self.app.services.memory.ensure_bank(self.pack.bank_profile(bank))
        if self.written == 0:  # the seeded vendor histories, as `smriti seed` retains them
            await self.filler.retain(bank, list(self.pack.memory_records(self.app.services, TENANT)))
        while self.written < size:
            records = [self.record(i) for i in range(self.written, min(size, self.written + BATCH))]
            await self.filler.retain(bank, [invoice_memory(r) for r in records])
            self.written += len(records)

    def payments(self) -> dict[str, int]:
        """Each vendor's payments: the seeded history and the invoices marked paid here."""
        counts = dict(self.seeded_paid)
        for vendor_id, _ in self.paid_on:
            counts[vendor_id] = counts.get(vendor_id, 0) + 1
        return counts

    def asked_paid(self, questions: int) -> list[int]:
        """Paid invoices spread over everything written so far."""
        paid = [i for i in range(self.written) if i % PAID_EVERY != 0]
        return paid[::max(1, len(paid) // questions)][:questions]

    def resent(self, i: int) -> str:
        """The i-th invoice as the vendor would send it again (the JSON a clerk forwards)."""
        vendor = self.vendor_of(i)
        subtotal, tax, total = amounts(i)
        return json.dumps({
            "vendor_name": vendor.name, "vendor_gstin": vendor.gstin, "invoice_number": invoice_number(vendor, i),
            "invoice_date": invoice_day(i).isoformat(),
            "lines": [{"description": "Supply as per order", "quantity": "1", "unit_price": f"{subtotal}",
                       "amount": f"{subtotal}"}],
            "subtotal": f"{subtotal}", "tax": f"{tax}", "total": f"{total}",
            "bank": vendor.bank_account.model_dump(mode="json")})

    def right_state(self, i: int, answer: str) -> bool:
        vendor = self.vendor_of(i)
        on = self.paid_on[(vendor.vendor_id, invoice_number(vendor, i))]
        return any(invoice_number(vendor, i) in line and show_date("en", on) in line
                   for line in paid_lines(answer))

    def right_history(self, answer: str) -> bool:
        """Every vendor listed, each with its payments exactly as the truth counts them."""
        want = self.payments()
        listed = {vendor: int(count) for vendor, count in VENDOR_LINE.findall(answer)}
        return listed == {v.vendor_id: want.get(v.vendor_id, 0) for v in self.pack.ledger_for(TENANT).vendors}


def paid_lines(answer: str) -> list[str]:
    """The answer's lines that say an invoice was already paid: what the records answer, with no recall in it."""
    return [line for line in answer.splitlines() if "already paid" in line]


async def ask_all(team: Team, questions: int) -> list[tuple[str, Asked]]:
    asked: list[tuple[str, Asked]] = []
    for i in team.asked_paid(questions):
        asked.append(("invoice state", await ask_timed(
            team.app, CLERK, team.resent(i), partial(team.right_state, i))))
    asked.append(("vendor history", await ask_timed(team.app, CLERK, "/vendors", team.right_history)))
    return asked


def exact_part(kind: str, answer: str) -> str:
    """What of an answer comes from the records alone: the already-paid lines, or the whole vendor list."""
    return "\n".join(paid_lines(answer)) if kind == "invoice state" else answer


async def measure(url: str, sizes: list[int], questions: int) -> tuple[dict[str, list[ScaleRow]], str]:
    async with bench_app(url, "scaleap", ["ap"], [TENANT], registry=Registry([clerk()])) as app, \
            MemoryClient(url, write_timeout_s=FILL_TIMEOUT_S) as filler:
        team = Team(app, filler)
        rows: dict[str, list[ScaleRow]] = {}
        answers: list[tuple[str, Asked]] = []
        for size in sizes:
            await team.grow_to(size)
            await ask_all(team, 1)  # warm-up at this size
            answers = await ask_all(team, questions)
            for kind in dict.fromkeys(k for k, _ in answers):
                rows.setdefault(kind, []).append(ScaleRow.of(size, [a for k, a in answers if k == kind]))
                print(f"  ({size} invoices, {kind}: {rows[kind][-1].right}/{rows[kind][-1].asked} right, wall "
                      f"p50/p95 {rows[kind][-1].wall_p50:.0f}/{rows[kind][-1].wall_p95:.0f} ms)", flush=True)
        await app.services.memory.delete_bank(app.services.bank_of(TENANT, "ap"))
        rebuilt = await rebuild_pack(team.pack, app.services, TENANT)
        again = await ask_all(team, questions)
        same = sum(exact_part(kind, a.answer) == exact_part(kind, b.answer)
                   for (kind, a), (_, b) in zip(answers, again))
        verdict = (f"bank deleted and rebuilt from the records ({rebuilt.retained} memories): {same}/{len(again)} "
                   f"exact answers identical, {sum(b.right for _, b in again)}/{len(again)} right")
    return rows, verdict


async def run(url: str, sizes: list[int], questions: int) -> list[str]:
    rows, verdict = await measure(url, sizes, questions)
    out = ["AP at scale: one bank growing by recorded invoices (two in three paid), asked through the running bot"]
    for kind, kind_rows in rows.items():
        out += render_rows(f" {kind}", kind_rows)
    return out + [f"  {verdict}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,2000", help="invoices (memories) at each step")
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--url", default="http://127.0.0.1:8888")
    parser.add_argument("--smoke", action="store_true", help="20 and 40 invoices, 2 questions of each kind")
    args = parser.parse_args(argv)
    sizes, questions = ([20, 40], 2) if args.smoke else ([int(s) for s in args.sizes.split(",")], args.questions)
    print("\n".join(asyncio.run(run(args.url, sizes, questions))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
