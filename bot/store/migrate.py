"""Running the migrations: the core's and every pack's, as one Alembic history with a branch per pack."""

from collections.abc import Sequence
from pathlib import Path

from alembic import command
from alembic.config import Config

from bot.store.db import Database

CORE_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(database: Database, pack_migrations: Sequence[Path] = ()) -> Config:
    """An Alembic config with no ini file: the core's script folder plus each pack's versions folder."""
    config = Config()
    config.set_main_option("script_location", str(CORE_MIGRATIONS))
    locations = [CORE_MIGRATIONS / "versions", *pack_migrations]
    # Alembic splits this option on the separator; paths here never contain one.
    config.set_main_option("path_separator", "os")
    config.set_main_option("version_locations", ":".join(str(p) for p in locations))
    config.attributes["database"] = database
    return config


def upgrade(database: Database, pack_migrations: Sequence[Path] = ()) -> None:
    """Bring the schema to the newest revision of the core and of every given pack (idempotent)."""
    command.upgrade(alembic_config(database, pack_migrations), "heads")
