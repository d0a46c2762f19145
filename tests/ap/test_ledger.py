"""The tenant ledger of decisions and payments: recorded decisions are what the next decision reads.

Issue 15's "done when": the same invoice decided twice is blocked citing the first; number variants are one
number; a look-alike goes to review; a receipt billed twice names both invoices; an override without a reason
is not recorded; payment counts come from the ledger; two clerks deciding one invoice at once record it once.
"""

import asyncio
import json
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.core.app import App
from bot.core.messages import Reply
from bot.core.registry import Registry
from bot.settings import Settings
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.ap.pack import APPack
from handlers.ap.audit import AuditLog
from handlers.ap.demo import SAMPLES, load_sample
from handlers.ap.ledger import Ledger, load_policy
from handlers.ap.ledger_store import DecisionBook, RecordedView
from handlers.ap.reason_asks import PendingReasonRow
from handlers.ap.ledgerview import LedgerEntry, entries_from_history, normalise_number
from handlers.ap.lifecycle import DecisionMemo
from handlers.ap.payments import account_record
from handlers.ap.pipeline import Decider, DecideRequest
from tests.registers import seed_ledger
from tests.ap.test_chat import press, said
from tests.ap.test_duplicates import CORPUS, liner_bags

pytestmark = pytest.mark.hindsight

RAVI_ACCOUNT = "50200012344821"
PG_ADMIN = "postgresql+psycopg://hindsight:hindsight@127.0.0.1:55433/postgres"


@pytest.fixture
async def office(settings: Settings, tmp_path: Path) -> AsyncIterator[tuple[App, APPack, str]]:
    """An App whose two AP clerks (kavya, arjun) work for a fresh tenant with the AP seeds retained, so what
    these tests decide lands in no other test's bank."""
    tenant = f"ap{uuid.uuid4().hex[:8]}"
    users = [{"user_id": name, "name": name.title(), "role": "clerk", "pack": "ap", "tenant": tenant, "lang": "en",
              "telegram_ids": [9100 + i], "whatsapp_numbers": [f"+91980000990{i}"]}
             for i, name in enumerate(("kavya", "arjun"))]
    (tmp_path / "users.json").write_text(json.dumps({"users": users}), encoding="utf-8")
    app = await App.start(settings, pack_names=["ap"], registry=Registry.load(tmp_path / "users.json"))
    pack = app.packs["ap"]
    assert isinstance(pack, APPack)
    await pack.load_seeds(tenant)
    yield app, pack, tenant
    await app.aclose()


def book_on(path: Path) -> DecisionBook:
    database = Database(f"sqlite:///{path}")
    upgrade(database, INSTALLED.migrations(["ap"]))
    return DecisionBook(database)


def corpus_decider(app: App, book: DecisionBook, tmp_path: Path) -> Decider:
    """A decider over the corpus's own registers (Annapurna Packaging's PO and receipt), recording in `book`."""
    return Decider(app.services, Ledger.load(CORPUS / "ledger"), load_policy(),
                   AuditLog(app.services.database), book=book)


def request(tenant: str, user: str = "clerk1") -> DecideRequest:
    return DecideRequest(tenant=tenant, use_memory=False, user_id=user, record=True)


def sample_text(name: str, **changes: str) -> str:
    data = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


async def say(app: App, body: str, sender: str = "kavya") -> list[Reply]:
    return await app.conversation.handle(said(sender, body))


async def test_the_same_invoice_again_is_its_one_entry_until_paid_then_a_duplicate(
        office: tuple[App, APPack, str]) -> None:
    """Sent again while open with nothing new, an invoice is a copy: blocked as the duplicate of its one entry,
    which stays as it was (never a second entry, never moved by the copy); once paid, the same number again is
    blocked citing the payment."""
    ap_app, pack, tenant = office
    [first] = await say(ap_app, sample_text("ravi_clean"))
    assert first.text.startswith("APPROVE")
    [second] = await say(ap_app, sample_text("ravi_clean"))
    assert second.text.startswith("PAYMENT BLOCKED") and "DUPLICATE_INVOICE" in second.text
    assert "already recorded" in second.text and "nothing changed" in second.text and not second.buttons
    recorded = pack.book.recorded_entries(tenant)
    assert [(r.entry.invoice_number, r.state, r.agent_status) for r in recorded] == [
        ("RSC/26-27/0009", "decided", "APPROVE")]
    decisions = pack.book.actions(tenant, "V001", action="decision")
    assert [a.agent_status for a in decisions] == ["APPROVE"]
    assert all(a.by_user for a in decisions)
    [approved] = await say(ap_app, "approve RSC/26-27/0009")  # the entry is acted on by its number as before
    assert "is now approved" in approved.text, approved.text
    assert (await pack.pay(tenant, "RSC/26-27/0009", None, date(2026, 4, 30), "kavya")).outcome == "paid"
    [third] = await say(ap_app, sample_text("ravi_clean"))
    assert third.text.startswith("PAYMENT BLOCKED") and "DUPLICATE_INVOICE" in third.text
    assert "already paid" in third.text
    [entry] = pack.book.recorded_entries(tenant)
    assert entry.state == "paid" and entry.entry.paid_to_account == RAVI_ACCOUNT


