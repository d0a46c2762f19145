"""The legal pack's commands: `smriti ingest legal DIR`, `smriti ask --pack legal`, `smriti today`,
and `smriti legal backlog OUT` (write the seed practice's backlog as files)."""

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from bot.services.i18n import counted, show_date
from bot.settings import Settings
from handlers.legal.dates import parse_day
from memory import MemoryUnavailable
from memory.asof import IST

if TYPE_CHECKING:
    from bot.core.app import App
    from handlers.legal.ingest import IngestReport
    from handlers.legal.pack import LegalPack
    from handlers.legal.review import TerminalReviewer

# The commands import the pack when they run: building the `smriti` parser loads no pack.
WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]


def _terminal_reviewer() -> "TerminalReviewer":
    from handlers.legal.review import TerminalReviewer  # loads the card store; `smriti --help` must not
    return TerminalReviewer()


def _dump(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def _pack(app: "App") -> "LegalPack":
    from handlers.legal.pack import LegalPack

    pack = app.packs.get("legal")
    if not isinstance(pack, LegalPack):
        raise SystemExit("the legal pack is not installed")
    return pack


def _report_json(report: "IngestReport") -> dict[str, Any]:
    return {
        "bank_id": report.bank_id,
        "uploads": len(report.results),
        "stored": report.stored_ids,
        "held": [h.model_dump(mode="json") for h in report.held],
        "errors": [{"file": r.file, "error": r.error} for r in report.errors],
        "queued": report.queued,
    }


async def _ingest(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    from handlers.legal.ingest import BacklogError, progress_bar

    directory = Path(args.dir).expanduser().resolve()

    def progress(done: int, total: int, file: str) -> None:
        end = "\n" if done == total else ""
        print(f"\r{progress_bar(done, total)} {file[:40]:<40}", end=end, file=sys.stderr, flush=True)

    async def body(app: "App") -> int:
        interactive = not args.yes and not args.json and sys.stdin.isatty()
        try:
            report = await _pack(app).ingest_dir(
                args.tenant, directory, workers=args.workers, yes=args.yes,
                reviewer=_terminal_reviewer() if interactive else None, progress=progress,
                use_cache=not args.fresh, author=args.author)
        except BacklogError as exc:
            print(f"Cannot ingest {directory}: {exc}", file=sys.stderr)
            return 2
        if args.json:
            _dump(_report_json(report))
        else:
            if not interactive and not args.yes and report.held:
                print("Nothing is stored without a person's confirmation: run this in a terminal to confirm each "
                      "entry, or add --yes to store every entry whose date and case are on the page.")
            print(f"{counted(len(report.results), 'upload', 'uploads')}; "
                  f"{counted(len(report.stored_ids), 'entry', 'entries')} stored in {report.bank_id}"
                  f"{f', {report.queued} queued (memory unreachable)' if report.queued else ''}.")
            if report.held:
                print(f"{len(report.held)} held for review, not stored:")
                for held in report.held:
                    print(f"  - {held.file}: {held.case_id or '(no case)'} on {held.hearing_date} ({held.reason})")
            for failed in report.errors:
                print(f"  ! {failed.file}: {failed.error}")
        return 1 if report.errors else 0

    return await with_app(settings, body)


async def _ask(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    from handlers.legal.ask import ask, render_answer

    async def body(app: "App") -> int:
        pack = _pack(app)
        as_of = parse_day(args.as_of) if args.as_of else None
        bank = app.services.bank_of(args.tenant, "legal")
        answer = await ask(app.services, bank, pack.register_for(args.tenant), args.question, as_of=as_of)
        if args.json:
            _dump(answer.model_dump(mode="json", include={"answer", "case_id", "citations", "confidence"}))
        else:
            print(render_answer("en", answer))
        return 0 if answer.case_id else 3

    return await with_app(settings, body)


async def _today(args: argparse.Namespace, settings: Settings, with_app: WithApp) -> int:
    from handlers.legal.today import cause_list, render_cause_list

    async def body(app: "App") -> int:
        pack = _pack(app)
        today = app.services.clock().astimezone(IST).date()
        day = parse_day(args.date, today, nearest=True) if args.date else today
        register = pack.register_for(args.tenant)
        try:
            listing = await cause_list(app.services, app.services.bank_of(args.tenant, "legal"), register, day)
        except MemoryUnavailable as exc:
            print(f"Memory unavailable: {exc}", file=sys.stderr)
            return 2
        if args.json:
            _dump(listing.model_dump(mode="json"))
        else:
            print(render_cause_list("en", listing, register))
        return 0

    return await with_app(settings, body)


def _backlog(args: argparse.Namespace) -> int:
    from handlers.legal.backlog import render_backlog

    out = Path(args.out).expanduser().resolve()
    expected = render_backlog(out)
    print(f"Wrote the seed backlog to {out}: {len(expected.document_ids)} hearing entries on the pages, "
          f"{len(expected.held)} only guessable. Latest hearing per case:")
    for case_id, day in sorted(expected.latest.items()):
        print(f"  {case_id}: {show_date('en', day)}")
    return 0


SubParsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _nested(subparsers: SubParsers, name: str, help_text: str) -> SubParsers:
    """Return the sub-commands of `smriti NAME`, creating it if no other pack did."""
    parser = subparsers.choices.get(name) or subparsers.add_parser(name, help=help_text)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return parser.add_subparsers(dest=f"{name}_target", required=True)


def register(subparsers: SubParsers, with_app: WithApp) -> None:
    """Add the legal pack's commands to `smriti`."""

    def run(handler: Callable[[argparse.Namespace, Settings, WithApp], Awaitable[int]]) -> Callable[..., Any]:
        return lambda args, settings: handler(args, settings, with_app)

    ingest = _nested(subparsers, "ingest", "ingest a backlog of uploads for a pack")
    legal = ingest.add_parser("legal", help="diary pages, order sheets, notes and deeds -> one memory per hearing")
    legal.add_argument("dir", help="a folder of files (photos, PDFs, notes); cases.json (the register) and "
                                   "manifest.csv (file, uploaded_at, author) are optional")
    legal.add_argument("--as", dest="author", default="backlog",
                       help="who wrote the files, when the folder has no manifest.csv (a person's id)")
    legal.add_argument("--workers", type=int, default=5)
    legal.add_argument("--yes", action="store_true",
                       help="store entries whose date and case are on the page without asking (else, in a terminal, "
                            "each entry is asked about)")
    legal.add_argument("--json", action="store_true")
    legal.add_argument("--tenant", default="demo")
    legal.add_argument("--fresh", action="store_true", help="read every file again instead of using cached text")
    legal.set_defaults(handler=run(_ingest))

    if "ask" not in subparsers.choices:
        ask_parser = subparsers.add_parser("ask", help="ask a question of a pack's memory")
        ask_parser.add_argument("question")
        ask_parser.add_argument("--pack", choices=["legal"], required=True)
        ask_parser.add_argument("--as-of", dest="as_of", default=None, help="answer as if on this date")
        ask_parser.add_argument("--json", action="store_true")
        ask_parser.add_argument("--tenant", default="demo")
        ask_parser.set_defaults(handler=run(_ask))

    if "today" not in subparsers.choices:
        today = subparsers.add_parser("today", help="the cause list for a date, from recorded next dates")
        today.add_argument("--date", default=None)
        today.add_argument("--json", action="store_true")
        today.add_argument("--tenant", default="demo")
        today.set_defaults(handler=run(_today))

    seeds = _nested(subparsers, "legal", "legal pack tools")
    backlog = seeds.add_parser("backlog", help="write the seed practice's backlog (images, PDFs, notes) to OUT")
    backlog.add_argument("out")

    async def write_backlog(args: argparse.Namespace, settings: Settings) -> int:
        return _backlog(args)

    backlog.set_defaults(handler=write_backlog)



