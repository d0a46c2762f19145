"""Connecting to the one database: an engine per URL, sessions, and the settings SQLite needs to share well."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

from bot.log_hygiene import drop_messages_starting_with

# SQLAlchemy's DEBUG dump of result rows would log people's messages and transcripts.
drop_messages_starting_with("sqlalchemy.engine.Engine", "Row ")


def default_database_url(data_dir: Path) -> str:
    """The embedded default: one SQLite file in the data directory."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / 'smriti.db'}"


class UnsupportedDatabaseUrl(ValueError):
    """SMRITI_DATABASE_URL names a database the bot does not run on; the message says what to write instead."""


def normalize_database_url(url: str) -> str:
    """The SQLAlchemy URL for what an operator wrote: `postgres://` and `postgresql://` (as hosting providers
    print them) mean PostgreSQL through psycopg 3; sqlite:/// is the embedded default. Anything else is refused
    with a clear message."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise UnsupportedDatabaseUrl("SMRITI_DATABASE_URL is not a URL: write postgresql://user:password@host/name")
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    if scheme == "sqlite" or scheme.startswith("postgresql+"):
        return url
    raise UnsupportedDatabaseUrl(f"SMRITI_DATABASE_URL uses {scheme}://, which the bot does not run on: "
                                 "use postgresql://user:password@host:5432/name (or leave it unset for SQLite)")


def shown_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]  # a DB-API connection
    # WAL lets the CLI read while a bot writes; the busy timeout makes writers queue instead of failing.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Database:
    """One engine and session factory for a URL. Thread-safe; several processes may share the database."""

    def __init__(self, url: str) -> None:
        url = normalize_database_url(url)
        self.url = url
        # Parameters are people's messages: never in SQL logs, even with echo or DEBUG switched on.
        # A database that does not answer must not hang a worker: connecting gives up after a few seconds.
        server = url.startswith("postgresql")
        connect_args = {"connect_timeout": 5} if server else {}
        # A server may drop a pooled connection, so it is pinged before use; a SQLite file's connection cannot
        # go stale, and the ping was one more statement on each of the many checkouts of every message.
        self.engine: Engine = create_engine(url, future=True, hide_parameters=True, pool_pre_ping=server,
                                            connect_args=connect_args)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in one transaction: committed when the block ends, rolled back on an exception."""
        with self._sessions.begin() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()
