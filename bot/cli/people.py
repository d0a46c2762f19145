"""`smriti people add|list|remove|invite|revoke|import --tenant T ...`: who may use the bot, kept in the one database.

Works without the memory server. A running bot sees a change on the person's next message.
"""

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bot.services.i18n import LANGUAGES
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.store import Database

ROLES = ["admin", "officer", "lawyer", "clerk"]
PACKS = ["agri", "legal", "ap"]


def register(sub: argparse._SubParsersAction, open_database: Callable[[Settings], "Database"]) -> None:  # type: ignore[type-arg]
    people = sub.add_parser("people", help="add, list, remove or invite the people who use the bot")
    actions = people.add_subparsers(dest="action", required=True)

    add = actions.add_parser("add", help="add a person, or change one (same id)")
    add.add_argument("user", help="an id of your choosing: lower case, digits, - or _")
    add.add_argument("--name", required=True)
    _who(add)
    add.add_argument("--telegram", action="append", type=int, default=[], help="their Telegram user id")
    add.add_argument("--whatsapp", action="append", default=[], help="their WhatsApp number, +91...")

    actions.add_parser("list", help="the tenant's people and invites")
    remove = actions.add_parser("remove", help="remove a person (their memories stay with the tenant)")
    remove.add_argument("user")
    revoke = actions.add_parser("revoke", help="revoke an open invite (its ref, as `people list` shows it)")
    revoke.add_argument("ref")

    invite = actions.add_parser("invite", help="make a one-time code that lets one new person in")
    invite.add_argument("--name", default=None, help="the person's name, if known")
    _who(invite)
    invite.add_argument("--hours", type=float, default=72.0, help="how long the code stays valid (default 72)")
    invite.add_argument("--bot-username", default=None, help="the Telegram bot's username, for the link")

    load = actions.add_parser("import", help="add or update people from a CSV, Excel .xlsx or registry JSON file")
    load.add_argument("file", type=Path)
    load.add_argument("--designation", action="append", default=[], metavar="DESIGNATION=ROLE",
                      help="read a designation of yours as a role, e.g. \"Area Sales Manager=admin\" "
                           "or \"Munshi=clerk:legal\" (repeatable)")

    for action in (add, invite, load, *[actions.choices[n] for n in ("list", "remove", "revoke")]):
        action.add_argument("--tenant", default=None, help="default: SMRITI_TENANT, as every command")
        action.add_argument("--lang", dest="ui_lang", choices=LANGUAGES, default="en",
                            help="the language this command answers in")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        from bot.cli.people_commands import run  # the database layer loads only when a people command runs

        args.tenant = args.tenant or settings.default_tenant
        database = open_database(settings)
        try:
            return run(args, database, settings)
        finally:
            database.dispose()

    people.set_defaults(handler=handler)


def _who(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--role", choices=ROLES, required=True)
    parser.add_argument("--pack", choices=PACKS, default=None, help="default: officer agri, lawyer legal, clerk ap")
    parser.add_argument("--language", choices=LANGUAGES, default=None,
                        help="the language the bot speaks to them (default en; a changed person keeps theirs)")
    parser.add_argument("--territories", default=None, help="field officers: village slugs, comma separated")
    parser.add_argument("--officer-id", default=None, help="field officers: the id their visits carry")
