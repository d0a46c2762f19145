"""Smriti's memory layer: the only package that talks to Hindsight.

Public surface: MemoryClient (retain, recall, reflect, bank setup, counts), the models that cross the
boundary, tag and document-id builders, as-of helpers, the call log, and the local server launcher
(memory.local, imported on demand because it needs the `local` extra only to start a server).
MemoryClient is imported on first use: the Hindsight client takes most of a second to import, and commands that
never call memory (`smriti --help`) should not wait for it.
"""

from typing import TYPE_CHECKING

from memory.banks import bank_id
from memory.calllog import CallLog, CallRecord
from memory.errors import BankNotFound, MemoryLayerError, MemoryRejected, MemoryUnavailable
from memory.models import (
    EVENT_DATE_KEY,
    BankProfile,
    BankStats,
    MemoryItem,
    Period,
    Recalled,
    RecallRequest,
    ReflectAnswer,
    RetainReport,
    StoredDocument,
)

if TYPE_CHECKING:
    from memory.client import MemoryClient


def __getattr__(name: str) -> object:
    if name == "MemoryClient":
        from memory.client import MemoryClient

        return MemoryClient
    raise AttributeError(f"module 'memory' has no attribute {name!r}")


__all__ = [
    "EVENT_DATE_KEY",
    "BankProfile",
    "BankStats",
    "CallLog",
    "CallRecord",
    "MemoryClient",
    "Period",
    "MemoryItem",
    "MemoryLayerError",
    "MemoryRejected",
    "BankNotFound",
    "MemoryUnavailable",
    "Recalled",
    "RecallRequest",
    "ReflectAnswer",
    "RetainReport",
    "StoredDocument",
    "bank_id",
]
