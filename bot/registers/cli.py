"""`smriti import --tenant T KIND FILE [--apply] [--replace]` and `smriti export --tenant T KIND [--format] [OUT]`.

Works without the memory server: registers live in the bot's own database.
"""

import argparse
import csv
import sys
import zipfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.registers.catalog import pack_kinds
from bot.registers.exporter import FORMATS, export_kind
from bot.registers.importer import import_file
from bot.registers.kinds import RegisterKind
from bot.settings import Settings
from bot.store.db import Database

Handler = Callable[[argparse.Namespace, Settings], Awaitable[int]]
OpenDatabase = Callable[[Settings], Database]


def all_kinds(pack_modules: dict[str, str]) -> dict[str, RegisterKind]:
    """Every register kind of every installed pack, by name (names are unique across packs)."""
    return {name: kind for kinds in pack_kinds(pack_modules).values() for name, kind in kinds.items()}


def register(sub: argparse._SubParsersAction, pack_modules: dict[str, str],  # type: ignore[type-arg]
             open_database: OpenDatabase) -> None:
    kinds = all_kinds(pack_modules)
    names = sorted(kinds)

    imp = sub.add_parser("import", help="import a register from CSV, Excel .xlsx or JSON (dry run unless --apply)")
    imp.add_argument("--tenant", required=True)
    imp.add_argument("kind", choices=names)
    imp.add_argument("file", type=Path)
    imp.add_argument("--apply", action="store_true", help="write the changes (default: only report them)")
    imp.add_argument("--replace", action="store_true", help="also remove records the file does not mention")

    async def run_import(args: argparse.Namespace, settings: Settings) -> int:
        if not args.file.is_file():
            print(f"No such file: {args.file}", file=sys.stderr)
            return 1
        database = open_database(settings)
        try:
            report = import_file(database, kinds, args.kind, args.tenant, args.file.expanduser(),
                                 apply=args.apply, replace=args.replace)
        except (ValueError, UnicodeDecodeError, zipfile.BadZipFile, csv.Error, KeyError) as exc:
            print(f"Could not read {args.file}: {exc}", file=sys.stderr)
            return 1
        finally:
            database.dispose()
        print(report.render())
        return 0

    imp.set_defaults(handler=run_import)

    exp = sub.add_parser("export", help="write a tenant's register as CSV, Excel .xlsx or JSON")
    exp.add_argument("--tenant", required=True)
    exp.add_argument("kind", choices=names)
    exp.add_argument("out", nargs="?", type=Path, default=None, help="file to write (default: KIND.FORMAT here)")
    exp.add_argument("--format", choices=FORMATS, default=None, help="default: from OUT's suffix, else csv")

    async def run_export(args: argparse.Namespace, settings: Settings) -> int:
        fmt = args.format or (args.out.suffix.lstrip(".").lower() if args.out and args.out.suffix else "csv")
        if fmt not in FORMATS:
            print(f"Unknown format {fmt!r}; use one of {', '.join(FORMATS)}", file=sys.stderr)
            return 2
        out = (args.out or Path(f"{args.kind}.{fmt}")).expanduser()
        database = open_database(settings)
        try:
            count = export_kind(database, kinds[args.kind], args.tenant, fmt, out)
        except ValueError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        finally:
            database.dispose()
        print(f"Wrote {count} {args.kind} of tenant {args.tenant} to {out}")
        return 0

    exp.set_defaults(handler=run_export)
