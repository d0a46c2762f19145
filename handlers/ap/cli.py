"""`smriti ap ...`: decide an invoice file from the command line, or read the audit trail.

    smriti ap decide FILE [--record] [--as NAME] [--no-memory] [--json] [--tenant T] [--lang en|te]
    smriti ap audit [--invoice NUMBER] [--tenant T]
    smriti ap ledger [--tenant T] [--json]
    smriti ap approve|hold|review|reject|release INVOICE --as NAME [--reason WHY] [--vendor V] [--tenant T]
    smriti ap paid INVOICE [--vendor V] [--tenant T] [--on YYYY-MM-DD] [--account DIGITS] [--as NAME]

`decide` is a pure preview unless `--record` is given (a preview writes nothing: ledger, memory or audit);
chat decisions are always recorded. approve/hold/review/reject move a recorded invoice by a named person
(every override of the agent, rejecting, and lifting another person's hold need --reason; `release` sends a
held invoice to review; approving over a bank-account block takes two
people: the first asks, a second approves). `paid` marks an approved invoice paid to the
account both people approved over a bank-account block, else to the account on the vendor master (--account,
typed in full, must be one of those two); it then counts in the vendor's payment history.
"""

import argparse
import json
import mimetypes
import sys
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.services.i18n import LANGUAGES, text
from bot.settings import Settings
from memory import MemoryLayerError

from handlers.ap.lifecycle import OPEN, RecordedEntry
from handlers.ap.money import format_inr
from handlers.ap.people import PersonFound, refusal_values

if TYPE_CHECKING:
    from bot.core.app import App
    from handlers.ap.ledger_store import RecordedAction
    from handlers.ap.pack import APPack

WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]

EXIT_REFUSED = 3


def _pack(app: "App") -> "APPack":
    from handlers.ap.pack import APPack

    pack = app.packs.get("ap")
    if not isinstance(pack, APPack):
        raise RuntimeError("the ap pack is not installed")
    return pack


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp) -> None:
    """Add the `ap` command and its actions to the smriti command line."""
    ap = subparsers.add_parser("ap", help="accounts payable: decide invoices, read the audit trail")
    actions = ap.add_subparsers(dest="ap_action", required=True)

    decide = actions.add_parser("decide", help="decide one invoice (JSON, PDF with text, photo, or a text file)")
    decide.add_argument("file", type=Path)
    decide.add_argument("--no-memory", action="store_true", help="decide without recall or retain, to compare")
    decide.add_argument("--record", action="store_true",
                        help="record the decision in the tenant ledger (without it, a preview that records nothing)")
    decide.add_argument("--json", action="store_true", help="print the decision as JSON")
    decide.add_argument("--tenant", default=None)
    decide.add_argument("--lang", choices=LANGUAGES, default="en")
    decide.add_argument("--as", dest="by", default=None,
                        help="who records it (with --record): a person of the tenant, by id or name")
    decide.set_defaults(handler=lambda args, settings: _decide(args, settings, with_app))

    audit = actions.add_parser("audit", help="show the audit trail, optionally for one invoice")
    audit.add_argument("--invoice", default=None)
    audit.add_argument("--tenant", default=None)
    audit.add_argument("--limit", type=int, default=50)
    audit.set_defaults(handler=lambda args, settings: _audit(args, settings, with_app))

    ledger = actions.add_parser("ledger", help="list the invoices decided and paid for a tenant")
    ledger.add_argument("--tenant", default=None)
    ledger.add_argument("--json", action="store_true")
    ledger.set_defaults(handler=lambda args, settings: _ledger(args, settings, with_app))

    paid = actions.add_parser("paid", help="mark an approved invoice paid (it then counts in the vendor's history)")
    paid.add_argument("invoice")
    paid.add_argument("--vendor", default=None, help="the vendor id, when two vendors used the same number")
    paid.add_argument("--tenant", default=None)
    paid.add_argument("--on", type=_day, default=None,
                      help="the payment date as the office writes it (04-12-2026, 2026-12-04; default: today)")
    paid.add_argument("--account", default=None,
                      help="pay to this account, typed in full: the one on file, or the one the invoice asked for "
                           "once two people approved it over the bank-account block")
    paid.add_argument("--as", dest="by", required=True,
                      help="who marks it paid: a person of the tenant's AP team, by id or name")
    paid.set_defaults(handler=lambda args, settings: _paid(args, settings, with_app))

    for action, help_text in (("approve", "approve a recorded invoice (over the agent: give --reason; over a "
                                          "bank-account block a second person approves after the first)"),
                              ("hold", "put a recorded invoice on hold (over the agent's APPROVE or REVIEW: "
                                       "give --reason)"),
                              ("review", "send a recorded invoice to review (over the agent: give --reason)"),
                              ("reject", "reject a recorded invoice (give --reason)"),
                              ("release", "release a held invoice to review (another person's hold: give "
                                          "--reason)")):
        move = actions.add_parser(action, help=help_text)
        move.add_argument("invoice")
        move.add_argument("--as", dest="by", required=True,
                          help="who does it: a person of the tenant's AP team, by id or name")
        move.add_argument("--reason", default=None)
        move.add_argument("--vendor", default=None)
        move.add_argument("--tenant", default=None)
        move.set_defaults(handler=lambda args, settings, action=action: _act(args, settings, with_app, action))


