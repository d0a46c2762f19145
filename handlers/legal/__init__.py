"""The legal pack: hearing memory for litigators (uploads -> one entry per hearing -> "what happened last time?")."""

from handlers.base import Services
from handlers.legal.pack import LegalPack


def create_pack(services: Services) -> LegalPack:
    return LegalPack(services)


__all__ = ["LegalPack", "create_pack"]
