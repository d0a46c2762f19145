"""The agri field-memory pack: voice note -> confirmed visit -> cited pre-visit brief -> outcome follow-up."""

from handlers.agri.pack import AgriPack
from handlers.base import Services


def create_pack(services: Services) -> AgriPack:
    """Build the pack for a running bot."""
    return AgriPack(services)


__all__ = ["AgriPack", "create_pack"]
