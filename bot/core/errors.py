"""What can go wrong while handling a message, split by what to do about it.

    Exception
    ├── SmritiError
    │   ├── TransientError ............ retry later; tell the person their message is kept
    │   │   └── ServiceUnavailable .... an outside service is down, slow or refusing for now
    │   │       ├── ChatUnavailable ... the Groq chat model
    │   │       ├── SpeechUnavailable . speech to text (Groq or local); held, not given up
    │   │       └── VisionUnavailable . the Groq vision model
    │   └── PermanentError ............ retrying gives the same result: fail the item at once
    │       └── InputRejected ......... the input itself cannot be used
    │           └── bot.services.audio.AudioRejected
    ├── memory.MemoryUnavailable ...... transient (Hindsight down or failing on its side)
    ├── memory.MemoryRejected ......... permanent (Hindsight refused the request itself)
    ├── TimeoutError, ConnectionError,
    │   httpx.TransportError .......... transient (a raw network failure that escaped a client)
    ├── sqlalchemy OperationalError,
    │   InterfaceError ................ transient (the database is down or restarting)
    └── anything else ................. permanent: a bug

A transient failure keeps the item for the intake worker's backoff. A permanent one fails the item at once,
records the error and a short reference for the operator (`smriti queue list`), and the person gets a plain
apology carrying that reference. The memory layer keeps its own tree (memory/errors.py): it sits below the bot.
"""

import secrets
import sys

from memory.errors import MemoryUnavailable


class SmritiError(Exception):
    """Root of the bot's own errors."""


class TransientError(SmritiError):
    """Trying again later may work."""


class ServiceUnavailable(TransientError):
    """An outside service could not be reached, timed out or failed on its side."""


class ChatUnavailable(ServiceUnavailable):
    """The Groq chat model could not be reached or failed on its side."""


class SpeechUnavailable(ServiceUnavailable):
    """No transcript now, through no fault of the audio: the note is kept and transcribed later.

    `retry` is False when no engine is set up at all: the note then waits until one is, instead of being
    retried on a timer."""

    def __init__(self, reason: str, retry: bool = True) -> None:
        super().__init__(reason)
        self.retry = retry


class VisionUnavailable(ServiceUnavailable):
    """The Groq vision model could not be reached, failed, or could not take this image."""


class PermanentError(SmritiError):
    """Trying again gives the same result."""


class InputRejected(PermanentError):
    """The input cannot be used; the message is safe to show the sender."""


TRANSIENT: tuple[type[BaseException], ...] = (TransientError, MemoryUnavailable, TimeoutError, ConnectionError)


def is_transient(exc: BaseException) -> bool:
    """True when retrying later may succeed (httpx.TransportError too); every other failure is permanent."""
    if isinstance(exc, TRANSIENT):
        return True
    # Not imported here (it costs a tenth of a second at start-up): a program that never loaded httpx cannot
    # have raised one of its errors.
    httpx = sys.modules.get("httpx")
    return (httpx is not None and isinstance(exc, httpx.TransportError)) or database_unavailable(exc)


def database_unavailable(exc: BaseException) -> bool:
    """True when the database could not be reached or dropped the connection (down, restarting, failing over),
    as opposed to refusing a statement: a query that is wrong stays wrong."""
    sa = sys.modules.get("sqlalchemy.exc")
    if sa is None:
        return False
    if isinstance(exc, (sa.OperationalError, sa.InterfaceError)):
        return True
    return isinstance(exc, sa.DBAPIError) and bool(exc.connection_invalidated)


def new_reference() -> str:
    """A short id that ties what the person is told to the operator's log line and queue entry."""
    return secrets.token_hex(3).upper()
