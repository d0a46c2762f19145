"""The agri field-memory pack: voice note -> confirmed visit -> cited pre-visit brief -> outcome follow-up.

The pack itself is in handlers/agri/pack.py; it is imported when the bot builds it, not when a command is parsed.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.pack import Services
    from handlers.agri.pack import AgriPack


def create_pack(services: "Services") -> "AgriPack":
    """Build the pack for a running bot."""
    from handlers.agri.pack import AgriPack

    return AgriPack(services)