async def test_a_variant_of_the_number_is_the_same_invoice(office: tuple[App, APPack, str]) -> None:
    ap_app = office[0]
    pack, tenant = office[1], office[2]
    await say(ap_app, sample_text("ravi_clean", invoice_number="RSC/26-27/0009"))
    [variant] = await say(ap_app, sample_text("ravi_clean", invoice_number="rsc 26-27-9"))
    # The headline, the decision and the ledger line agree: a copy of the recorded invoice, not a bill to approve.
    assert variant.text.startswith("PAYMENT BLOCKED") and "DUPLICATE_INVOICE" in variant.text
    assert "a copy of invoice RSC/26-27/0009, already recorded" in variant.text
    report = await pack.decide(load_sample("ravi_clean").model_copy(update={"invoice_number": "RSC / 26-27 / 09"}),
                               tenant)
    assert report.status == "PAYMENT_BLOCKED" and report.copy_of == "RSC/26-27/0009" and report.preview
    assert [r.entry.invoice_number for r in pack.book.recorded_entries(tenant)] == ["RSC/26-27/0009"]
    assert (await pack.pay(tenant, "rsc-26-27-9", None, date(2026, 4, 30), "kavya")).outcome == "paid"
    [again] = await say(ap_app, sample_text("ravi_clean", invoice_number="RSC 26/27/09"))
    assert again.text.startswith("PAYMENT BLOCKED") and "DUPLICATE_INVOICE" in again.text
    assert "RSC/26-27/0009" in again.text


async def test_a_look_alike_under_another_number_goes_to_review(office: tuple[App, APPack, str]) -> None:
    ap_app = office[0]
    await say(ap_app, sample_text("ravi_clean"))
    [look_alike] = await say(ap_app, sample_text("ravi_clean", invoice_number="RSC/26-27/0031",
                                                 invoice_date="2026-04-23"))
    assert look_alike.text.startswith("HUMAN REVIEW") and "POSSIBLE_DUPLICATE" in look_alike.text
    assert "RSC/26-27/0009" in look_alike.text


async def test_a_receipt_billed_by_a_recorded_invoice_is_consumed(ap_app: App, tmp_path: Path) -> None:
    book = book_on(tmp_path / "one.db")
    decider = corpus_decider(ap_app, book, tmp_path)
    tenant = f"t{uuid.uuid4().hex[:6]}"
    first = await decider.decide(liner_bags("APK/1187", day=date(2026, 3, 20)), request(tenant))
    assert first.status == "APPROVE"
    second = await decider.decide(liner_bags("APK/1240", quantity="1500"), request(tenant))
    assert second.status == "EXCEPTION"
    billed = next(f for f in second.flags if f.code == "RECEIPT_ALREADY_BILLED")
    assert "APK/1187" in billed.evidence and "APK/1240" in billed.evidence
    # A preview reads the ledger but records nothing.
    preview = await decider.decide(liner_bags("APK/1300", quantity="10"),
                                   DecideRequest(tenant=tenant, use_memory=False))
    assert preview.status == "EXCEPTION"
    assert [e.invoice_number for e in book.entries(tenant)] == ["APK/1187", "APK/1240"]
    assert book.entries(f"other{tenant}") == []  # another tenant's ledger is its own


async def test_two_clerks_deciding_one_invoice_at_once_record_one(ap_app: App, tmp_path: Path) -> None:
    book = book_on(tmp_path / "one.db")
    decider = corpus_decider(ap_app, book, tmp_path)
    tenant = f"t{uuid.uuid4().hex[:6]}"
    invoice = liner_bags("APK/2001")
    reports = await asyncio.gather(decider.decide(invoice, request(tenant, "clerk1")),
                                   decider.decide(invoice, request(tenant, "clerk2")))
    # One records it; the other, decided after it, is told it is a copy of that entry.
    assert sorted(r.status for r in reports) == ["APPROVE", "PAYMENT_BLOCKED"]
    assert sorted(str(r.ledger_outcome) for r in reports) == ["copy", "new"]
    [entry] = book.entries(tenant)
    assert entry.status == "decided" and entry.decision_id in {r.run_id for r in reports}


