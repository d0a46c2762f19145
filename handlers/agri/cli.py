"""`smriti brief` and `smriti insights`: the field pack's answers at the command line."""

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING

from bot.settings import Settings
from handlers.agri import access_cli
from memory.asof import IST

if TYPE_CHECKING:
    from bot.core.app import App
    from handlers.agri.pack import AgriPack

# The commands import the pack when they run: building the `smriti` parser loads no pack.
WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]


def _pack(app: "App") -> "AgriPack | None":
    from handlers.agri.pack import AgriPack

    pack = app.packs.get("agri")
    return pack if isinstance(pack, AgriPack) else None


def as_of_day(written: str) -> date:
    """A date as an office writes it: ISO (2026-12-04) or day first (04-12-2026, 4/12/26, 4 Dec 2026)."""
    from handlers.agri.textmatch import parse_day

    try:
        return date.fromisoformat(written)
    except ValueError:
        found = parse_day(written, _today().year)
    if found is None:
        raise argparse.ArgumentTypeError(f"not a date: {written!r} (write 2026-12-04 or 04-12-2026)")
    return found


def _today() -> date:
    return datetime.now(timezone.utc).astimezone(IST).date()


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp) -> None:
    """Add the field pack's commands to the `smriti` parser."""

    async def brief(args: argparse.Namespace, settings: Settings) -> int:
        from handlers.agri.render import brief_text

        async def body(app: "App") -> int:
            pack = _pack(app)
            if pack is None:
                print("The agri pack is not installed.", file=sys.stderr)
                return 2
            farmers = pack.reader_for(args.tenant).farmers_named(args.farmer)
            if not farmers:
                print(f"No farmer {args.farmer!r} in the register.", file=sys.stderr)
                return 2
            if len(farmers) > 1:
                names = ", ".join(f"{f.name} ({f.id}, {pack.book_for(args.tenant).village_name(f.village)})"
                                  for f in farmers)
                print(f"Several farmers fit {args.farmer!r}: {names}. Give the id or the full name.",
                      file=sys.stderr)
                return 2
            farmer = farmers[0]
            others = [f for f in pack.reader_for(args.tenant).identity.resolve(args.farmer).farmers
                      if f.id != farmer.id and pack.book_for(args.tenant).find_farmer(args.farmer) is not None
                      and args.farmer.strip() != farmer.id]
            if others:
                print(f"{args.farmer!r} is {farmer.name} ({farmer.id}); the name also fits "
                      + ", ".join(f"{f.name} ({f.id})" for f in others) + ": give the id for one of them.",
                      file=sys.stderr)
            if args.as_user:
                user = app.services.registry.by_id(args.as_user)
                if user is None or not pack.may_see(user, farmer):
                    print(f"{args.as_user} may not brief {farmer.name}: not in their territory.", file=sys.stderr)
                    return 3
            found = await pack.brief_for(args.tenant, farmer, args.as_of or _today(), not args.no_memory, args.lang)
            if args.json:
                print(json.dumps(found.model_dump(mode="json"), indent=2, ensure_ascii=False))
            else:
                print(brief_text(pack.book_for(args.tenant), found, args.lang))
            return 0

        return await with_app(settings, body)

    async def insights(args: argparse.Namespace, settings: Settings) -> int:
        from handlers.agri.insights import insights_text

        async def body(app: "App") -> int:
            pack = _pack(app)
            slug = pack.reader_for(args.tenant).village_in(args.village) if pack else None
            if pack is None or slug is None:
                print(f"No village {args.village!r} in the register.", file=sys.stderr)
                return 2
            found = await pack.insights_for(args.tenant, slug, args.as_of or _today(), args.lang, _today())
            print(json.dumps(found.model_dump(mode="json"), indent=2, ensure_ascii=False) if args.json
                  else insights_text(pack.book_for(args.tenant), found, args.lang))
            return 0

        return await with_app(settings, body)

    parser = subparsers.add_parser("brief", help="agri: a farmer's pre-visit brief from memory")
    parser.add_argument("--farmer", required=True, help="farmer id (F001) or name")
    parser.add_argument("--as-of", type=as_of_day, default=None,
                        help="brief as of this date (2026-12-04 or 04-12-2026)")
    parser.add_argument("--no-memory", action="store_true", help="skip both recalls (memory OFF)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tenant", default="demo")
    parser.add_argument("--lang", choices=["en", "te"], default="en")
    parser.add_argument("--as", dest="as_user", default=None, help="check the territory of this registered user")
    parser.set_defaults(handler=brief)

    parser = subparsers.add_parser("insights", help="agri: what works in a village, from memory")
    parser.add_argument("--village", required=True)
    parser.add_argument("--as-of", type=as_of_day, default=None, help="2026-12-04 or 04-12-2026")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tenant", default="demo")
    parser.add_argument("--lang", choices=["en", "te"], default="en")
    parser.set_defaults(handler=insights)

    access_cli.register(subparsers)
