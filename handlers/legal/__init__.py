"""The legal pack: hearing memory for litigators (uploads -> one entry per hearing -> "what happened last time?").

The pack itself is in handlers/legal/pack.py; it is imported when the bot builds it, not when a command is parsed.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.pack import Services
    from handlers.legal.pack import LegalPack


def create_pack(services: "Services") -> "LegalPack":
    """Build the pack for a running bot."""
    from handlers.legal.pack import LegalPack

    return LegalPack(services)