def claim_at_once(books: list[DecisionBook], rounds: int) -> None:
    """Two clerks' decisions of one invoice released together by a barrier: exactly one inserts, each round, and
    the other moves that same entry."""
    entry = LedgerEntry(vendor_id="V106", invoice_number="APK/77", invoice_date=date(2026, 4, 2),
                        total=Decimal("1000.00"), status="decided", decision_id="r0")
    memo = DecisionMemo(vendor_name="Annapurna Packaging", confidence=0.9)

    def claim(i: int, tenant: str, barrier: threading.Barrier, results: list[object]) -> None:
        barrier.wait()
        mine = entry.model_copy(update={"decision_id": f"r{i}"})
        results[i] = books[i].record_decision(tenant, mine, "APPROVE", f"clerk{i}", memo, "k1", None).outcome

    for round_no in range(rounds):
        tenant = f"t{round_no}"
        barrier = threading.Barrier(2)
        results: list[object] = [None, None]
        threads = [threading.Thread(target=claim, args=(i, tenant, barrier, results)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(str(r) for r in results) == ["new", "unchanged"]  # exactly one inserted it
        [stored] = books[0].entries(tenant)
        assert stored.decision_id in {"r0", "r1"}


def test_concurrent_claims_from_two_databases_on_one_sqlite_file_insert_once(tmp_path: Path) -> None:
    """Two Database objects on one SQLite file, as two App instances would have."""
    path = tmp_path / "shared.db"
    claim_at_once([book_on(path), book_on(path)], rounds=8)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A throwaway database on the local PostgreSQL (skipped where there is none)."""
    admin = sa.create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    name = f"smriti_apledger_{uuid.uuid4().hex[:8]}"
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.OperationalError:
        admin.dispose()
        pytest.skip("no PostgreSQL at 127.0.0.1:55433")
    try:
        yield PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_concurrent_claims_on_postgresql_insert_once(postgres_url: str) -> None:
    databases = [Database(postgres_url), Database(postgres_url)]
    try:
        upgrade(databases[0], INSTALLED.migrations(["ap"]))
        claim_at_once([DecisionBook(d) for d in databases], rounds=8)
    finally:
        for database in databases:
            database.dispose()


def test_paid_invoices_add_to_the_payment_count(tmp_path: Path) -> None:
    book = book_on(tmp_path / "pay.db")
    ledger = seed_ledger().ledger
    view = RecordedView(book, entries_from_history(ledger.data.invoices))
    assert account_record(view.entries("t1"), "V001", RAVI_ACCOUNT).clean_to_current == 14
    invoice = load_sample("ravi_clean")
    memo = DecisionMemo(vendor_name="Ravi Steel & Components", confidence=0.9)

    def record(number: str, status: str, run: str, day: date, asked: str | None = None) -> None:
        entry = LedgerEntry(vendor_id="V001", invoice_number=number, invoice_date=day, total=invoice.total,
                            status="decided", decision_id=run)
        flagged = memo.model_copy(update={"flags": ["FIRST_BANK_CHANGE"]}) if asked else memo
        assert book.record_decision("t1", entry, status, "anita", flagged, run, asked).outcome == "new"

    record(invoice.invoice_number, "EXCEPTION", "r1", invoice.invoice_date)
    # An invoice the agent did not approve is not paid until a clerk approves it, with a reason.
    assert book.mark_paid("t1", "rsc-26-27-9", None, date(2026, 4, 28), "cli", RAVI_ACCOUNT).outcome == "not_approved"
    assert book.act("t1", invoice.invoice_number, "V001", "approve", "anita").outcome == "reason_needed"
    assert book.act("t1", invoice.invoice_number, "V001", "approve", "anita", "short supply agreed").outcome == "moved"
    paid = book.mark_paid("t1", "rsc-26-27-9", None, date(2026, 4, 28), "cli", RAVI_ACCOUNT)
    assert paid.outcome == "paid" and paid.entry is not None and paid.entry.paid_to_account == RAVI_ACCOUNT
    assert book.mark_paid("t1", invoice.invoice_number, None, date(2026, 4, 29), "cli",
                          RAVI_ACCOUNT).outcome == "already_paid"
    assert book.act("t1", invoice.invoice_number, "V001", "hold", "anita").outcome == "closed"
    assert account_record(view.entries("t1"), "V001", RAVI_ACCOUNT).clean_to_current == 15
    assert account_record(view.entries("t2"), "V001", RAVI_ACCOUNT).clean_to_current == 14
    # An account the invoice asked for is paid to only once two people approved it over the bank block (typed
    # or not); never a reading alone, never another account typed.
    record("RSC/26-27/0044", "PAYMENT_BLOCKED", "r2", date(2026, 5, 2), asked="50200099990001")
    assert book.mark_paid("t1", "RSC/26-27/0044", "V001", date(2026, 5, 6), "kavya", RAVI_ACCOUNT,
                          "50200099990001").outcome == "not_approved"
    assert book.act("t1", "RSC/26-27/0044", "V001", "approve", "kavya", "letter").outcome == "second_needed"
    assert book.act("t1", "RSC/26-27/0044", "V001", "approve", "arjun", "called").outcome == "moved"
    assert book.mark_paid("t1", "RSC/26-27/0044", "V001", date(2026, 5, 6), "cli", RAVI_ACCOUNT,
                          "50200099990002").outcome == "account_unverified"
    confirmed = book.mark_paid("t1", "RSC/26-27/0044", "V001", date(2026, 5, 6), "ravi", RAVI_ACCOUNT,
                               "5020 0099 9900 01")
    assert confirmed.outcome == "paid" and confirmed.record is not None
    assert confirmed.record.confirmed_by == "arjun" and confirmed.record.entry.paid_to_account == "50200099990001"
    after = account_record(view.entries("t1"), "V001", RAVI_ACCOUNT)
    assert after.clean_to_current == 0 and after.bank_changes == 1 and after.paid == 16
    assert [a.action for a in book.actions("t1", "V001")] == ["paid", "approval_asked", "account_confirmed", "paid"]
    assert normalise_number("rsc-26-27-9") == book.entries("t1")[0].number_key
    # The agent approved it but the clerk put it on hold: not payable until released by an approval.
    record("RSC/26-27/0045", "APPROVE", "r3", date(2026, 5, 3))
    assert book.act("t1", "RSC/26-27/0045", "V001", "hold", "anita").outcome == "reason_needed"
    assert book.act("t1", "RSC/26-27/0045", "V001", "hold", "anita", "vendor asked us to wait").outcome == "moved"
    assert book.mark_paid("t1", "RSC/26-27/0045", "V001", date(2026, 5, 7), "cli",
                          RAVI_ACCOUNT).outcome == "not_approved"
    assert book.act("t1", "RSC/26-27/0045", "V001", "approve", "anita").outcome == "moved"
    assert book.mark_paid("t1", "RSC/26-27/0045", "V001", date(2026, 5, 7), "cli", RAVI_ACCOUNT).outcome == "paid"


async def test_an_override_waits_for_its_reason_and_is_shown_on_the_next_invoice(
        office: tuple[App, APPack, str]) -> None:
    ap_app, pack, tenant = office
    [card] = await say(ap_app, sample_text("abc_repeat_mismatch"))
    assert card.text.startswith("EXCEPTION")
    [asked] = await ap_app.conversation.handle(said("kavya", callback=press(card, "Approve")))
    assert "reason" in asked.text
    bank = ap_app.services.bank_of(tenant, "ap")
    assert pack.book.actions(tenant, "V002", action="approve") == []  # nothing recorded without a reason
    assert not [e for e in pack.audit.entries(bank_id=bank) if e.action == "CLERK_ACTION"]
    # Another invoice meanwhile is decided as itself, not swallowed as the reason; the clerk is reminded.
    replies = await say(ap_app, sample_text("ravi_clean"))
    assert replies[0].text.startswith("APPROVE")
    assert "still waiting for a reason" in replies[-1].text and "ABC/26-27/007" in replies[-1].text
    [done] = await say(ap_app, "Site confirmed the 40 extra bags, credit note promised")
    assert "overriding the agent's EXCEPTION" in done.text
    [override] = pack.book.actions(tenant, "V002", action="override")
    assert override.reason == "Site confirmed the 40 extra bags, credit note promised" and override.by_user
    recorded = pack.book.recorded(tenant, "V002", "ABC/26-27/007")
    assert recorded is not None and recorded.entry.status == "approved"
    clerk = [e for e in pack.audit.entries(bank_id=bank) if e.action == "CLERK_ACTION"]
    assert clerk[0].detail["reason"] == override.reason
    # The vendor's next invoice shows the earlier override and its reason.
    [next_card] = await say(ap_app, sample_text("abc_repeat_mismatch", invoice_number="ABC/26-27/019",
                                                invoice_date="2026-06-02"))
    assert "Earlier override" in next_card.text and override.reason in next_card.text


@pytest.mark.parametrize("reply", ["42", "ok", "thanks", "/vendors"])
async def test_a_reply_that_is_not_a_reason_is_not_taken(office: tuple[App, APPack, str], reply: str) -> None:
    ap_app, pack, tenant = office
    [card] = await say(ap_app, sample_text("abc_repeat_mismatch"))
    await ap_app.conversation.handle(said("kavya", callback=press(card, "Approve")))
    replies = await say(ap_app, reply)
    assert "still waiting for a reason" in replies[-1].text
    assert pack.book.actions(tenant, "V002", action="override") == []


async def test_choosing_hold_instead_ends_the_wait_and_a_stale_ask_expires(office: tuple[App, APPack, str]) -> None:
    ap_app, pack, tenant = office
    [card] = await say(ap_app, sample_text("abc_repeat_mismatch"))
    await ap_app.conversation.handle(said("kavya", callback=press(card, "Approve")))
    [held] = await ap_app.conversation.handle(said("kavya", callback=press(card, "Hold")))
    assert "Hold" in held.text
    assert pack.book.pending_reason(tenant, "kavya") is None
    [other] = await say(ap_app, sample_text("abc_repeat_mismatch", invoice_number="ABC/26-27/031",
                                            invoice_date="2026-06-12"))
    await ap_app.conversation.handle(said("kavya", callback=press(other, "Approve")))
    with pack.book.database.session() as session:  # the ask was made two hours ago
        session.execute(sa.update(PendingReasonRow).values(
            asked_at=ap_app.services.clock() - timedelta(hours=2)))
    replies = await say(ap_app, "The site engineer confirmed the extra quantity")
    assert "was not recorded" in replies[-1].text
    assert pack.book.actions(tenant, "V002", action="override") == []
    assert pack.book.pending_reason(tenant, "kavya") is None


async def test_two_clerks_in_chat_record_one_entry(office: tuple[App, APPack, str]) -> None:
    ap_app, pack, tenant = office
    replies = await asyncio.gather(say(ap_app, sample_text("ravi_clean"), "kavya"),
                                   say(ap_app, sample_text("ravi_clean"), "arjun"))
    statuses = sorted(r[0].text.split(" (")[0] for r in replies)
    assert statuses == ["APPROVE", "PAYMENT BLOCKED"]  # one invoice, one entry; the later one is told it is a copy
    [entry] = pack.book.recorded_entries(tenant)
    assert entry.agent_status == "APPROVE" and entry.decided_by in {"kavya", "arjun"}


async def test_vendors_counts_an_invoice_marked_paid(office: tuple[App, APPack, str]) -> None:
    ap_app, pack, tenant = office
    [before] = await say(ap_app, "/vendors")
    assert "V001 Ravi Steel & Components: 14 payments" in before.text
    await say(ap_app, sample_text("ravi_clean"))
    assert (await pack.pay(tenant, "RSC/26-27/0009", "V001", date(2026, 4, 30), "kavya")).outcome == "paid"
    [after] = await say(ap_app, "/vendors")
    assert "V001 Ravi Steel & Components: 15 payments" in after.text


def test_the_migration_makes_the_tables_the_models_declare_and_undoes_them(tmp_path: Path) -> None:
    from alembic import command

    from bot.store.migrate import alembic_config
    from handlers.ap.ledger_store import ActionRow, EntryRow

    database = Database(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        upgrade(database, INSTALLED.migrations(["ap"]))
        inspector = sa.inspect(database.engine)
        for model in (EntryRow, ActionRow, PendingReasonRow):
            made = {c["name"]: c["nullable"] for c in inspector.get_columns(model.__tablename__)}
            declared = {c.name: c.nullable for c in model.__table__.columns}
            assert made == declared, model.__tablename__
        [unique] = inspector.get_unique_constraints("ap_ledger_entries")
        assert unique["column_names"] == ["tenant_id", "vendor_id", "number_key"]
        command.downgrade(alembic_config(database, INSTALLED.migrations(["ap"])), "ap_0001")
        left = set(sa.inspect(database.engine).get_table_names())
        assert not left & {"ap_ledger_entries", "ap_ledger_actions", "ap_pending_reasons"}
    finally:
        database.dispose()
