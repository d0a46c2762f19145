"""The one database: everything the bot keeps outside Hindsight.

SQLite under `SMRITI_HOME` by default, PostgreSQL (or any SQLAlchemy URL) by `SMRITI_DATABASE_URL`. Tables are
declared on `Base`; the schema is made by Alembic migrations only (`smriti db upgrade`, and at start-up).
Core migrations live in `bot/store/migrations/versions`; each pack may add its own folder of migrations (a
branch of the same history), handed in by whoever assembles the app, so the core never imports a pack.
"""

from bot.store.base import Base
from bot.store.db import Database, default_database_url
from bot.store.migrate import CORE_MIGRATIONS, upgrade

__all__ = ["Base", "CORE_MIGRATIONS", "Database", "default_database_url", "upgrade"]
