"""`smriti web [--host H] [--port P]` serves the office web page (loopback by default);
`smriti web link --tenant T --person P` prints a one-time sign-in link for one person."""

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.settings import Settings

if TYPE_CHECKING:
    from bot.core.app import App
    from bot.core.pack import PackCatalog
    from bot.store import Database

WithApp = Callable[[Settings, Callable[["App"], Awaitable[int]]], Awaitable[int]]
OpenDatabase = Callable[[Settings], "Database"]


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", with_app: WithApp,
             open_database: OpenDatabase) -> None:
    web = sub.add_parser("web", help="serve the office web page, or make a sign-in link for it")
    web.add_argument("action", nargs="?", choices=["serve", "link"], default="serve")
    web.add_argument("--host", default="127.0.0.1", help="serve: address to listen on (default loopback)")
    web.add_argument("--port", type=int, default=8090, help="serve: port to listen on")
    web.add_argument("--tenant", default=None, help="link: the person's tenant")
    web.add_argument("--person", default=None, help="link: the person's id")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        if args.action == "link":
            return _link(args, settings, open_database)
        catalog: "PackCatalog" = args.catalog

        async def body(app: "App") -> int:
            from bot.transports.serve import serve_web

            print(f"Office pages on http://{args.host}:{args.port}/office/ (sign in with `smriti web link` "
                  "or /web in chat). Ctrl-C stops it.")
            await serve_web(app, catalog, args.host, args.port)
            return 0

        return await with_app(settings, body)

    web.set_defaults(handler=handler)


def _link(args: argparse.Namespace, settings: Settings, open_database: OpenDatabase) -> int:
    from bot.store.people import load_people
    from bot.store.web_access import LINK_MINUTES, WebAccess
    from bot.web.auth import sign_in_link

    if not args.tenant or not args.person:
        print("Give --tenant and --person.", file=sys.stderr)
        return 2
    database = open_database(settings)
    try:
        person = next((u for u in load_people(database) if u.user_id == args.person), None)
        if person is None or person.tenant != args.tenant:
            print(f"No person {args.person} in tenant {args.tenant}.", file=sys.stderr)
            return 2
        link = sign_in_link(WebAccess(database), settings, person, created_by="cli")
    finally:
        database.dispose()
    print(f"Sign-in link for {person.name} ({person.role}, tenant {person.tenant}); works once, for "
          f"{LINK_MINUTES} minutes:\n{link}")
    return 0
