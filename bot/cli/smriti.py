"""The `smriti` command line: memory up/down/status, chat, seed, demo, and each pack's own commands.


Commands import what they use when they run, so `smriti --help` loads no SDK, no memory client, no pack.
"""

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from bot.cli import backup as backup_cli, db as db_cli, people as people_cli, queue as queue_cli, speech as speech_cli
from bot.cli import subjects as subjects_cli
from bot.cli.preflight import explain, warn_if_memory_down
from bot.cli import web as web_cli
from bot.log_hygiene import configure_logging
from bot.core.pack import PackCatalog, installed_packs
from bot.cli import memory_records as memory_records_cli, registers as registers_cli
from bot.settings import Settings, load_settings
from memory import local as local_memory

if TYPE_CHECKING:
    from bot.core.app import App
    from bot.store import Database

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]
WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]


def _memory_up(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.uses_local_memory:
        print(f"Using remote Hindsight at {settings.hindsight_url}; nothing local to start.")
        return 0
    try:
        status = local_memory.start(settings.local_server)
    except local_memory.LocalServerError as exc:
        print(f"Could not start local memory: {exc}", file=sys.stderr)
        return 1
    print(f"Local Hindsight answering at {status.url} (data in {settings.data_dir}).")
    return 0


def _memory_down(args: argparse.Namespace, settings: Settings) -> int:
    if not settings.uses_local_memory:
        print("Using remote Hindsight; nothing local to stop.")
        return 0
    local_memory.stop(settings.local_server)
    print("Local memory stopped.")
    return 0


async def _memory_status(args: argparse.Namespace, settings: Settings) -> int:
    from memory import MemoryClient, MemoryUnavailable

    backend = "remote" if not settings.uses_local_memory else "local (embedded)"
    print(f"Backend: {backend} at {settings.memory_url}")
    if settings.uses_local_memory:
        print(f"Data directory: {settings.data_dir}")
        print(f"LLM in memory server: {'groq' if settings.has_groq else 'none (chunks only, no reflect)'}")
    api_key = settings.hindsight_api_key.get_secret_value() if settings.hindsight_api_key else None
    async with MemoryClient(settings.memory_url, api_key=api_key, read_timeout_s=5.0) as memory:
        if not await memory.health():
            print("Status: NOT ANSWERING. Start it with `smriti memory up`.")
            return 2
        print("Status: answering")
        try:
            banks = await memory.bank_ids()
            prefix = f"{settings.bank_prefix}-"
            if args.tenant:
                prefix += f"{args.tenant}-"
            shown = [b for b in banks if b.startswith(prefix)]
            if not shown:
                print("Banks: none yet (run `smriti demo` or `smriti seed`).")
            for bank in sorted(shown):
                stats = await memory.stats(bank)
                print(f"  {bank}: {stats.documents} documents, {stats.memories} memories, "
                      f"{stats.observations} observations")
        except MemoryUnavailable as exc:
            print(f"Status: answering, but listing banks failed: {exc}")
            return 2
    return 0


async def _with_app(catalog: PackCatalog | None, settings: Settings, body: Callable[["App"], Awaitable[int]],
                    followups: bool = True) -> int:
    from bot.core.app import App

    try:
        app = await App.start(settings, catalog=catalog, run_followups=followups)
    except local_memory.LocalServerError as exc:
        print(f"Could not start local memory: {exc}", file=sys.stderr)
        return 1
    async with app:
        return await body(app)


async def _chat(args: argparse.Namespace, settings: Settings) -> int:
    from bot.transports.console.session import ConsoleNotifier, ConsoleSession, run_console
    from bot.core.worker import IntakeWorker

    async def body(app: "App") -> int:
        user = app.services.registry.by_id(args.as_user) if args.as_user else \
            app.services.registry.first_for_pack(args.pack, args.tenant)
        if user is None or user.pack != args.pack or (args.tenant and user.tenant != args.tenant):
            print(f"No {args.pack} user {args.as_user or ''} in tenant {args.tenant or 'any'}.", file=sys.stderr)
            return 2
        print(f"Chatting as {user.name} ({user.role}, tenant {user.tenant}).")
        session = ConsoleSession(app.conversation, user.user_id)
        app.services.outbound.register("console", ConsoleNotifier(session))
        stop = asyncio.Event()
        # Follow-ups fire from the scheduler; items kept while Groq or memory was down are retried here.
        worker = asyncio.create_task(IntakeWorker(app.conversation).run_forever(stop))
        try:
            await run_console(session)
        finally:
            stop.set()
            await worker
        return 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)


