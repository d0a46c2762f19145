"""Running the migrations: the core's and every pack's, as one Alembic history with a branch per pack.

Every start checks the schema. Loading Alembic and every migration script to find there is nothing to do costs
about half a second, so a successful upgrade leaves a mark: a hash of the migration files together with the
revisions the database then stood at. When both are unchanged at the next start, Alembic is not loaded at all;
a new migration file, an edited one, or a database moved to other revisions (a downgrade) runs the upgrade.
"""

import contextlib
import fcntl
import hashlib
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, Connection, MetaData, String, Table, inspect, select, text
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from bot.store.db import Database

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

CORE_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK_KEY = 0x736D72697469  # "smriti": one advisory lock per database for its migrations

_marks = Table("schema_marks", MetaData(),
               Column("name", String(32), primary_key=True),
               Column("fingerprint", String(64), nullable=False))


def alembic_config(database: Database, pack_migrations: Sequence[Path] = ()) -> "Config":
    """An Alembic config with no ini file: the core's script folder plus each pack's versions folder."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(CORE_MIGRATIONS))
    locations = _locations(pack_migrations)
    # Alembic splits this option on the separator; paths here never contain one.
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", ":".join(str(p) for p in locations))
    config.attributes["database"] = database
    return config


def _locations(pack_migrations: Sequence[Path]) -> list[Path]:
    return [CORE_MIGRATIONS / "versions", *pack_migrations]


def _scripts_digest(pack_migrations: Sequence[Path]) -> str:
    digest = hashlib.sha256()
    for folder in _locations(pack_migrations):
        for script in sorted(Path(folder).glob("*.py")):
            digest.update(script.name.encode())
            digest.update(script.read_bytes())
    return digest.hexdigest()


def _mark_of(scripts: str, db: Connection) -> str | None:
    """The mark for these scripts and the revisions the database stands at; None before any upgrade."""
    if not inspect(db).has_table("alembic_version"):
        return None
    revisions = sorted(str(r) for r in db.exec_driver_sql("SELECT version_num FROM alembic_version").scalars())
    return hashlib.sha256("\n".join([scripts, *revisions]).encode()).hexdigest()


def _stored_mark(db: Connection) -> str | None:
    if not inspect(db).has_table(_marks.name):
        return None
    return db.execute(select(_marks.c.fingerprint).where(_marks.c.name == "schema")).scalar()


def _up_to_date(database: Database, scripts: str) -> bool:
    with database.engine.connect() as db:
        current = _mark_of(scripts, db)
        return current is not None and _stored_mark(db) == current


@contextlib.contextmanager
def migration_lock(database: Database) -> Iterator[None]:
    """Hold the one migration lock of this database for the block: PostgreSQL's session advisory lock, or a
    file lock beside a SQLite file. Two workers starting together on an empty database take turns: the second
    finds the schema made and has nothing to do."""
    if database.dialect == "postgresql":
        with database.engine.connect() as holder:
            holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            try:
                yield
            finally:
                holder.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
                holder.commit()
        return
    path = database.engine.url.database
    if database.dialect != "sqlite" or not path or path == ":memory:":
        yield
        return
    with open(f"{path}.migrate.lock", "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def upgrade(database: Database, pack_migrations: Sequence[Path] = ()) -> None:
    """Bring the schema to the newest revision of the core and of every given pack (idempotent), under the
    migration lock."""
    scripts = _scripts_digest(pack_migrations)
    if _up_to_date(database, scripts):
        return
    with migration_lock(database):
        if _up_to_date(database, scripts):  # another process upgraded while this one waited
            return
        _upgrade(database, pack_migrations, scripts)


def _upgrade(database: Database, pack_migrations: Sequence[Path], scripts: str) -> None:
    from alembic import command

    command.upgrade(alembic_config(database, pack_migrations), "heads")
    try:
        with database.engine.begin() as db:
            mark = _mark_of(scripts, db)
            _marks.create(db, checkfirst=True)
            db.execute(_marks.delete().where(_marks.c.name == "schema"))
            db.execute(_marks.insert().values(name="schema", fingerprint=mark))
    except SQLAlchemyError:
        # Another process upgrading at the same moment wrote it, or will: the mark only saves time.
        log.info("schema mark not written this time", exc_info=True)


class SchemaState(BaseModel):
    """Where the database stands against the migration scripts (`smriti db current|check`)."""

    current: list[str]
    heads: list[str]

    @property
    def up_to_date(self) -> bool:
        return sorted(self.current) == sorted(self.heads)


def schema_state(database: Database, pack_migrations: Sequence[Path] = ()) -> SchemaState:
    """The revisions the database stands at and the newest the scripts know; changes nothing."""
    from alembic.script import ScriptDirectory

    heads = list(ScriptDirectory.from_config(alembic_config(database, pack_migrations)).get_heads())
    with database.engine.connect() as db:
        current = [] if not inspect(db).has_table("alembic_version") else \
            [str(r) for r in db.exec_driver_sql("SELECT version_num FROM alembic_version").scalars()]
    return SchemaState(current=sorted(current), heads=sorted(heads))
