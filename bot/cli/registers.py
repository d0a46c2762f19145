"""`smriti import --tenant T KIND FILE [--apply] [--replace]` and `smriti export --tenant T KIND [--format] [OUT]`.

Works without the memory server: registers live in the bot's own database.
"""

import argparse
import csv
import sys
import zipfile
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from bot.services.registers import FORMATS
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.services.registers.kinds import RegisterKind
    from bot.store.db import Database

Handler = Callable[[argparse.Namespace, Settings], Awaitable[int]]
OpenDatabase = Callable[[Settings], "Database"]


def all_kinds(pack_modules: dict[str, str]) -> dict[str, "RegisterKind"]:
    """Every register kind of every installed pack, by name (names are unique across packs)."""
    from bot.services.registers.catalog import pack_kinds

    return {name: kind for kinds in pack_kinds(pack_modules).values() for name, kind in kinds.items()}


class KindNames:
    """The kinds' names as argparse choices, found when first checked: building the parser imports no pack."""

    def __init__(self, pack_modules: dict[str, str]) -> None:
        self._pack_modules = pack_modules
        self._names: list[str] | None = None

    def _all(self) -> list[str]:
        if self._names is None:
            self._names = sorted(all_kinds(self._pack_modules))
        return self._names

    def __contains__(self, name: object) -> bool:
        return name in self._all()

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", pack_modules: dict[str, str],
             open_database: OpenDatabase) -> None:
    names = KindNames(pack_modules)

    imp = sub.add_parser("import", help="import a register from CSV, Excel .xlsx or JSON (dry run unless --apply)")
    imp.add_argument("--tenant", required=True)
    imp.add_argument("kind", choices=names, metavar="KIND")
    imp.add_argument("file", type=Path)
    imp.add_argument("--apply", action="store_true", help="write the changes (default: only report them)")
    imp.add_argument("--replace", action="store_true", help="also remove records the file does not mention")
    imp.add_argument("--restore-forgotten", action="store_true",
                     help="add back rows about someone a forget erased (the dry run lists them, with when and who)")

    async def run_import(args: argparse.Namespace, settings: Settings) -> int:
        if not args.file.is_file():
            print(f"No such file: {args.file}", file=sys.stderr)
            return 1
        from bot.services.registers.importer import import_file

        database = open_database(settings)
        try:
            report = import_file(database, all_kinds(pack_modules), args.kind, args.tenant, args.file.expanduser(),
                                 apply=args.apply, replace=args.replace, bank_prefix=settings.bank_prefix,
                                 restore_forgotten=args.restore_forgotten)
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
    exp.add_argument("kind", choices=names, metavar="KIND")
    exp.add_argument("out", nargs="?", type=Path, default=None, help="file to write (default: KIND.FORMAT here)")
    exp.add_argument("--format", choices=FORMATS, default=None, help="default: from OUT's suffix, else csv")

    async def run_export(args: argparse.Namespace, settings: Settings) -> int:
        fmt = args.format or (args.out.suffix.lstrip(".").lower() if args.out and args.out.suffix else "csv")
        if fmt not in FORMATS:
            print(f"Unknown format {fmt!r}; use one of {', '.join(FORMATS)}", file=sys.stderr)
            return 2
        out = (args.out or Path(f"{args.kind}.{fmt}")).expanduser()
        from bot.services.registers.exporter import export_kind

        database = open_database(settings)
        try:
            count = export_kind(database, all_kinds(pack_modules)[args.kind], args.tenant, fmt, out)
        except ValueError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        finally:
            database.dispose()
        print(f"Wrote {count} {args.kind} of tenant {args.tenant} to {out}")
        return 0

    exp.set_defaults(handler=run_export)
