"""Start-up problems an operator can fix, each said in one clear line instead of a traceback: the database
URL's scheme, a database that cannot be reached, a memory server that does not answer (a warning: the bot
starts, and reports itself not ready until it answers)."""

import sys
from typing import TYPE_CHECKING

from bot.core.errors import database_unavailable
from bot.settings import Settings

if TYPE_CHECKING:
    from memory import MemoryClient


def explain(exc: BaseException, settings: Settings) -> str | None:
    """The one line for a start-up failure the operator can fix; None for anything else (a bug)."""
    from bot.store.db import UnsupportedDatabaseUrl, shown_url

    if isinstance(exc, UnsupportedDatabaseUrl):
        return f"smriti: {exc}"
    if database_unavailable(exc):
        cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        reason = (cause[0] if cause else type(exc).__name__)[:240]
        return (f"smriti: the database at {shown_url(settings.database_url)} cannot be reached ({reason}). "
                "Is it running, and is SMRITI_DATABASE_URL right?")
    return None


async def warn_if_memory_down(memory: "MemoryClient", settings: Settings) -> bool:
    """Say so when Hindsight does not answer; True when it answers."""
    if await memory.health():
        return True
    print(f"smriti: warning: the memory server at {settings.memory_url} does not answer; starting anyway "
          "(messages are kept and retried; /health/ready reports not ready until it answers).", file=sys.stderr)
    return False
