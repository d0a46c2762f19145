"""Forget and export on the keyless tier: register rows, cards, queued items, follow-ups and people about one
farmer, case, vendor or person go; the same records about anyone else stay (each test fails on over-deletion);
a preview writes nothing; every request is audited in the database; in chat only an admin may ask.

Registers here are typed for these tests (Mominpet farmers, a Nampally magistrate's cases, Kukatpally vendors),
never the seeds, and imported through the customers' CSV import path.
"""

import json
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.store.reply_outbox import outgoing
from bot.store.people import PersonRow, import_people
from bot.services.registers.importer import import_file
from bot.core.registry import Registry, User
from bot.core.scheduler import FollowUp
from bot.settings import Settings
from bot.store.state import CardRow
from bot.store.base import Base
from bot.store.subject_audit import SubjectAudit, import_legacy_audit
from bot.cli.subjects import export, forget
from handlers.agri.registers import KINDS as AGRI_KINDS
from handlers.ap.ledger_store import DecisionBook
from handlers.ap.lifecycle import DecisionMemo
from handlers.ap.ledgerview import LedgerEntry
from handlers.ap.registers import KINDS as AP_KINDS
from handlers.legal.registers import KINDS as LEGAL_KINDS
from memory.subjects import Subject

pytestmark = pytest.mark.own_registers

TENANT = "kshetra"
USERS = [
    User(user_id="pavani", name="Pavani", role="officer", pack="agri", tenant=TENANT, officer_id="K07",
         territories=["mominpet"], telegram_ids=[880011]),
    User(user_id="harsha", name="Harsha", role="officer", pack="agri", tenant=TENANT, officer_id="K08",
         territories=["mominpet"], telegram_ids=[880012]),
    User(user_id="devika", name="Devika", role="admin", pack="agri", tenant=TENANT, telegram_ids=[880013]),
    User(user_id="suresh", name="Suresh", role="lawyer", pack="legal", tenant=TENANT),
    User(user_id="anil", name="Anil", role="clerk", pack="ap", tenant=TENANT),
]
CSV = {
    ("agri", "villages"): "Village ID,Village,Mandal\nmominpet,Mominpet,Mominpet\n",
    ("agri", "farmers"): ("Farmer ID,Farmer Name,Village,Crops,Acres,Mobile\n"
                          "MP-11,Yadagiri Rao,Mominpet,chilli,2.5,9000011111\n"
                          "MP-12,Narsimha Chary,Mominpet,cotton,4,9000022222\n"
                          "MP-13,Yadagiri,Mominpet,paddy,1,9000033333\n"
                          "MP-14,Narsimha Goud,Mominpet,maize,3,9000044444\n"),
    ("legal", "cases"): ("Case ID,Case Number,Title,Also Called,Court\n"
                         "CC 4417/2025,C.C. 4417/2025,Prasanthi Textiles v. Govardhan,Prasanthi,XII ACMM Nampally\n"
                         "OS 902/2023,O.S. 902/2023,Bhavani Rice Mill v. Sarojini,Bhavani,II JCJ Ranga Reddy\n"),
    ("ap", "vendors"): ("Vendor ID,Vendor Name,GSTIN,Bank Account Number,IFSC Code,Contact Person,Contact Phone\n"
                        "KP-21,Sri Venkateswara Packaging,36AAKFS4821M1Z3,50200011112222,HDFC0001234,Ramana,9848011111\n"
                        "KP-22,Lakshmi Polymers,36AACFL7719Q1Z8,31120033334444,SBIN0005678,Kavitha,9848022222\n"),
    ("ap", "purchase-orders"): ("PO Number,Vendor ID,PO Date,Line,SKU,Item,Quantity,Unit,Rate\n"
                                "PO/KP/301,KP-21,2026-06-02,1,BX-40,Corrugated box 40x30,500,nos,18.50\n"
                                "PO/KP/302,KP-22,2026-06-05,1,PP-9,PP granules,200,kg,96\n"),
    ("ap", "goods-receipts"): ("GRN Number,PO Number,Received On,PO Line,Quantity Received\n"
                               "GRN-7001,PO/KP/301,2026-06-09,1,500\nGRN-7002,PO/KP/302,2026-06-11,1,200\n"),
    ("ap", "payments"): ("Invoice Number,Vendor ID,Invoice Date,PO Number,Total,Outcome,Paid On,Paid to Account\n"
                         "SVP/118,KP-21,2026-06-10,PO/KP/301,10915,paid,2026-06-25,50200011112222\n"
                         "LP-0456,KP-22,2026-06-12,PO/KP/302,22656,paid,2026-06-28,31120033334444\n"),
}
KINDS = {"agri": AGRI_KINDS, "legal": LEGAL_KINDS, "ap": AP_KINDS}


