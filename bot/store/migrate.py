"""Running the migrations: the core's and every pack's, as one Alembic history with a branch per pack.

Every start checks the schema. Loading Alembic and every migration script to find there is nothing to do costs
about half a second, so a successful upgrade leaves a mark: a hash of the migration files together with the
revisions the database then stood at. When both are unchanged at the next start, Alembic is not loaded at all;
a new migration file, an edited one, or a database moved to other revisions (a downgrade) runs the upgrade.
"""

import hashlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, Connection, MetaData, String, Table, inspect, select
from sqlalchemy.exc import SQLAlchemyError

from bot.store.db import Database

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

CORE_MIGRATIONS = Path(__file__).resolve().parent / "migrations"

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


def upgrade(database: Database, pack_migrations: Sequence[Path] = ()) -> None:
    """Bring the schema to the newest revision of the core and of every given pack (idempotent)."""
    scripts = _scripts_digest(pack_migrations)
    with database.engine.connect() as db:
        current = _mark_of(scripts, db)
        if current is not None and _stored_mark(db) == current:
            return
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
