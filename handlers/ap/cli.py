"""`smriti ap ...`: decide an invoice file from the command line, or read the audit trail.

    smriti ap decide FILE [--record] [--no-memory] [--json] [--tenant T] [--lang en|te]
    smriti ap audit [--invoice NUMBER] [--tenant T]
    smriti ap ledger [--tenant T] [--json]
    smriti ap paid INVOICE [--vendor V] [--tenant T] [--on YYYY-MM-DD]

`decide` is a pure preview unless `--record` is given; chat decisions are always recorded. `paid` marks an
approved invoice paid (to the account it was decided with), which adds it to the vendor's payment history.
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

if TYPE_CHECKING:
    from bot.core.app import App
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
    paid.add_argument("--on", type=date.fromisoformat, default=None, help="the payment date (default: today)")
    paid.set_defaults(handler=lambda args, settings: _paid(args, settings, with_app))


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
        result = await intake.from_file(path, mimetypes.guess_type(path.name)[0], app.services.reader,
                                        pack.ledger_for(tenant).data.buyer, app.services.chat)
        if result.invoice is None or result.refusal is not None:
            refusal = result.refusal or intake.Refusal(reason="unreadable", values={"detail": "-"})
            pack.audit.record("-", app.services.bank_of(tenant, pack.name), "INVOICE_REFUSED", reason=refusal.reason,
                              **refusal.values)
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
        report = await pack.decide(result.invoice, tenant, use_memory=not args.no_memory, lang=args.lang,
                                   record=args.record)
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
        recorded = _pack(app).book.recorded_entries(tenant)
        if args.json:
            _print_json([{**r.entry.model_dump(mode="json"), "agent_status": r.agent_status,
                          "decided_by": r.decided_by} for r in recorded])
            return 0
        if not recorded:
            print(text("en", "ap.ledger_empty", tenant=tenant))
            return 0
        for r in recorded:
            e = r.entry
            when = f"{e.decided_at:%Y-%m-%d %H:%M}" if e.decided_at else "-"
            paid = f" paid {e.paid_on.isoformat()}" if e.paid_on else ""
            print(f"{when} {e.vendor_id} {e.invoice_number} {e.total:f} {e.status} "
                  f"(agent {r.agent_status}, {r.decided_by}, run {e.decision_id}){paid}")
        return 0

    return await with_app(settings, body)


async def _paid(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    tenant = args.tenant or settings.default_tenant

    async def body(app: "App") -> int:
        paid_on = args.on or app.services.clock().date()
        result = _pack(app).book.mark_paid(tenant, args.invoice, args.vendor, paid_on, by_user="cli")
        values = {"number": args.invoice, "tenant": tenant, "vendors": ", ".join(result.candidates),
                  "status": result.entry.status if result.entry else "-"}
        print(text("en", f"ap.paid_{result.outcome}", **values),
              file=sys.stdout if result.outcome == "paid" else sys.stderr)
        return 0 if result.outcome == "paid" else 1

    return await with_app(settings, body)
