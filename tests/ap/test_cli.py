"""`smriti ap decide FILE [--no-memory] [--json] [--tenant T]` and `smriti ap audit`, through the real parser."""

import argparse
import json
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.registry import User
from bot.store.people import add_person
from bot.cli.smriti import build_parser
from bot.settings import Settings
from handlers.ap import cli as ap_cli
from handlers.ap.demo import SAMPLES, load_sample
from handlers.ap.pack import APPack
from memory import bank_id
from tests.ap.documents import invoice_lines, make_pdf

pytestmark = pytest.mark.hindsight


async def only_ap(settings: Settings, body: Callable[[App], Awaitable[int]]) -> int:
    """bot.cli.smriti._with_app, but with just this pack loaded (the other packs are not under test here)."""
    app = await App.start(settings, pack_names=["ap"])
    async with app:
        return await body(app)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="smriti")
    ap_cli.register(root.add_subparsers(dest="command", required=True), only_ap)
    return root


async def run(settings: Settings, *argv: str) -> int:
    args = parser().parse_args(list(argv))
    return await args.handler(args, settings)


def test_the_smriti_parser_has_the_ap_command() -> None:
    args = build_parser().parse_args(["ap", "decide", "invoice.json", "--no-memory", "--json", "--tenant", "t1"])
    assert args.ap_action == "decide" and args.no_memory and args.json and args.tenant == "t1"