@pytest.fixture
async def app(settings: Settings, tmp_path: Path) -> AsyncIterator[App]:
    running = await App.start(settings, registry=Registry(USERS))
    import_people(running.services.database, USERS)
    for n, ((pack, kind), text) in enumerate(CSV.items()):
        path = tmp_path / f"{n}-{kind}.csv"
        path.write_text(text, encoding="utf-8")
        report = import_file(running.services.database, KINDS[pack], kind, TENANT, path, apply=True)
        assert not report.rejected, report.render()
    yield running
    await running.aclose()


def say(user: str, text: str | None = None, callback: str | None = None) -> Incoming:
    telegram = next(u.telegram_ids[0] for u in USERS if u.user_id == user)
    return Incoming(transport="telegram", sender=str(telegram), delivery_id=f"{user}-{text}-{callback}-{datetime.now()}",
                    text=text, callback=callback)


def leave_traces(app: App, user: str, pack: str, farmer_id: str, words: str, day: int) -> None:
    """What a person's work leaves about one farmer: a card, a queued note and a follow-up."""
    services = app.services
    services.state.open_card(pack, user, "visit", {"visit": {"id": f"v{day}", "farmer_id": farmer_id},
                                                   "transcript": words})
    services.intake.record(Incoming(transport="cli", sender=user, delivery_id=f"{user}-{day}", text=words), user)
    services.replies.outbox.keep(outgoing(f"intake:{user}-{day}", user, "telegram", "1", [Reply(text=f"Noted: {words}")]),
                                 owner="test", lease=timedelta(minutes=1))
    assert services.scheduler is not None
    services.scheduler.schedule(FollowUp(
        followup_id=f"agri-v{day}", pack=pack, user_id=user,
        due_at=datetime(2026, 12, 20, 4, 0, tzinfo=UTC) + timedelta(days=day),
        subject={"visit": json.dumps({"id": f"v{day}", "farmer_id": farmer_id})}))


def table_counts(app: App) -> dict[str, int]:
    with app.services.database.session() as s:
        return {name: s.scalar(select(func.count()).select_from(table)) or 0
                for name, table in Base.metadata.tables.items() if name not in ("subject_audit", "apscheduler_jobs")}


def farmers(app: App) -> set[str]:
    return set(app.packs["agri"].book_for(TENANT).farmers)  # type: ignore[attr-defined]


def no(_: str) -> bool:
    return False


def yes(_: str) -> bool:
    return True


