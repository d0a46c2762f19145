"""Errors raised by the memory layer.

MemoryError_ is the root. MemoryUnavailable means Hindsight could not be reached or answered with a server
error: answers should degrade ("memory unavailable"), writes must be queued or surfaced, never dropped.
MemoryRejected means Hindsight refused the request itself (bad input): retrying will not help.
"""


class MemoryLayerError(Exception):
    """Root of every error the memory layer raises."""


class MemoryUnavailable(MemoryLayerError):
    """Hindsight is down, unreachable, or failed on its side."""


class MemoryRejected(MemoryLayerError):
    """Hindsight refused the request (a 4xx other than reflect-without-LLM)."""


class BankNotFound(MemoryRejected):
    """The bank does not exist yet: reads answer empty, writes create the bank first (ensure_bank)."""