def _day(written: str) -> date:
    """A date as the registers take it (Indian day-first forms or ISO); argparse shows the error in words."""
    from bot.services.registers.cells import parse_date

    try:
        return parse_date(written)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


async def _decide(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    from handlers.ap import intake
    from handlers.ap import cards as card

    path: Path = args.file.expanduser()
    if not path.is_file():
        print(text(args.lang, "ap.cli_no_file", path=str(path)), file=sys.stderr)
        return 1
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        pack = _pack(app)
        if args.record:  # a recorded decision is by a person of the tenant, kept by their id
            who = pack.person(tenant, args.by or "")
            if who.person is None or who.problem is not None:
                print(_who_refused(who, args.by or "", tenant), file=sys.stderr)
                return EXIT_REFUSED
            args.by = who.person.user_id
        args.by = args.by or "preview"  # a preview records no one
        result = await intake.from_file(path, mimetypes.guess_type(path.name)[0], app.services.reader,
                                        pack.ledger_for(tenant).data.buyer, app.services.chat)
        if result.note is not None:
            # A credit or debit note is recorded against its invoice (with --record), never refused as a non-bill.
            found, said = pack.take_note(tenant, result.note, args.by, args.lang, record=args.record)
            if args.json:
                _print_json({"note": result.note.model_dump(mode="json"), "against_found": found,
                             "recorded": found and args.record, "detail": said})
            else:
                print(said, file=sys.stdout if found else sys.stderr)
            return 0 if found else EXIT_REFUSED
        if result.invoice is None or result.refusal is not None:
            refusal = result.refusal or intake.Refusal(reason="unreadable", values={"detail": "-"})
            if args.record:  # a preview writes nothing, not even the refusal
                pack.audit.record("-", app.services.bank_of(tenant, pack.name), "INVOICE_REFUSED",
                                  reason=refusal.reason, **refusal.values)
            if args.json:
                _print_json({"refused": True, "reason": refusal.reason, "detail": card.render_refusal(args.lang, refusal)})
            else:
                print(card.render_refusal(args.lang, refusal), file=sys.stderr)
            return EXIT_REFUSED
        if not args.no_memory:
            bank = app.services.bank_of(tenant, pack.name)
            try:
                await app.services.memory.ensure_bank(pack.bank_profile(bank))
            except MemoryLayerError:
                pass  # the run itself reports memory_error; deciding must not depend on memory being up
        report = await pack.decide(result.invoice, tenant, use_memory=not args.no_memory, user_id=args.by,
                                   lang=args.lang, record=args.record)
        if args.json:
            _print_json(report.model_dump(mode="json"))
        else:
            print(card.render_report(args.lang, report))
        return 0

    return await with_app(settings, body)


async def _audit(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        pack = _pack(app)
        bank = app.services.bank_of(tenant, pack.name)
        entries = pack.audit.entries(bank_id=bank, invoice_number=args.invoice, limit=args.limit)
        if not entries:
            print(text("en", "ap.audit_empty"))
            return 0
        for entry in entries:
            detail = json.dumps(entry.detail, ensure_ascii=False, default=str)
            print(f"{entry.at:%Y-%m-%d %H:%M:%S} {entry.run_id} {entry.invoice_number or '-'} {entry.action} {detail}")
        return 0

    return await with_app(settings, body)


async def _ledger(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        from handlers.ap.ledger_store import owed  # the store (SQLAlchemy) loads only when the ledger is read

        pack = _pack(app)
        recorded = pack.book.recorded_entries(tenant)
        ledger = pack.ledger_for(tenant)

        def written(vendor_id: str) -> str:  # the code as the vendor register writes it (SUP/0012)
            found = ledger.vendor(vendor_id)
            return found.written_id if found else vendor_id

        def notes(r: RecordedEntry) -> list["RecordedAction"]:
            return pack.book.notes_on(tenant, r.entry.vendor_id, r.entry.invoice_number)

        if args.json:
            _print_json([{**r.entry.model_dump(mode="json"), "vendor_code": written(r.entry.vendor_id), "state": r.state, "agent_status": r.agent_status,
                          "notes": [{"kind": a.action, "amount": a.amount, "said": a.reason, "by": a.by_user,
                                     "at": a.at.isoformat()} for a in notes(r)],
                          "owed": f"{owed(r.entry.total, notes(r)):f}",
                          "decided_by": r.decided_by, "state_by": r.state_by, "state_at": r.state_at.isoformat(),
                          "state_reason": r.state_reason, "invoice_account": r.invoice_account,
                          "confirmed_by": r.confirmed_by, "approval_asked_by": r.maker_by,
                          "approval_asked_reason": r.maker_reason, "approved_second_by": r.checker_by,
                          "confirmed_account": r.confirmed_account} for r in recorded])
            return 0
        if not recorded:
            print(text("en", "ap.ledger_empty", tenant=tenant))
            return 0
        for r in recorded:
            e = r.entry
            why = f' "{r.state_reason}"' if r.state_reason else ""
            why += _approvers(r)
            if adjusted := notes(r):
                why += f"; {'; '.join(a.reason or a.action for a in adjusted)}, owed {owed(e.total, adjusted):f}"
            paid = f" to {e.paid_to_account} on {e.paid_on.isoformat()}" if e.paid_on else ""
            print(f"{r.state_at:%Y-%m-%d %H:%M} {written(e.vendor_id)} {e.invoice_number} {e.total:f} {r.state.upper()}{paid} "
                  f"by {r.state_by}{why} (agent {r.agent_status}, decided by {r.decided_by}, run {e.decision_id})")
        return 0

    return await with_app(settings, body)


def _approvers(r: RecordedEntry) -> str:
    """Who approved over a bank-account block, as the ledger line says it: both people and the account they
    approved, or the first still waiting for a second (only while the invoice is open)."""
    if not r.maker_by:
        return ""
    asked = f'; approval asked by {r.maker_by} "{r.maker_reason or "-"}"'
    if r.checker_by:
        return f"{asked}, approved by {r.checker_by} as the second person, to account {r.confirmed_account or '-'}"
    if r.state == "approved":
        return f"{asked}, second person"
    return f"{asked}, waiting for a second person" if r.state in OPEN else ""


def _who_refused(who: "PersonFound", written: str, tenant: str) -> str:
    key = "who_missing" if not written.strip() else who.problem or "who_unknown"
    return text("en", f"ap.{key}", tenant=tenant, **refusal_values(who, written))


async def _paid(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        paid_on = args.on or app.services.clock().date()
        result = await _pack(app).pay(tenant, args.invoice, args.vendor, paid_on, args.by, args.account)
        if result.who is not None and result.outcome.startswith("who_"):
            print(_who_refused(result.who, args.by, tenant), file=sys.stderr)
            return 1
        record = result.record
        state = record.state if record else (result.entry.status if result.entry else None)
        values = {"number": args.invoice, "tenant": tenant, "vendors": ", ".join(result.candidates),
                  "status": text("en", f"ap.state_{state}") if state else "-",
                  "account": (result.entry.paid_to_account or "-") if result.entry else "-",
                  "asked": (record.invoice_account or "-") if record else "-",
                  "on": paid_on.strftime("%d-%m-%Y"),
                  "dated": result.entry.invoice_date.strftime("%d-%m-%Y") if result.entry else "-", "today": app.services.clock().date().strftime("%d-%m-%Y")}
        two = record.two_person_account if record else None
        key = "paid_two" if result.outcome == "paid" and record and two and two == values["account"] else \
            f"paid_{result.outcome}"
        if record is not None:
            values.update(maker=record.maker_by or "-", checker=record.checker_by or "-")
        said = text("en", f"ap.{key}", **values)
        from handlers.ap.ledger_store import owed

        if result.outcome == "paid" and record is not None and (adjusted := _pack(app).book.notes_on(
                tenant, record.entry.vendor_id, record.entry.invoice_number)):
            # Paying an invoice a credit note reduced: the amount owed is said beside it, never the total alone.
            said += text("en", "ap.paid_notes", notes="; ".join(a.reason or a.action for a in adjusted),
                         owed=format_inr(owed(record.entry.total, adjusted)), total=format_inr(record.entry.total))
        print(said, file=sys.stdout if result.outcome == "paid" else sys.stderr)
        return 0 if result.outcome == "paid" else 1

    return await with_app(settings, body)


async def _act(args: argparse.Namespace, settings: Settings, with_app: WithApp, action: str) -> int:
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        moved = await _pack(app).act(tenant, args.invoice, args.vendor, action, args.by, args.reason)  # type: ignore[arg-type]
        if moved.who is not None and moved.outcome.startswith("who_"):
            print(_who_refused(moved.who, args.by, tenant), file=sys.stderr)
            return 1
        record = moved.record
        values = {"number": args.invoice, "tenant": tenant, "vendors": ", ".join(moved.candidates),
                  "action": text("en", f"ap.action_{action}"),
                  "state": text("en", f"ap.state_{record.state}") if record else "-",
                  "by": record.state_by if record else "-",
                  "status": text("en", f"ap.status_{record.agent_status}") if record else "-",
                  "maker": (record.maker_by or "-") if record else "-"}
        done = moved.outcome in ("moved", "second_needed")
        key = f"ap.act_{moved.outcome}"
        if record is not None and moved.outcome == "reason_needed" and record.state == "held" and action != "hold":
            key = "ap.act_reason_needed_hold"  # another person's hold: they are named, with their reason
            values.update(holder=record.state_by, held=record.state_reason or "-")
        elif moved.outcome == "same" and action == "release":
            key = "ap.act_not_held"
        print(text("en", key, **values), file=sys.stdout if done else sys.stderr)
        return 0 if done or moved.outcome == "same" else 1

    return await with_app(settings, body)
