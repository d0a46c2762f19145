"""`smriti access grant USER VILLAGE | revoke USER VILLAGE | list`: territory grants for field officers.

Works without the memory server: grants are local state, read by the running bot on each message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.services.i18n import LANGUAGES, text
from bot.core.registry import Registry, User
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.store.grants import TerritoryGrants
    from handlers.agri.register import FieldBook


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    access = sub.add_parser("access", help="grant, revoke or list the villages field officers may see")
    access.add_argument("action", choices=["grant", "revoke", "list"])
    access.add_argument("user", nargs="?", default=None, help="user id from the registry (list: only this one)")
    access.add_argument("village", nargs="?", default=None, help="village slug or name (grant and revoke)")
    access.add_argument("--lang", choices=LANGUAGES, default="en")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        from bot.store.grants import grants_for
        from bot.core.app import open_database
        from bot.store.people import PeopleRegistry
        from handlers.agri.registers import FieldBooks

        database = open_database(settings)
        try:
            return run(args, grants_for(database), PeopleRegistry(database), FieldBooks(database).for_tenant)
        finally:
            database.dispose()

    access.set_defaults(handler=handler)


def _village(book: FieldBook, said: str) -> str | None:
    wanted = said.strip().lower()
    return next((v.slug for v in book.villages.values()
                 if wanted in (v.slug, v.name.lower(), v.name_te)), None)


def _names(lang: str, slugs: list[str]) -> str:
    return ", ".join(slugs) or text(lang, "access.none")


def run(args: argparse.Namespace, grants: TerritoryGrants, registry: Registry,
        book_for: Callable[[str], FieldBook]) -> int:
    """Carry out one access command; print what changed, or why nothing did."""
    lang = args.lang
    if args.action == "list":
        officers = [u for u in registry.users if u.pack == "agri" and (args.user is None or u.user_id == args.user)]
        print(text(lang, "access.list_header"))
        for user in officers:
            granted = [g.village for g in grants.grants(user.user_id)]
            print(text(lang, "access.list_line", user=user.user_id, name=user.name, tenant=user.tenant,
                       own=_names(lang, user.territories), granted=_names(lang, granted)))
        return 0
    if not args.user or not args.village:
        print(f"usage: smriti access {args.action} USER VILLAGE", file=sys.stderr)
        return 2
    user = registry.by_id(args.user)
    if user is None:
        print(text(lang, "access.unknown_user", user=args.user), file=sys.stderr)
        return 2
    if user.pack != "agri" or user.role != "officer":
        print(text(lang, "access.not_an_officer", user=user.user_id), file=sys.stderr)
        return 2
    book = book_for(user.tenant)
    village = _village(book, args.village)
    if village is None:
        print(text(lang, "access.unknown_village", village=args.village, known=", ".join(book.villages)),
              file=sys.stderr)
        return 2
    return _grant(lang, grants, user, village) if args.action == "grant" else _revoke(lang, grants, user, village)


def _grant(lang: str, grants: TerritoryGrants, user: User, village: str) -> int:
    if village in user.territories or not grants.grant(user.user_id, village):
        print(text(lang, "access.already_granted", user=user.user_id, village=village))
        return 0
    print(text(lang, "access.granted", user=user.user_id, village=village,
               territories=_names(lang, grants.effective(user).territories)))
    return 0


def _revoke(lang: str, grants: TerritoryGrants, user: User, village: str) -> int:
    if village in user.territories:
        print(text(lang, "access.from_registry", user=user.user_id, village=village), file=sys.stderr)
        return 2
    if not grants.revoke(user.user_id, village):
        print(text(lang, "access.not_granted", user=user.user_id, village=village), file=sys.stderr)
        return 2
    print(text(lang, "access.revoked", user=user.user_id, village=village,
               territories=_names(lang, grants.effective(user).territories)))
    return 0
