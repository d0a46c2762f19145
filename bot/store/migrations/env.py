"""Alembic's environment: runs migrations on the Database handed in by bot.store.migrate."""

from alembic import context

from bot.store.base import Base
from bot.store.db import Database

database: Database = context.config.attributes["database"]

with database.engine.connect() as connection:
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=database.dialect == "sqlite")
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
