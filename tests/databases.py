"""The one database in tests: a migrated SQLite file, or a fresh PostgreSQL database on the embedded pg0
server (127.0.0.1:55433, started by `smriti memory up`) made for this test session and dropped at its end."""

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, inspect, text

from bot.store import Database, upgrade
from handlers import INSTALLED

PG_SERVER = os.environ.get("SMRITI_TEST_PG_SERVER", "postgresql+psycopg://hindsight:hindsight@127.0.0.1:55433")


def sqlite_database(folder: Path) -> Database:
    """A migrated SQLite database in `folder` (the embedded default's layout)."""
    folder.mkdir(parents=True, exist_ok=True)
    database = Database(f"sqlite:///{folder / 'smriti.db'}")
    upgrade(database, INSTALLED.migrations())
    return database


def postgres_reachable() -> bool:
    engine = create_engine(f"{PG_SERVER}/hindsight", connect_args={"connect_timeout": 3})
    try:
        with engine.connect():
            return True
    except Exception:
        return False
    finally:
        engine.dispose()


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """CREATE DATABASE smriti_test_<random>, migrated; yields its URL and drops it afterwards."""
    name = f"smriti_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(f"{PG_SERVER}/hindsight", isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = f"{PG_SERVER}/{name}"
    database = Database(url)
    upgrade(database, INSTALLED.migrations())
    database.dispose()
    try:
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def empty_tables(database: Database) -> None:
    """Delete every row but the schema's version, so the next test starts clean on the same database."""
    names = [n for n in inspect(database.engine).get_table_names() if n != "alembic_version"]
    with database.engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {', '.join(names)} RESTART IDENTITY"))


def seed_people(home: Path) -> None:
    """Import the seed registry's people into the default database under `home`, as `smriti seed` does."""
    from bot.paths import SEEDS_DIR
    from bot.store.people import import_people_file

    database = sqlite_database(home)
    import_people_file(database, SEEDS_DIR / "users.json")
    database.dispose()
