"""The accounts-payable pack: invoice -> three-way match -> gated vendor recall -> risk -> decision -> selective retain.

The pack itself is in handlers/ap/pack.py; it is imported when the bot builds it, not when a command is parsed.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.pack import Services
    from handlers.ap.pack import APPack


def create_pack(services: "Services") -> "APPack":
    """Build the pack for a running bot."""
    from handlers.ap.pack import APPack

    return APPack(services)