async def test_forget_a_farmer_takes_only_his_records(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    leave_traces(app, "pavani", "agri", "MP-11", "Yadagiri Rao chilli thrips, advised spinosad", 1)
    leave_traces(app, "harsha", "agri", "MP-12", "Narsimha Chary cotton pink bollworm", 2)
    # The third farmer's name sits inside the first's: his note names only himself.
    leave_traces(app, "harsha", "agri", "MP-13", "Yadagiri paddy, blast on the leaves", 3)
    app.services.intake.record(Incoming(transport="cli", sender="pavani", delivery_id="loose",
                                        text="met yadagiri rao at the shandy"), "pavani")
    before = table_counts(app)
    subject = Subject(tenant=TENANT, kind="farmer", subject_id="mp-11")

    assert await forget(app, subject, no, by="test") == 1
    shown = capsys.readouterr().out
    assert "agri registers: 1 farmers row" in shown and "cards: 1 open card" in shown
    assert "queued items: 2" in shown and "follow-ups: 1 pending follow-up" in shown and "(s)" not in shown
    assert table_counts(app) == before  # a declined preview writes nothing

    assert await forget(app, subject, yes, by="test") == 0
    assert farmers(app) == {"MP-12", "MP-13", "MP-14"}
    left = [c.payload["visit"]["farmer_id"] for c in app.services.state.open_cards()]
    assert sorted(left) == ["MP-12", "MP-13"]
    texts = [i.incoming.text for i in app.services.intake.items_of(["pavani", "harsha"])]
    assert sorted(t or "" for t in texts) == ["Narsimha Chary cotton pink bollworm", "Yadagiri paddy, blast on the leaves"]
    assert app.services.scheduler is not None
    assert sorted(f.followup_id for f in app.services.scheduler.pending()) == ["agri-v2", "agri-v3"]
    assert "agri-v1" not in app.services.scheduler.job_ids()
    replies = sorted(r.reply.text for r in app.services.replies.outbox.listing())
    assert replies == ["Noted: Narsimha Chary cotton pink bollworm", "Noted: Yadagiri paddy, blast on the leaves"]
    audit = [(e.action, e.outcome, e.by, e.subject_id) for e in SubjectAudit(app.services.database).entries(TENANT)]
    assert audit == [("forget", "declined", "test", "MP-11"), ("forget", "done", "test", "MP-11")]


async def test_forget_the_shorter_name_leaves_the_longer_one(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    leave_traces(app, "pavani", "agri", "MP-11", "Yadagiri Rao chilli thrips", 1)
    leave_traces(app, "harsha", "agri", "MP-13", "Yadagiri paddy blast", 3)
    # A name is accepted: "Yadagiri" is the farmer of that whole name (MP-13), never Yadagiri Rao.
    assert await forget(app, Subject(tenant=TENANT, kind="farmer", subject_id="Yadagiri"), yes, by="t") == 0
    assert farmers(app) == {"MP-11", "MP-12", "MP-14"}
    assert "also fits MP-11" in capsys.readouterr().err
    assert [c.payload["visit"]["farmer_id"] for c in app.services.state.open_cards()] == ["MP-11"]
    assert [i.incoming.text for i in app.services.intake.items_of(["pavani", "harsha"])] == ["Yadagiri Rao chilli thrips"]


async def test_forget_by_name_as_officers_say_it_shows_the_match_and_reaches_first_name_notes(
        app: App, capsys: pytest.CaptureFixture[str]) -> None:
    leave_traces(app, "harsha", "agri", "MP-12", "Narsimha Chary cotton pink bollworm", 2)
    services = app.services
    services.intake.record(Incoming(transport="cli", sender="harsha", delivery_id="by-surname",
                                    text="Chary garu patti lo pink bollworm malli vachindi"), "harsha")
    services.intake.record(Incoming(transport="cli", sender="harsha", delivery_id="other",
                                    text="Narsimha garu maize fall armyworm"), "harsha")
    services.replies.outbox.keep(outgoing("intake:harsha-by-surname", "harsha", "telegram", "1",
                                          [Reply(text="Noted: Chary garu cotton")]),
                                 owner="test", lease=timedelta(minutes=1))
    # Nobody by that name, or a name two farmers fit: nothing is done, and the command says why.
    assert await forget(app, Subject(tenant=TENANT, kind="farmer", subject_id="Bhoomaiah Reddy"), yes, by="t") == 2
    assert await forget(app, Subject(tenant=TENANT, kind="farmer", subject_id="Narsimha"), yes, by="t") == 2
    shown = capsys.readouterr().err
    assert "No farmer" in shown and "MP-12" in shown and "MP-14" in shown
    assert farmers(app) == {"MP-11", "MP-12", "MP-13", "MP-14"}
    # Surname first, with an honorific: the one farmer, shown before the erase.
    assert await forget(app, Subject(tenant=TENANT, kind="farmer", subject_id="Chary Narsimha garu"), yes,
                        by="t") == 0
    assert "MP-12" in capsys.readouterr().err
    assert farmers(app) == {"MP-11", "MP-13", "MP-14"}
    texts = [i.incoming.text for i in services.intake.items_of(["harsha"])]
    assert texts == ["Narsimha garu maize fall armyworm"]  # "Narsimha" is two farmers' name: no evidence
    assert not [r for r in services.replies.outbox.listing() if "Chary" in r.reply.text]


async def test_forget_a_case_by_its_number(app: App) -> None:
    app.services.state.open_card("legal", "suresh", "hearing", {"case_id": "cc-4417-2025", "note": "adjourned"})
    app.services.state.open_card("legal", "suresh", "hearing", {"case_id": "os-902-2023", "note": "evidence"})
    app.services.intake.record(Incoming(transport="cli", sender="suresh", delivery_id="l1",
                                        text="Prasanthi: cross of PW2 done, next 14/1"), "suresh")
    app.services.intake.record(Incoming(transport="cli", sender="suresh", delivery_id="l2",
                                        text="Bhavani matter: chief affidavit filed"), "suresh")
    assert await forget(app, Subject(tenant=TENANT, kind="case", subject_id="C.C. 4417/2025"), yes, by="t") == 0
    cases = app.packs["legal"].register_for(TENANT).cases  # type: ignore[attr-defined]
    assert [c.case_id for c in (cases.values() if isinstance(cases, dict) else cases)] == ["os-902-2023"]
    assert [c.payload["case_id"] for c in app.services.state.open_cards()] == ["os-902-2023"]
    assert [i.incoming.text for i in app.services.intake.items_of(["suresh"])] == ["Bhavani matter: chief affidavit filed"]


async def test_forget_a_vendor_keeps_the_books_and_says_why(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    book = DecisionBook(app.services.database)
    for vendor, number in (("KP-21", "SVP/131"), ("KP-22", "LP-0470")):
        book.record_decision(TENANT, LedgerEntry(vendor_id=vendor, invoice_number=number, number_key=number.lower(),
                                                 invoice_date=date(2026, 7, 1), total=1000, status="decided",  # type: ignore[arg-type]
                                                 decision_id=f"d-{vendor}"), "APPROVE", "anil",
                             DecisionMemo(vendor_name=vendor, confidence=0.9), number, None)
        book.log(TENANT, f"d-{vendor}", vendor, number, "decision", "APPROVE", "anil")
    subject = Subject(tenant=TENANT, kind="vendor", subject_id="KP-21")
    exported = await export(app, subject, by="t")
    records = exported["stores"]["ap records"]
    assert [e["invoice_number"] for e in records["ledger entries"]] == ["SVP/131"]
    assert "Companies Act" in records["kept"]
    registers = exported["stores"]["ap registers"]
    assert {k: len(v) for k, v in registers.items()} == {"vendors": 1, "purchase-orders": 1, "goods-receipts": 1,
                                                         "payments": 1}
    assert registers["vendors"][0]["data"]["verified_contact"]["name"] == "Ramana"

    assert await forget(app, subject, yes, by="t") == 0
    shown = capsys.readouterr().out
    assert "Kept (exported, not erased)" in shown and "CGST" in shown
    ledger = app.packs["ap"].ledger_for(TENANT)  # type: ignore[attr-defined]
    assert ledger.vendor("KP-21") is None and ledger.vendor("KP-22") is not None
    assert [e.vendor_id for e in book.entries(TENANT)] == ["KP-21", "KP-22"]  # the books are kept
    left = await export(app, Subject(tenant=TENANT, kind="vendor", subject_id="KP-22"), by="t")
    assert {k: len(v) for k, v in left["stores"]["ap registers"].items()} == {
        "vendors": 1, "purchase-orders": 1, "goods-receipts": 1, "payments": 1}


async def test_forget_a_person(app: App) -> None:
    leave_traces(app, "pavani", "agri", "MP-11", "Yadagiri Rao chilli", 1)
    leave_traces(app, "harsha", "agri", "MP-12", "Narsimha Chary cotton", 2)
    app.services.state.set_pref("pavani", "lang", "te")
    app.services.state.inbox_put("telegram", "u1", json.dumps({"message": {"from": {"id": 880011}, "text": "hi"}}))
    app.services.state.inbox_put("telegram", "u2", json.dumps({"message": {"from": {"id": 880012}, "text": "hi"}}))
    subject = Subject(tenant=TENANT, kind="person", subject_id="pavani")
    exported = await export(app, subject, by="t")
    assert exported["stores"]["people"]["person"][0]["name"] == "Pavani"
    assert len(exported["stores"]["queued items"]["items"]) == 1

    assert await forget(app, subject, yes, by="t") == 0
    with app.services.database.session() as s:
        assert sorted(s.scalars(select(PersonRow.person_id).where(PersonRow.tenant_id == TENANT))) == [
            "anil", "devika", "harsha", "suresh"]
        assert {c.user_id for c in s.scalars(select(CardRow))} == {"harsha"}
    assert app.services.state.pref("pavani", "lang") is None
    assert [i.user_id for i in app.services.intake.items_of(["pavani", "harsha"])] == ["harsha"]
    assert app.services.scheduler is not None
    assert [f.user_id for f in app.services.scheduler.pending()] == ["harsha"]
    assert [key for key, _ in app.services.state.inbox_pending("telegram")] == ["u2"]


async def test_a_person_of_another_tenant_is_not_reached(app: App) -> None:
    leave_traces(app, "pavani", "agri", "MP-11", "Yadagiri Rao chilli", 1)
    assert await forget(app, Subject(tenant="demo", kind="person", subject_id="pavani"), yes, by="t") == 0
    assert len(app.services.intake.items_of(["pavani"])) == 1


def test_old_jsonl_audit_moves_into_the_database(app: App) -> None:
    folder = app.settings.state_dir / "audit"
    folder.mkdir(parents=True, exist_ok=True)
    line = {"at": "2026-11-02T10:00:00+00:00", "action": "export", "by": "ops", "tenant": TENANT, "kind": "farmer",
            "subject_id": "MP-12", "held": {"memory:document": 2}, "outcome": "done"}
    (folder / "subjects.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert import_legacy_audit(app.services.database, app.settings.state_dir) == 1
    assert not (folder / "subjects.jsonl").exists()
    [entry] = SubjectAudit(app.services.database).entries(TENANT)
    assert (entry.by, entry.subject_id, entry.held) == ("ops", "MP-12", {"memory:document": 2})
    assert import_legacy_audit(app.services.database, app.settings.state_dir) == 0


def button(replies: list[Reply], label: str) -> str:
    return next(b.data for r in replies for b in r.flat_buttons() if b.label == label)


async def test_chat_forget_for_admins_only(app: App) -> None:
    leave_traces(app, "pavani", "agri", "MP-11", "Yadagiri Rao chilli thrips", 1)
    leave_traces(app, "harsha", "agri", "MP-12", "Narsimha Chary cotton", 2)
    conversation = app.conversation

    refused = await conversation.handle(say("pavani", "/forget farmer MP-11"))
    assert "Only an admin" in refused[0].text
    whole = await conversation.handle(say("devika", "/forget farmer yadagiri"))
    assert whole[0].text.startswith("Forget farmer MP-13?")  # a whole name wins over one containing it
    assert "also fits MP-11" in whole[0].text  # ... and the other farmer the name fits is shown, not chosen
    await conversation.handle(say("devika", callback=button(whole, "Cancel")))
    ambiguous = await conversation.handle(say("devika", "/forget farmer narsimha"))
    assert "could be any of these" in ambiguous[0].text and "MP-12" in ambiguous[0].text and "MP-14" in ambiguous[0].text
    unknown = await conversation.handle(say("devika", "/forget farmer Bhoomaiah"))
    assert "No farmer" in unknown[0].text
    before = table_counts(app)
    preview = await conversation.handle(say("devika", "/forget farmer Yadagiri Rao"))
    assert preview[0].text.startswith("Forget farmer MP-11?")
    assert "- agri registers: 1 farmers row" in preview[0].text and "- follow-ups: 1 pending follow-up" in preview[0].text
    after_preview = table_counts(app)
    # The preview writes only the request itself (and the command's own intake record and its reply).
    changed = {k for k, v in after_preview.items() if v != before[k]}
    assert changed <= {"cards", "intake_items", "intake_deliveries", "reply_outbox"}
    assert after_preview["cards"] == before["cards"] + 1
    assert farmers(app) == {"MP-11", "MP-12", "MP-13", "MP-14"}

    stolen = await conversation.handle(say("pavani", callback=button(preview, "Erase")))
    assert "Only the admin who asked" in stolen[0].text
    done = await conversation.handle(say("devika", callback=button(preview, "Erase")))
    assert "Erased" in done[0].text
    again = await conversation.handle(say("devika", callback=button(preview, "Erase")))
    assert "no longer open" in again[0].text
    assert farmers(app) == {"MP-12", "MP-13", "MP-14"}
    assert [c.payload["visit"]["farmer_id"] for c in app.services.state.open_cards()] == ["MP-12"]

    cancelled = await conversation.handle(say("devika", "/forget farmer MP-12"))
    assert "Cancelled" in (await conversation.handle(say("devika", callback=button(cancelled, "Cancel"))))[0].text
    assert farmers(app) == {"MP-12", "MP-13", "MP-14"}
    outcomes = [(e.action, e.outcome, e.by, e.via) for e in SubjectAudit(app.services.database).entries(TENANT)]
    assert outcomes == [("forget", "declined", "devika", "telegram"), ("forget", "done", "devika", "telegram"),
                        ("forget", "declined", "devika", "telegram")]


async def test_chat_export_sends_json(app: App) -> None:
    leave_traces(app, "pavani", "agri", "MP-12", "Narsimha Chary cotton pink bollworm", 2)
    assert "Only an admin" in (await app.conversation.handle(say("harsha", "/export farmer MP-12")))[0].text
    replies = await app.conversation.handle(say("devika", "/export farmer Narsimha Chary"))
    [sent] = replies  # one message with the export as a file, not JSON text in parts
    assert sent.document is not None and sent.document.suffix == ".json" and "{" not in sent.text
    exported: dict[str, Any] = json.loads(sent.document.read_text(encoding="utf-8"))
    assert exported["subject"]["subject_id"] == "MP-12"
    assert exported["stores"]["agri registers"]["farmers"][0]["data"]["phone"] == "9000022222"
    assert exported["stores"]["cards"]["cards"][0]["payload"]["transcript"].startswith("Narsimha")
    assert [e.action for e in SubjectAudit(app.services.database).entries(TENANT)] == ["export"]


async def test_a_reimport_after_a_forget_says_who_erased_whom_and_adds_back_only_when_asked(
        app: App, tmp_path: Path) -> None:
    database = app.services.database
    assert await forget(app, Subject(tenant=TENANT, kind="farmer", subject_id="mp-11"), yes, by="devika") == 0
    assert await forget(app, Subject(tenant=TENANT, kind="case", subject_id="C.C. 4417/2025"), yes, by="suresh") == 0
    for n, ((pack, kind), text) in enumerate(CSV.items()):
        if kind not in ("farmers", "cases"):
            continue
        path = tmp_path / f"again-{n}-{kind}.csv"
        path.write_text(text, encoding="utf-8")
        dry = import_file(database, KINDS[pack], kind, TENANT, path)
        erased = "MP-11" if kind == "farmers" else "CC 4417/2025"
        [line] = dry.forgotten
        assert line.startswith(f"{erased} was erased by a forget on ") and line.endswith(
            f"by {'devika' if kind == 'farmers' else 'suresh'}: left out"), line
        assert erased not in dry.added and "--restore-forgotten" in dry.render()
        applied = import_file(database, KINDS[pack], kind, TENANT, path, apply=True)
        assert applied.added == [] and applied.forgotten == dry.forgotten
        restored = import_file(database, KINDS[pack], kind, TENANT, path, apply=True, restore_forgotten=True)
        assert restored.added == [erased] and restored.forgotten[0].endswith("added back")
        again = import_file(database, KINDS[pack], kind, TENANT, path)
        assert again.forgotten == [] and again.added == [], "once back, it is an ordinary row"
    assert "MP-11" in farmers(app)


async def test_help_shows_forget_and_export_to_admins_only(app: App) -> None:
    [admin] = await app.conversation.handle(say("devika", "/help"))
    assert "/forget" in admin.text and "/export" in admin.text
    [officer] = await app.conversation.handle(say("pavani", "/help"))
    assert "/forget" not in officer.text and "/export" not in officer.text


async def test_chat_exports_do_not_pile_up_past_their_retention(app: App) -> None:
    from datetime import timedelta
    import os

    from bot.core.subject_chat import EXPORT_RETENTION

    leave_traces(app, "pavani", "agri", "MP-12", "Narsimha Chary cotton pink bollworm", 2)
    [first] = await app.conversation.handle(say("devika", "/export farmer MP-12"))
    [second] = await app.conversation.handle(say("devika", "/export farmer MP-12"))
    assert first.document is not None and second.document is not None
    assert first.document.exists() and second.document.exists()  # both within the retention
    old = (app.services.clock() - EXPORT_RETENTION - timedelta(minutes=1)).timestamp()
    os.utime(first.document, (old, old))
    [third] = await app.conversation.handle(say("devika", "/export farmer MP-12"))
    assert third.document is not None and third.document.exists() and second.document.exists()
    assert not first.document.exists()  # the file past its retention is gone
    assert sorted(p.name for p in third.document.parent.iterdir()) == sorted(
        [second.document.name, third.document.name])