async def _seed(args: argparse.Namespace, settings: Settings) -> int:
    from bot.paths import SEEDS_DIR
    from bot.store.people import import_people_file

    async def body(app: "App") -> int:
        people = import_people_file(app.services.database, SEEDS_DIR / "users.json", args.tenant)
        print(f"people: {people} in tenant {args.tenant}")
        await app.ensure_banks(args.tenant)
        for name, pack in app.packs.items():
            if args.pack and name != args.pack:
                continue
            report = await pack.load_seeds(args.tenant)
            print(f"{name}: {report.retained} memories retained into {report.bank_id} {report.details or ''}")
        return 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)


async def _demo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.paths import SEEDS_DIR
    from bot.store.people import import_people_file

    async def body(app: "App") -> int:
        import_people_file(app.services.database, SEEDS_DIR / "users.json", args.tenant)
        print(f"Smriti demo on {'local' if settings.uses_local_memory else 'remote'} memory at {settings.memory_url}")
        await app.ensure_banks(args.tenant)
        for pack in app.packs.values():
            print(f"\n=== {pack.name} ===")
            report = await pack.load_seeds(args.tenant)
            print(f"Seeds: {report.retained} memories in {report.bank_id} (re-running replaces, never duplicates)")
            await pack.demo(args.tenant, print)
        return 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    # Imported here so that the other commands do not pay for loading the chat libraries.
    from bot.transports.serve import TelegramOptions, WhatsAppOptions, serve
    from bot.transports.telegram.app import TelegramNotConfigured
    from bot.transports.whatsapp.send import WhatsAppNotConfigured

    telegram = whatsapp = None
    if args.transport in ("telegram", "all"):
        telegram = TelegramOptions(webhook_url=args.webhook_url, listen=args.listen, port=args.telegram_port)
    if args.transport in ("whatsapp", "all"):
        whatsapp = WhatsAppOptions(host=args.host, port=args.port)
    office = args.transport in ("whatsapp", "all") and not args.no_office

    async def body(app: "App") -> int:
        if telegram is not None:
            mode = f"webhook {telegram.webhook_url}" if telegram.webhook_url else "long polling"
            print(f"Starting the Telegram transport ({mode}).")
        if whatsapp is not None:
            print(f"Starting the WhatsApp webhook on {whatsapp.host}:{whatsapp.port}; Twilio calls "
                  f"{settings.public_base_url}/whatsapp/inbound.")
        print("Ctrl-C stops it.")
        await warn_if_memory_down(app.services.memory, settings)
        try:
            await serve(app.conversation, telegram, whatsapp,
                        office=(app, args.catalog) if office else None)
        except (TelegramNotConfigured, WhatsAppNotConfigured) as exc:
            print(f"Cannot start {args.transport}: {exc}", file=sys.stderr)
            return 2
        return 0

    with_app: WithApp = args.with_app
    return await with_app(settings, body)


def _telegram_arguments(parser: argparse.ArgumentParser, port_flag: str) -> None:
    parser.add_argument("--webhook-url", default=None, help="public HTTPS URL Telegram posts updates to")
    parser.add_argument("--listen", default="127.0.0.1", help="webhook mode: address to listen on")
    parser.add_argument(port_flag, dest="telegram_port", type=int, default=8443, help="webhook mode: port to listen on")


def _whatsapp_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address the Twilio webhook listens on")
    parser.add_argument("--port", type=int, default=8080, help="port the Twilio webhook listens on")
    parser.add_argument("--no-office", action="store_true", help="do not serve the office web page (/office) beside it")


