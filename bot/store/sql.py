"""Small SQL idioms both dialects share: insert-if-absent and upsert, atomic in one statement."""

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Connection, CursorResult, Result, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from sqlalchemy.sql import FromClause


def _insert(session: Session | Connection, table: Table) -> Any:
    dialect = (session.dialect if isinstance(session, Connection) else session.get_bind().dialect).name
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"no insert-if-absent for {dialect}")


def _table(table: Table | FromClause) -> Table:
    """A mapped class's `__table__` is typed as the FromClause it is declared as; it is a Table."""
    if not isinstance(table, Table):
        raise TypeError(f"not a table: {table!r}")
    return table


def insert_ignore(session: Session | Connection, table: Table | FromClause, values: Mapping[str, Any]) -> bool:
    """Insert a row unless its key exists; True when this call inserted it (a unique key decides races)."""
    table = _table(table)
    # RETURNING, not rowcount: psycopg reports no rowcount for INSERT .. ON CONFLICT DO NOTHING.
    key = list(table.primary_key.columns)[0]
    result = session.execute(_insert(session, table).values(**values).on_conflict_do_nothing().returning(key))
    return result.first() is not None


def upsert(session: Session, table: Table | FromClause, values: Mapping[str, Any], keys: Sequence[str]) -> None:
    """Insert a row, or update the given non-key columns of the existing one."""
    table = _table(table)
    statement = _insert(session, table).values(**values)
    changes = {k: statement.excluded[k] for k in values if k not in keys}
    if changes:
        session.execute(statement.on_conflict_do_update(index_elements=list(keys), set_=changes))
    else:
        session.execute(statement.on_conflict_do_nothing())


def rowcount(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE touched (Session.execute is typed as returning any Result)."""
    if not isinstance(result, CursorResult):
        raise TypeError("rowcount needs the result of an UPDATE or DELETE")
    return result.rowcount


def aware(value: datetime) -> datetime:
    """SQLite hands datetimes back naive; they were written in UTC."""
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def utc(value: datetime | None) -> datetime | None:
    """SQLite hands datetimes back naive; they were written in UTC."""
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
