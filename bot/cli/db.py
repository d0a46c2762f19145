"""`smriti db current | check | upgrade`: where the bot's own database stands, and bringing it up to date.

`check` is for deploy scripts: exit 0 when the schema is at the newest revisions, 1 when `upgrade` is needed,
2 when the database cannot be reached. `upgrade` runs the migrations under the migration lock (start-up does
too), so running it while workers start is safe.
"""

import argparse
import sys

from bot.core.pack import PackCatalog
from bot.settings import Settings


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]", catalog: PackCatalog) -> None:
    db = sub.add_parser("db", help="the bot's own database (SQLite under SMRITI_HOME, or SMRITI_DATABASE_URL)")
    db.add_argument("action", choices=["current", "check", "upgrade"],
                    help="current: the revisions it stands at; check: exit 1 when an upgrade is needed; "
                         "upgrade: run the migrations (start-up runs them too)")

    async def handler(args: argparse.Namespace, settings: Settings) -> int:
        return run(args.action, settings, catalog)

    db.set_defaults(handler=handler)


def run(action: str, settings: Settings, catalog: PackCatalog) -> int:
    from bot.store import Database
    from bot.store.db import shown_url
    from bot.store.migrate import schema_state, upgrade

    database = Database(settings.database_url)
    try:
        where = shown_url(database.url)
        if action == "upgrade":
            upgrade(database, catalog.migrations())
            print(f"Database up to date ({database.dialect}, {where}).")
            return 0
        state = schema_state(database, catalog.migrations())
        print(f"Database {where}")
        print(f"  at:     {', '.join(state.current) or 'nothing yet (empty)'}")
        print(f"  newest: {', '.join(state.heads)}")
        if action == "current":
            return 0
        if state.up_to_date:
            print("Up to date.")
            return 0
        print("An upgrade is needed: `smriti db upgrade` (workers starting also run it).", file=sys.stderr)
        return 1
    finally:
        database.dispose()