def build_parser(catalog: PackCatalog | None = None) -> argparse.ArgumentParser:
    """The whole command line; the packs (and their commands) are the catalogue's, by default the one the
    settings name."""
    catalog = catalog or installed_packs(load_settings())
    with_app = partial(_with_app, catalog)
    # One-shot commands (a brief, insights, forget, export) answer and exit: they never send a due follow-up.
    answering_app = partial(_with_app, catalog, followups=False)
    parser = argparse.ArgumentParser(prog="smriti", description="Smriti: a memory for people who work in the field.")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.set_defaults(with_app=with_app, catalog=catalog)
    sub = parser.add_subparsers(dest="command", required=True)

    memory = sub.add_parser("memory", help="start, stop or inspect the memory server; check or rebuild a "
                            "tenant's banks against its records")
    memory.add_argument("action", choices=["up", "down", "status", "check", "rebuild"],
                        help="check: records without memory and memory without records, by document id; rebuild: "
                        "write every record's memory again (idempotent)")
    memory.add_argument("--tenant", default=None, help="only show this tenant's banks (check/rebuild: required)")
    memory.add_argument("--pack", choices=sorted(catalog.names()), default=None, help="check/rebuild: one pack only")
    memory.set_defaults(handler=_memory_handler)

    chat = sub.add_parser("chat", help="chat in the terminal, as a registered user")
    chat.add_argument("--pack", choices=sorted(catalog.names()), required=True)
    chat.add_argument("--as", dest="as_user", default=None, help="user id from the registry")
    chat.add_argument("--tenant", default=None)
    chat.set_defaults(handler=_chat)

    seed = sub.add_parser("seed", help="load seed data into memory (idempotent)")
    seed.add_argument("--pack", choices=sorted(catalog.names()), default=None)
    seed.add_argument("--tenant", default="demo")
    seed.set_defaults(handler=_seed)

    demo = sub.add_parser("demo", help="start memory if needed, load seeds and show a tour")
    demo.add_argument("--tenant", default="demo")
    demo.set_defaults(handler=_demo)

    run = sub.add_parser("run", help="run chat transports: telegram, whatsapp, or all in one process")
    transports = run.add_subparsers(dest="transport", required=True)
    telegram = transports.add_parser("telegram", help="long polling, or a webhook with --webhook-url")
    _telegram_arguments(telegram, "--port")
    telegram.set_defaults(handler=_run)
    whatsapp = transports.add_parser("whatsapp", help="the Twilio webhook (ASGI, served by uvicorn)")
    _whatsapp_arguments(whatsapp)
    whatsapp.set_defaults(handler=_run)
    telegram.set_defaults(no_office=True)
    both = transports.add_parser("all", help="Telegram and WhatsApp in one process, so follow-ups reach either")
    _telegram_arguments(both, "--telegram-port")
    _whatsapp_arguments(both)
    both.set_defaults(handler=_run)

    db_cli.register(sub, catalog)
    backup_cli.register(sub)

    registers_cli.register(sub, catalog.packages(), partial(_open_database, catalog))
    queue_cli.register(sub, with_app)
    subjects_cli.register(sub, answering_app)
    people_cli.register(sub, partial(_open_database, catalog))
    speech_cli.register(sub)
    web_cli.register(sub, with_app, partial(_open_database, catalog))
    for entry in catalog.entries:
        cli = entry.part("cli")
        if cli is not None:
            cli.register(sub, answering_app)
    return parser


def _open_database(catalog: PackCatalog, settings: Settings) -> "Database":
    from bot.core.app import open_database

    return open_database(settings, catalog)


async def _memory_handler(args: argparse.Namespace, settings: Settings) -> int:
    if args.action in ("check", "rebuild"):
        if not args.tenant:
            print(f"`smriti memory {args.action}` needs --tenant: the organisation whose banks to compare.",
                  file=sys.stderr)
            return 2
        command = memory_records_cli.check if args.action == "check" else memory_records_cli.rebuild
        return await command(args, settings)
    if args.action == "up":
        return _memory_up(args, settings)
    if args.action == "down":
        return _memory_down(args, settings)
    return await _memory_status(args, settings)


def main(argv: list[str] | None = None, catalog: PackCatalog | None = None) -> int:
    parser = build_parser(catalog)
    args = parser.parse_args(argv)
    configure_logging(args.verbose)
    settings = load_settings()
    handler: Handler = args.handler
    try:
        return asyncio.run(handler(args, settings))
    except Exception as exc:
        line = explain(exc, settings)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 2


def print_json(value: object) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=str))


if __name__ == "__main__":
    sys.exit(main())