async def test_decide_json_with_and_without_memory(settings: Settings, demo: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    file = str(SAMPLES / "ravi_new_account.json")
    assert await run(settings, "ap", "decide", file, "--json", "--tenant", demo) == 0
    blocked = json.loads(capsys.readouterr().out)
    assert set(blocked) >= {"status", "confidence", "flags", "match", "memory_source", "memories",
                            "recommendation", "retained"}
    assert blocked["status"] == "PAYMENT_BLOCKED" and blocked["memory_source"] == "recalled"
    assert blocked["flags"][0]["code"] == "FIRST_BANK_CHANGE" and "evidence" in blocked["flags"][0]
    assert 1 <= len(blocked["memories"]) <= 4 and blocked["match"]["status"] == "matched"
    assert isinstance(blocked["retained"], bool)

    assert await run(settings, "ap", "decide", file, "--json", "--no-memory", "--tenant", demo) == 0
    reviewed = json.loads(capsys.readouterr().out)
    # The first-bank-change rule reads the ledger's counts: memory is not what blocks it (issue 25).
    assert reviewed["status"] == "PAYMENT_BLOCKED" and reviewed["memories"] == [] and reviewed["retained"] is False


async def test_decide_a_pdf_prints_the_card_and_audit_shows_the_steps(
        settings: Settings, demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pdf = make_pdf(tmp_path / "abc.pdf", invoice_lines(load_sample("abc_repeat_mismatch")))
    assert await run(settings, "ap", "decide", str(pdf), "--tenant", demo, "--record", "--as", "anita") == 0
    out = capsys.readouterr().out
    assert out.startswith("EXCEPTION") and "Request a corrected invoice from ABC Technologies" in out
    assert await run(settings, "ap", "audit", "--invoice", "ABC/26-27/007", "--tenant", demo) == 0
    trail = capsys.readouterr().out
    assert "MATCH_DONE" in trail and "MEMORY_RECALLED" in trail and "DECISION_MADE" in trail


async def test_a_non_invoice_is_refused_with_its_reason(settings: Settings, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    letter = make_pdf(tmp_path / "letter.pdf", ["Quotation", "Ravi Steel & Components", "MS Plate 10mm at 68,500/MT"])
    assert await run(settings, "ap", "decide", str(letter), "--json") == ap_cli.EXIT_REFUSED
    refused = json.loads(capsys.readouterr().out)
    assert refused == {"refused": True, "reason": "not_invoice",
                       "detail": "This is not an invoice (a quotation), so nothing was decided. "
                                 "Send the vendor's tax invoice."}
    assert await run(settings, "ap", "decide", str(tmp_path / "missing.json")) == 1


async def test_decide_is_a_preview_unless_recorded_then_ledger_lists_and_paid_marks(
        settings: Settings, demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    file = str(SAMPLES / "ravi_clean.json")
    for _ in range(2):  # a preview twice changes nothing: both approve
        assert await run(settings, "ap", "decide", file, "--json", "--no-memory", "--tenant", demo) == 0
        assert json.loads(capsys.readouterr().out)["status"] == "APPROVE"
    assert await run(settings, "ap", "ledger", "--tenant", demo) == 0
    assert capsys.readouterr().out.startswith(f"Nothing recorded yet for {demo}")
    assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", demo, "--as", "anita") == 1
    assert "No recorded decision" in capsys.readouterr().err

    assert await run(settings, "ap", "decide", file, "--json", "--no-memory", "--record", "--tenant", demo,
                     "--as", "anita") == 0
    recorded = json.loads(capsys.readouterr().out)
    assert recorded["status"] == "APPROVE"
    assert await run(settings, "ap", "decide", file, "--json", "--no-memory", "--tenant", demo) == 0
    again = json.loads(capsys.readouterr().out)
    # A preview of a recorded, still open invoice with nothing new says it is a copy of it, and records nothing.
    assert again["status"] == "PAYMENT_BLOCKED" and again["copy_of"] == "RSC/26-27/0009"
    assert again["preview"] and again["ledger_outcome"] is None
    assert await run(settings, "ap", "ledger", "--tenant", demo, "--json") == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert entry["invoice_number"] == "RSC/26-27/0009" and entry["status"] == "decided" == entry["state"]
    assert entry["decision_id"] == recorded["run_id"] and entry["agent_status"] == "APPROVE"

    assert await run(settings, "ap", "paid", "rsc/26-27/9", "--tenant", demo, "--on", "2026-04-30",
                     "--as", "Anita Sharma") == 0
    assert "Marked paid" in capsys.readouterr().out
    assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", demo, "--as", "anita") == 1
    assert "already marked paid" in capsys.readouterr().err
    assert await run(settings, "ap", "ledger", "--tenant", demo) == 0
    listed = capsys.readouterr().out
    assert "RSC/26-27/0009" in listed and "PAID to 50200012344821 on 2026-04-30" in listed
    assert await run(settings, "ap", "ledger", "--tenant", "someone-else") == 0
    assert "Nothing recorded yet" in capsys.readouterr().out


def test_the_smriti_parser_has_ledger_and_paid() -> None:
    args = build_parser().parse_args(["ap", "decide", "inv.json", "--record"])
    assert args.record
    args = build_parser().parse_args(["ap", "paid", "INV-9", "--tenant", "t1", "--vendor", "V001", "--on", "2026-05-01",
                                      "--as", "anita"])
    assert args.ap_action == "paid" and args.vendor == "V001" and str(args.on) == "2026-05-01"
    assert build_parser().parse_args(["ap", "ledger", "--tenant", "t1"]).ap_action == "ledger"


def test_paid_on_takes_the_date_as_the_office_writes_it() -> None:
    for written in ("04-12-2026", "4/12/2026", "2026-12-04", "04.12.2026"):
        args = build_parser().parse_args(["ap", "paid", "INV-9", "--on", written, "--as", "anita"])
        assert str(args.on) == "2026-12-04", written
    with pytest.raises(SystemExit):
        build_parser().parse_args(["ap", "paid", "INV-9", "--on", "next week", "--as", "anita"])


async def test_every_clerk_action_from_the_cli_moves_the_invoice_and_says_so(
        settings: Settings, demo: str, capsys: pytest.CaptureFixture[str]) -> None:
    """hold -> review -> reject through `smriti ap`: each prints its move in words (reject once crashed)."""
    file = str(SAMPLES / "ravi_clean.json")
    assert await run(settings, "ap", "decide", file, "--json", "--no-memory", "--record", "--tenant", demo,
                     "--as", "anita") == 0
    capsys.readouterr()
    for action, state in (("hold", "hold"), ("review", "review"), ("reject", "reject")):
        code = await run(settings, "ap", action, "RSC/26-27/0009", "--tenant", demo, "--as", "anita",
                         "--reason", "walk: goods returned")
        out = capsys.readouterr()
        assert code == 0, out.err
        assert "RSC/26-27/0009" in out.out and "Traceback" not in out.out + out.err
    assert await run(settings, "ap", "ledger", "--tenant", demo, "--json") == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert entry["state"] == "rejected"


def _refusals(pack: APPack, tenant: str, settings: Settings) -> list[str]:
    bank = bank_id(tenant, "ap", prefix=settings.bank_prefix)
    return [e.action for e in pack.audit.entries(bank_id=bank, limit=100)]


async def test_a_preview_writes_no_audit_line_not_even_a_refusal(
        settings: Settings, pack: APPack, tenant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    letter = make_pdf(tmp_path / "quote.pdf", ["Quotation", "Ravi Steel & Components", "MS Plate 10mm at 68,500/MT"])
    assert await run(settings, "ap", "decide", str(letter), "--tenant", tenant) == ap_cli.EXIT_REFUSED
    assert "not an invoice" in capsys.readouterr().err
    assert _refusals(pack, tenant, settings) == []
    assert await run(settings, "ap", "decide", str(letter), "--tenant", tenant, "--record",
                     "--as", "anita") == ap_cli.EXIT_REFUSED
    assert _refusals(pack, tenant, settings) == ["INVOICE_REFUSED"]


CREDIT_NOTES = [
    # The heading is the vendor; "Credit Note No." is the only place the document says what it is.
    "Ravi Steel & Components\nGSTIN: 36AABCR1234F1ZT\nCredit Note No: RSC/CN/26-27/004   Date: 03/05/2026\n"
    "Ref. Invoice No: {against} dated 01/04/2026\nBilled to: Smriti Demo Industries Pvt Ltd\n"
    "Sl  Description  Qty  Rate  Amount\n1  MS Angle 50x50x6 returned  1  2,880.00  2,880.00\nTotal 3,398.40\n",
    # A title line, the seller by name only (no GSTIN), the invoice named in a sentence.
    "CREDIT NOTE\nRavi Steel & Components\nNote No. RSC/CN/26-27/004  Date 03-05-2026\n"
    "This credit note is issued against Invoice No {against} for material returned.\n"
    "Item  Qty  Amount\nMS Angle returned  1  2,880.00\nTotal 3,398.40\n",
]


@pytest.mark.parametrize("written", CREDIT_NOTES)
async def test_a_credit_note_on_the_cli_is_read_as_one_previewed_then_recorded(
        settings: Settings, pack: APPack, tenant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        written: str) -> None:
    note = tmp_path / "cn.txt"
    note.write_text(written.format(against="RSC/24-25/0236"), encoding="utf-8")
    assert await run(settings, "ap", "decide", str(note), "--tenant", tenant) == 0
    said = capsys.readouterr().out
    assert "credit note RSC/CN/26-27/004 for ₹3,398.40 is against invoice RSC/24-25/0236" in said, said
    assert "Preview only" in said and "not an invoice" not in said
    assert not pack.book.actions(tenant, action="credit_note") and _refusals(pack, tenant, settings) == []
    assert await run(settings, "ap", "decide", str(note), "--tenant", tenant, "--record", "--as", "anita") == 0
    assert capsys.readouterr().out.startswith("Recorded a credit note RSC/CN/26-27/004")
    [logged] = pack.book.actions(tenant, action="credit_note")
    assert logged.invoice_number == "RSC/24-25/0236" and logged.by_user == f"{tenant}-anita"
    assert "dated 2026-05-03" in (logged.reason or "")


async def test_who_does_it_on_the_cli_is_a_person_of_the_ap_team_recorded_by_id(
        settings: Settings, pack: APPack, tenant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`--as` names a person of the tenant by id or name in any spelling; a stranger, a person of another pack or a
    name two people share records nothing and says so in words; the ledger keeps the person's id."""
    for person_id, name, role, of in ((f"{tenant}-kiran", "Kiran Rao", "clerk", "ap"),
                                      (f"{tenant}-kiranm", "Kiran Mehta", "admin", "ap"),
                                      (f"{tenant}-suresh", "Suresh Babu", "officer", "agri")):
        add_person(pack.services.database, User(user_id=person_id, name=name, role=role, pack=of, tenant=tenant))
    file = str(SAMPLES / "ravi_clean.json")
    for who, says in (("ghost99", "not a person of"), ("Suresh Babu", "not on the AP team"),
                      ("Kiran", "fits more than one person"), ("", "Say who does it")):
        assert await run(settings, "ap", "decide", file, "--no-memory", "--record", "--tenant", tenant,
                         *(["--as", who] if who else [])) == ap_cli.EXIT_REFUSED
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err, (who, err)
    assert pack.book.recorded_entries(tenant) == []
    assert await run(settings, "ap", "decide", file, "--no-memory", "--record", "--tenant", tenant,
                     "--as", "MS. KIRAN RAO") == 0
    capsys.readouterr()
    for who in ("ghost99", "Suresh Babu", "Kiran"):
        assert await run(settings, "ap", "hold", "RSC/26-27/0009", "--tenant", tenant, "--as", who,
                         "--reason", "wait") == 1
        assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", tenant, "--as", who) == 1
    [record] = pack.book.recorded_entries(tenant)
    assert record.state == "decided" and record.decided_by == f"{tenant}-kiran"
    assert await run(settings, "ap", "hold", "RSC/26-27/0009", "--tenant", tenant, "--as", "kiran mehta",
                     "--reason", "wait for stores") == 0
    assert "by " + f"{tenant}-kiranm" in capsys.readouterr().out


async def test_a_payment_dated_after_today_is_refused_in_words(
        settings: Settings, pack: APPack, tenant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A payment is marked on the day it was made: a date still to come (a typo, or a payment only planned) is
    refused in words and the invoice stays unpaid, so 'what did we pay this month' never counts it."""
    file = str(SAMPLES / "ravi_clean.json")
    assert await run(settings, "ap", "decide", file, "--no-memory", "--record", "--tenant", tenant,
                     "--as", "anita") == 0
    capsys.readouterr()
    today = pack.services.clock().date()
    for ahead in (1, 40):
        later = (today + timedelta(days=ahead)).strftime("%d-%m-%Y")
        assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", tenant, "--on", later,
                         "--as", "anita") == 1
        err = capsys.readouterr().err
        assert f"the paid date {later} is after today" in err and "Nothing changed" in err, err
        [record] = pack.book.recorded_entries(tenant)
        assert record.state == "decided" and record.entry.paid_on is None
    assert not pack.book.actions(tenant, action="paid")
    assert await run(settings, "ap", "paid", "RSC/26-27/0009", "--tenant", tenant, "--on",
                     today.strftime("%d-%m-%Y"), "--as", "anita") == 0
    [record] = pack.book.recorded_entries(tenant)
    assert record.state == "paid" and record.entry.paid_on == today
